// The public types of the mock that its entry point exports: how it answers, and the simulator's own types, which
// live with the simulator (src/simulator/types.ts). They stay apart from the modules of a call and its answer
// (src/http/), whose Node.js types (Buffer) a project without @types/node must not need to compile.
import type { CoverageReport } from '../coverage/types.js';
import type { MockControl, SimulatorOptions, StateCounts } from '../simulator/types.js';

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
  StateCounts,
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
  /**
   * The most worlds the mock keeps besides the default one (`/worlds/{id}/...`, `control.createWorld()`): past it, the
   * world idle longest is forgotten. Default 100.
   */
  maxWorlds?: number | undefined;
  /**
   * The most bytes the worlds besides the default hold together (their accounts, tokens, faults and journals, as each
   * counts what it keeps): past it, the worlds idle longest are forgotten. Default 134217728 (128 MiB).
   */
  maxWorldBytes?: number | undefined;
}

/** How a world starts (`control.createWorld()`, `POST /__mock/worlds`). */
export interface WorldOptions {
  /** Its id: 1 to 64 letters, digits, `.`, `_` and `-`, not starting with `.`. Default: a new one (`world-1`...). */
  id?: string | undefined;
  /** Its starting data, checked as the mock's seed is (a SeedError naming each fault). Default: the mock's seed. */
  seed?: object | undefined;
  /**
   * Start as a copy of another world (`'default'`, or a world's id): its accounts with their monitors and groups as
   * they are now, its clock's time and its random faults; not its clients, tokens, fault scripts or journal.
   */
  from?: string | undefined;
}

/** A world of the mock: a simulator state of its own (accounts, tokens, clock, faults, journal) at its own addresses. */
export interface MockWorld {
  /** Its id (`default` for the mock's usual addresses). */
  readonly id: string;
  /** Its API root, as a data center's `{base_url}`: `http://127.0.0.1:PORT/worlds/ID/api`. */
  readonly baseUrl: string;
  /** Its identity provider, as a data center's `{auth_url}`: `http://127.0.0.1:PORT/worlds/ID`. */
  readonly authUrl: string;
  /** Its test API: `http://127.0.0.1:PORT/worlds/ID/__mock`. */
  readonly testApiUrl: string;
  /** Its test API as methods. Once the world is forgotten or ended, each throws an Error saying so. */
  readonly control: MockControl;
}

/** A world as `GET /__mock/worlds` lists it: its addresses and its state in counts (never a token or an account's data). */
export interface WorldSummary extends StateCounts {
  id: string;
  base_url: string;
  auth_url: string;
  test_api: string;
  /** The bytes its state holds, as the worlds' bound counts them. */
  held_bytes: number;
}

/** The worlds of a mock: the default first, then the others, the one idle longest (the next to be forgotten) first. */
export interface WorldsReport {
  worlds: WorldSummary[];
  /** The bounds of the worlds besides the default (maxWorlds, maxWorldBytes). */
  max_worlds: number;
  max_world_bytes: number;
  /** The bytes the worlds besides the default hold together, as the bound counts them. */
  held_bytes: number;
  /** How many worlds were forgotten since the mock started. */
  forgotten: number;
}

/** The mock's worlds as methods (`mock.control`), the same as over HTTP under `/__mock/worlds`. */
export interface MockWorlds {
  /**
   * Makes a world and gives its addresses and controls. Throws a TypeError or RangeError for a wrong option, an id
   * taken or a world to copy that is not there, a SeedError for a wrong seed, and an Error when the mock is at
   * `maxWorlds` with a call under way in every world.
   */
  createWorld(options?: WorldOptions): MockWorld;
  /** The world of an id, made from the mock's seed if there is none yet (as a call to its addresses makes it). */
  world(id: string): MockWorld;
  /** Every world with its addresses and counts, the bounds, and what the worlds hold together. */
  worlds(): WorldsReport;
  /** Ends a world: its addresses answer as a new world's on the next call. The default world is never ended. */
  deleteWorld(id: string): void;
  /**
   * The coverage of the whole run (`GET /__mock/coverage/all`): every world's merged, the default's, those there are
   * and those forgotten or ended. A TypeError when the mock counts no coverage.
   */
  runCoverage(): CoverageReport;
  /** Counts every world's coverage again from nothing (`DELETE /__mock/coverage/all`). */
  clearRunCoverage(): void;
}

/** Who may call the mock's API and identity provider over HTTP (startMock; src/mock/api-access.ts applies it). */
export interface ApiAccessOptions {
  /** The origins whose pages may call (`https://app.example.com`). Default: every origin. */
  allowedOrigins?: readonly string[] | undefined;
  /** Names the mock is reached by besides this machine's, its listen address and IP addresses (`mock` in a compose file). */
  allowedHosts?: readonly string[] | undefined;
}
