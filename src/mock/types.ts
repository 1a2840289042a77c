// The public types of the mock that its entry point exports. They stay apart from the modules of a call and its
// answer (src/http/), whose Node.js types (Buffer) a project without @types/node must not need to compile.
import type { AccountsSnapshot } from './simulator/state.js';
import type { CheckedFaultScript, CheckedRandomFaults, FaultScript, RandomFaults } from './simulator/faults.js';
import type { GrantCodeRequest, TokenCounts } from './simulator/tokens.js';

/** How the mock answers: `simulator` with state (the default), `examples` with the description's examples. */
export type MockMode = 'simulator' | 'examples';

/** How the mock answers, whatever carries it (startMock, createMockFetch). */
export interface MockBehaviour {
  /**
   * `'simulator'` (the default) answers with state: accounts and their monitors and groups, tokens with the identity
   * provider's limits, a clock, faults on demand, driven by `control` and the test API under `/__mock`.
   * `'examples'` replays the description's examples (no state, no test API).
   */
  mode?: MockMode | undefined;
  /**
   * Accept only the access tokens, refresh tokens, grant tokens and client IDs the simulator issued. Default false:
   * a well-formed token the mock never issued acts as the own account's, with every scope.
   */
  strictTokens?: boolean | undefined;
  /** The source of the simulated time (epoch ms), e.g. `() => fixedTime` for tests. Default `Date.now`. */
  clock?: (() => number) | undefined;
  /**
   * The starting data (default: the description's examples): a JSON file's path, or the value. Checked against the
   * description's schemas: a wrong one throws a SeedError naming the file, the JSON pointer and the fault.
   */
  seed?: string | object | undefined;
  /** Seeded random faults and latency for soak tests: `{ seed: 42, rate: 0.05, statuses: [500, 503], latency_ms: [0, 20] }`. */
  randomFaults?: RandomFaults | undefined;
}

/** What `GET /__mock/state` and `control.state()` give. Token values never appear: only counts. */
export interface MockState extends AccountsSnapshot {
  /** The simulated time, in the service's form. */
  now: string;
  strict_tokens: boolean;
  tokens: TokenCounts;
  /** Fault scripts still to play, in order. */
  faults: { operation: string; status?: number; retry_after_s?: number; delay_ms: number; remaining: number }[];
  random_faults: CheckedRandomFaults | null;
}

/** The simulator's controls. A wrong argument throws a TypeError or RangeError that names it. */
export interface MockControl {
  /** Registers a client, as the developer console does (section 5, item 2). */
  registerClient(): { client_id: string; client_secret: string };
  /** Generates a grant token for a registered client: its scopes, comma-separated, and a validity of 3 to 10 minutes (default 10). */
  grantCode(request: GrantCodeRequest): { code: string };
  /** Moves the simulated clock forward (token expiry, grant-token validity, the 10-minute windows). */
  advanceClock(ms: number): { now: string };
  /** Scripts the next `count` answers of an operation: a status (with `retry_after_s`), a delay, or both. */
  fault(script: FaultScript): CheckedFaultScript;
  /** Sets the seeded random faults and latency (undefined: none); the sequence starts again from the seed. */
  randomFaults(settings: RandomFaults | undefined): void;
  /** Accounts with their monitors and groups, token counts, the time, the faults to come. */
  state(): MockState;
  /** Back to the start: the seed's accounts, no tokens or clients, the clock and the faults as at start. */
  reset(): void;
}
