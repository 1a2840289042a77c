// The public types of the coverage report: what `GET /__mock/coverage`, `control.coverage()` and
// `monitoring-service-api coverage --format json` give, and what mergeCoverage() takes and gives. Plain JSON, so that a
// report saved by one test worker or CI shard merges with the others in any language; its JSON Schema is
// `monitoring-service-api/coverage.schema.json`.

/** A status an operation documents, or answered without documenting it. */
export interface StatusCoverage {
  status: number;
  /** The operation documents the status (a response of the description). */
  documented: boolean;
  /**
   * The operation lists the status because the core document's global table of statuses (section 7) gives it to every
   * call, not because the documents show this operation answering it. Shown, not counted in the percent.
   */
  global_table: boolean;
  /** Answers with this status. */
  calls: number;
}

/** One operation of the description: its calls and the statuses it answered. */
export interface OperationCoverage {
  /** The operationId (`listMonitors`). */
  operation: string;
  /** Its method, upper case. */
  method: string;
  /** Its path template as the mock serves it (`/api/monitors/{monitor_id}`, `/oauth/v2/token`). */
  path: string;
  /** What the operation does (its summary in the description). */
  summary: string;
  /** Calls that reached the operation. */
  calls: number;
  /** Of those, the calls the contract refused (the mock's checks, Prism's engine) before the simulator saw them. */
  refused: number;
  /** The statuses the operation documents, in the description's order, then those it answered undocumented. */
  statuses: StatusCoverage[];
}

/** A documented error the mock can answer, or a behaviour the simulator plays, by its stable name. */
export interface NamedCoverage {
  /** `monitor-does-not-exist`, `access-token-expired`... */
  name: string;
  description: string;
  /** Answers that were this error, or exchanges that played this behaviour. */
  calls: number;
}

/** Calls that matched no operation, by the operation each came closest to (the journal's near miss). */
export interface NearMissCoverage {
  operation: string;
  method: string;
  path: string;
  /** What differed from it: `method`, `path`, `server`. */
  differs: ('method' | 'path' | 'server')[];
  calls: number;
}

export interface UnmatchedCoverage {
  /** Calls that matched no operation (404, 405). */
  calls: number;
  /** Those that came close to an operation; the rest were near none. Their paths are in the request journal. */
  near_misses: NearMissCoverage[];
}

/** The kinds of what a report covers, in the order its uncovered list gives them. */
export type CoverageKind = 'behaviour' | 'error' | 'operation' | 'status';

/** Something a test suite can cover, by the name `--require` and `checkCoverage` take. */
export interface CoverageItem {
  kind: CoverageKind;
  /** `access-token-expired`, `monitor-does-not-exist`, `listMonitors`, `getMonitor:404`. */
  name: string;
  description: string;
  /** Whether the percent counts it: every item but the statuses of the global table. */
  counted: boolean;
}

/** Covered items of one kind. */
export interface CoverageTally {
  covered: number;
  total: number;
}

/** What a test suite exercised of the contract, from every exchange since the start or the last clear. */
export interface CoverageReport {
  report: 'contract coverage';
  /** The version of this format: 1. */
  format: 1;
  /** The description the mock served. */
  contract: { title: string; version: string };
  /** The exchanges counted: the API's and the identity provider's, not the test API's. */
  exchanges: number;
  /**
   * The items the percent counts: the operations called with a request the contract accepted, the statuses the
   * operations document themselves that were answered, the documented errors answered and the behaviours played.
   */
  covered: number;
  total: number;
  /** `covered` of `total`, in percent, rounded down to one decimal. */
  percent: number;
  /** Each kind apart; `global_statuses` (the statuses of the global table) is not counted in the percent. */
  tally: {
    operations: CoverageTally;
    statuses: CoverageTally;
    errors: CoverageTally;
    behaviours: CoverageTally;
    global_statuses: CoverageTally;
  };
  operations: OperationCoverage[];
  errors: NamedCoverage[];
  behaviours: NamedCoverage[];
  unmatched: UnmatchedCoverage;
  /**
   * What was not covered, in the order production meets it: the behaviours, the documented errors, the operations,
   * the statuses the operations document themselves, then those of the global table.
   */
  uncovered: CoverageItem[];
}

/** What `checkCoverage` gives: whether the report meets the minimum and the required items, and why not. */
export interface CoverageCheck {
  passed: boolean;
  /** One line per fault: the percent below the minimum, and each required item not covered. */
  failures: string[];
  /** The required items not covered. */
  missing: CoverageItem[];
}
