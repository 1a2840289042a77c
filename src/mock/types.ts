// The public types of the mock that its entry point exports: how it answers, and the simulator's own types, which
// live with the simulator (src/simulator/types.ts). They stay apart from the modules of a call and its answer
// (src/http/), whose Node.js types (Buffer) a project without @types/node must not need to compile.
import type { SimulatorOptions } from '../simulator/types.js';

export type {
  AccountSeed,
  CheckedFaultScript,
  CheckedRandomFaults,
  FaultScript,
  GrantCodeRequest,
  ManagedAccountSeed,
  MockControl,
  MockState,
  RandomFaults,
  Seed,
  SeedFault,
  TokenCounts,
} from '../simulator/types.js';

/** How the mock answers: `simulator` with state (the default), `examples` with the description's examples. */
export type MockMode = 'simulator' | 'examples';

/** How the mock answers, whatever carries it (startMock, createMockFetch). */
export interface MockBehaviour extends SimulatorOptions {
  /**
   * `'simulator'` (the default) answers with state: accounts and their monitors and groups, tokens with the identity
   * provider's limits, a clock, faults on demand, driven by `control` and the test API under `/__mock`.
   * `'examples'` replays the description's examples (no state, no test API).
   */
  mode?: MockMode | undefined;
}

/** Who may call the mock's API and identity provider over HTTP (startMock; src/mock/api-access.ts applies it). */
export interface ApiAccessOptions {
  /** The origins whose pages may call (`https://app.example.com`). Default: every origin. */
  allowedOrigins?: readonly string[] | undefined;
  /** Names the mock is reached by besides this machine's, its listen address and IP addresses (`mock` in a compose file). */
  allowedHosts?: readonly string[] | undefined;
}
