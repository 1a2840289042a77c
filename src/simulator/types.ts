// The simulator's public types: its options, its controls (the test API as methods), the state it shows, and the
// shapes they take and give. The mock's entry point re-exports them (src/mock/types.ts). They stay apart from the
// modules of a call and its answer (src/http/), whose Node.js types (Buffer) a project without @types/node must not
// need to compile.
import type { CoverageReport } from '../coverage/types.js';
import type { Json } from '../description/openapi.js';
import type { JournalFilter, JournalPage } from '../journal/types.js';

/** The options of the mock that the simulator takes. */
export interface SimulatorOptions {
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
  /** Entries the request journal keeps (the newest). Default 1,000; 0 turns it off. */
  journalSize?: number | undefined;
  /** Count what the exchanges covered of the contract (`control.coverage()`, `GET /__mock/coverage`). Default true. */
  coverage?: boolean | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Accounts: the seed, and the state's accounts in the same shape.

/**
 * The kinds of the own account (core document, section 1: a normal account, an MSP account with customer accounts, a
 * business-unit portal account with business-unit accounts). `msp_and_bu_portal`, both at once, is the default
 * seed's: the mock's own choice, so that one mock plays both.
 */
export type AccountType = 'normal' | 'msp' | 'bu_portal' | 'msp_and_bu_portal';

/** One account of the seed: its device key, monitors and monitor groups (and, for a managed account, name and zaaid). */
export interface AccountSeed {
  /** The own account only: its kind. Default `msp_and_bu_portal`. */
  type?: AccountType | undefined;
  /**
   * The own account only: the role ID (constants document: 0 No Access, 1 Super Administrator, 2 Administrator,
   * 3 Operator, 4 Billing Contact, 5 SpokesPerson, 6 Hosting Provider, 10 Read Only) of the user whose credentials
   * the mock did not issue, and of grant tokens generated without a role. Default 1.
   */
  role?: number | undefined;
  device_key: string;
  // Monitors and groups stay `Json`, the type release 2.0 published (the release gate rates a change of it major);
  // the simulator holds them as objects (Account, src/simulator/accounts.ts).
  /** Monitors as the API answers them: `monitor_id` and any other attribute. */
  monitors: Json[];
  /** Monitor groups as they were created: `display_name`, `description`. */
  groups: Json[];
}

/** A customer account (MSP) or a business-unit account (BU portal). */
export interface ManagedAccountSeed extends AccountSeed {
  name: string;
  zaaid: string;
}

export interface Seed {
  /** The caller's own account: an MSP account and a BU portal account at once. */
  account: AccountSeed;
  customers: ManagedAccountSeed[];
  business_units: ManagedAccountSeed[];
}

/** A fault of a seed: where (a JSON pointer into the file) and what. */
export interface SeedFault {
  pointer: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens.

export interface GrantCodeRequest {
  client_id: string;
  /** The role ID of the user the grant token (and its tokens) belongs to. Default: the seed's `account.role` (1). */
  role?: number | undefined;
  /** The client's secret: not needed (the console knows the client); when given, it must be the client's. */
  client_secret?: string | undefined;
  /** The scopes, comma-separated as in the console (`Service.Admin.Read,Service.Reports.Read`), or a list. */
  scope: string | string[];
  /** 3 to 10. Default 10. */
  validity_minutes?: number | undefined;
  /** The console's description of the grant token: kept by nobody, accepted for the form's sake. */
  description?: string | undefined;
}

export interface TokenCounts {
  clients: number;
  grant_codes: { unused: number; used: number; expired: number };
  refresh_tokens: { active: number; revoked: number; deleted: number };
  access_tokens: { active: number; expired: number; deleted: number; revoked: number };
}

// ---------------------------------------------------------------------------------------------------------------
// Faults.

/** A script of the next `count` answers of one operation. */
export interface FaultScript {
  /** The operationId (`listMonitors`, `requestToken`...). */
  operation: string;
  /** The status to answer with (400 to 599); without one, the answer is the usual one, after `delay_ms`. */
  status?: number | undefined;
  /** A `Retry-After` header of that many seconds. */
  retry_after_s?: number | undefined;
  /** Real time to wait before answering, in ms (at most 60 000). Default 0. */
  delay_ms?: number | undefined;
  /** How many answers in a row. Default 1. */
  count?: number | undefined;
}

/** A script as the mock keeps it: its defaults filled in. */
export type CheckedFaultScript = FaultScript & { delay_ms: number; count: number };

/** A seeded random fault rate and latency range, applied to every request the contract accepts. */
export interface RandomFaults {
  /** The seed of the random sequence (a whole number). */
  seed: number;
  /** The share of answers that are faults, from 0 to 1. Default 0 (latency only). */
  rate?: number | undefined;
  /** The statuses a fault draws from. Default [500, 503]. */
  statuses?: number[] | undefined;
  /** The range of the latency added to every answer, in ms, both ends included. Default [0, 0]. */
  latency_ms?: [number, number] | undefined;
}

/** Random fault settings as the mock keeps them: the defaults filled in. */
export interface CheckedRandomFaults {
  seed: number;
  rate: number;
  statuses: number[];
  latency_ms: [number, number];
}

/** A fault script still to play, as the state shows it. */
export interface PendingFault {
  operation: string;
  status?: number;
  retry_after_s?: number;
  delay_ms: number;
  remaining: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The state and the controls.

/** A state in counts, as the list of worlds gives each (`GET /__mock/worlds`): never a token or an account's data. */
export interface StateCounts {
  /** The simulated time. */
  now: string;
  /** The accounts (the own account, customers and business units), and their monitors and groups together. */
  accounts: number;
  monitors: number;
  groups: number;
  tokens: TokenCounts;
  /** Fault scripts still to play. */
  faults: number;
  /** Entries the request journal keeps. */
  requests: number;
}

/** What `GET /__mock/state` and `control.state()` give. Token values never appear: only counts. */
export interface MockState extends Seed {
  /** The simulated time, in the service's form. */
  now: string;
  strict_tokens: boolean;
  tokens: TokenCounts;
  /** Fault scripts still to play, in order. */
  faults: PendingFault[];
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
  /**
   * Sets the seeded random faults and latency (undefined: none); the sequence starts again from the seed. Gives the
   * settings in force, checked and with their defaults (null: none), as `POST /__mock/faults` and `state()` do.
   */
  randomFaults(settings: RandomFaults | undefined): CheckedRandomFaults | null;
  /** Accounts with their monitors and groups, token counts, the time, the faults to come. */
  state(): MockState;
  /**
   * Replaces the accounts with their monitors and groups by those of a seed (the `--seed` format, checked the same
   * way: a SeedError naming each JSON pointer and fault, nothing changed); clients, tokens, the clock and the faults
   * stay. Takes what `state()` gives too (its other keys are left aside): read, edit, set.
   */
  setState(seed: object): MockState;
  /** The journal's entries that a filter keeps (all without one), oldest first, and how many left the ring. */
  requests(filter?: JournalFilter): JournalPage;
  /** Empties the journal (ids go on growing). */
  clearRequests(): void;
  /**
   * What the exchanges since the start (or the last clearCoverage) covered of the contract: operations, statuses,
   * documented errors, the simulator's behaviours, calls that matched no operation. Throws a TypeError when the
   * mock counts nothing (`coverage: false`).
   */
  coverage(): CoverageReport;
  /** Starts counting the coverage again from nothing (a reset does not: it sets the state back, not the counts). */
  clearCoverage(): void;
  /** Back to the start: the seed's accounts, no tokens or clients, the clock and the faults as at start. */
  reset(): void;
}
