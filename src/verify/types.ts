// The public types and constants of verify: its options, its report, its defaults and exit statuses.
import type { DataCenterId } from '../../generated/client.js';
import type { FetchLike } from '../fetch/exchange.js';
import type { OptionNames } from '../options.js';
import type { ContractViolation } from './judge.js';
import type { UndescribedAttribute } from './walk.js';

/** Default bounds of a run: what a real account tolerates (the documents do not show the API's rate limits). */
export const verifyDefaults = {
  /** HTTP requests in one run, identity provider included. A full run with accounts needs about 20. */
  budget: 50,
  /** Requests per second (one every 500 ms). */
  ratePerSecond: 2,
  /** Time limit of one request, answer included. */
  timeoutMs: 30_000,
  /** The longest Retry-After verify waits; a longer one ends the run (incomplete). */
  maxWaitMs: 60_000,
  /** A monitor_id that no account has, for the documented 404 with code 1002. */
  unknownMonitorId: '1',
} as const;

/** Exit statuses of `monitoring-service-api verify`. */
export const verifyExitCodes = {
  /** Every answer agrees with the contract (attributes the contract does not describe are allowed). */
  clean: 0,
  /** The service broke the contract. */
  broken: 1,
  /** A wrong option or a missing credential: nothing was sent. */
  usage: 2,
  /** The run could not judge everything (no answer, the token refused, a server error, the budget or a wait), or could not start (Prism's engine missing). */
  incomplete: 3,
} as const;

export type VerifyAuth =
  | {
      /** From the developer console; sent to the identity provider only. */
      clientId: string;
      clientSecret: string;
      /** The permanent refresh token: verify asks the identity provider for one access token with it. */
      refreshToken: string;
      accessToken?: never;
    }
  | {
      /** A ready access token (e.g. for a team's own implementation): nothing is renewed. */
      accessToken: string;
      clientId?: never;
      clientSecret?: never;
      refreshToken?: never;
    };

export interface VerifyOptions {
  /** A data center of the description. Its hosts are placeholders: give `baseUrl` and `authUrl` too. */
  dataCenter?: DataCenterId | undefined;
  /** The API root (`{base_url}`, ending in `/api`), e.g. the mock's `http://127.0.0.1:4010/api`. */
  baseUrl?: string | undefined;
  /** The identity provider (`{auth_url}`); needed with a refresh token. */
  authUrl?: string | undefined;
  auth: VerifyAuth;
  /** Also call every GET for the first customer (MSP) and business-unit (BU portal) account, with `Cookie: zaaid=`. */
  accounts?: boolean | undefined;
  /** Operations that create or change data (operationIds, e.g. `createMonitorGroup`) to send once, with their documented example. */
  allow?: string[] | undefined;
  /** At most this many HTTP requests. Default 50. */
  budget?: number | undefined;
  /** At most this many requests per second. Default 2. */
  ratePerSecond?: number | undefined;
  /** Time limit of one request. Default 30 000 ms. */
  timeoutMs?: number | undefined;
  /** The longest Retry-After to wait for. Default 60 000 ms. */
  maxWaitMs?: number | undefined;
  /** A monitor_id that does not exist, for the 404 with code 1002. Default `1`. */
  unknownMonitorId?: string | undefined;
  /** The bundled description to verify against. Default: this package's. */
  description?: object | undefined;
  /** Custom fetch, for the service and the identity provider. Default: the global fetch. */
  fetch?: FetchLike | undefined;
  /**
   * Allow plain-http addresses on other machines. Without it, `baseUrl` and `authUrl` must be https, except on this
   * machine (localhost, 127.0.0.1, ::1), so that the credentials never cross a network unencrypted.
   */
  insecure?: boolean | undefined;
  /** Called with each check as it completes (redacted), e.g. to show progress. */
  onCheck?: ((check: CheckReport) => void) | undefined;
  /**
   * How the report's notes name these options. Default: as code writes them (`unknownMonitorId`, `accounts: true`);
   * the command line gives its flags (`--unknown-monitor-id`, `--accounts`).
   */
  optionNames?: OptionNames | undefined;
}

/**
 * - `pass`: the answer agrees with the contract and is the one the call aimed at.
 * - `fail`: the answer breaks the contract (see `violations`).
 * - `unconfirmed`: a documented answer, but not the one aimed at (e.g. 403 listing customers of an account that is
 *   not an MSP account; the "unknown" monitor exists): nothing wrong, nothing proven either.
 * - `incomplete`: no answer to judge (network error, timeout), the token refused (401), a server or gateway error,
 *   or 429 to the end.
 * - `skipped`: not sent (the budget is spent, a Retry-After too long, no access token).
 */
export type CheckOutcome = 'pass' | 'fail' | 'unconfirmed' | 'incomplete' | 'skipped';

/** What a call aims at. */
export type CheckPurpose = 'sign-in' | 'documented-call' | 'no-token' | 'unknown-monitor' | 'write';

export interface CheckReport {
  /** The operationId. */
  operation: string;
  method: string;
  /** The path template, relative to the API root (the identity provider's paths start with /oauth). */
  template: string;
  /** The path sent (with the query), relative to the API root or the identity provider. */
  path?: string | undefined;
  purpose: CheckPurpose;
  /** The call in words, e.g. `without a token (expects 401)`. */
  label: string;
  /** The account the call acted on, through the zaaid cookie (its value is not reported). */
  account?: 'customer' | 'business unit' | undefined;
  status?: number | undefined;
  outcome: CheckOutcome;
  violations: ContractViolation[];
  /** Attributes of the answer that the contract does not describe: allowed (core document, section 9). */
  undescribed: UndescribedAttribute[];
  notes: string[];
  /** HTTP requests of this call (retries after 429/503 included). */
  attempts: number;
  durationMs?: number | undefined;
}

export interface OperationSummary {
  operation: string;
  method: string;
  template: string;
  calls: number;
  outcome: CheckOutcome;
  violations: number;
  /** Attributes not described, each counted once per status and place whatever the number of calls. */
  undescribed: number;
}

export interface VerifyReport {
  target: { baseUrl: string; authUrl?: string | undefined; dataCenter?: string | undefined; auth: 'refresh token' | 'access token' };
  contract: { title: string; version: string };
  startedAt: string;
  finishedAt: string;
  limits: { budget: number; ratePerSecond: number; maxWaitMs: number; requestsSent: number };
  options: { accounts: boolean; allow: string[]; unknownMonitorId: string };
  checks: CheckReport[];
  /** One line per operation: the worst outcome of its calls. */
  operations: OperationSummary[];
  /** The attributes the contract does not describe, once per operation, status and place (allowed, section 9). */
  undescribed: (UndescribedAttribute & { operation: string; status: number; calls: number })[];
  /** Statuses the service answered that the operation does not document (each also a violation). */
  undocumentedStatuses: { operation: string; status: number }[];
  /** Notes of the run (accounts not found, the run cut short...). */
  notes: string[];
  result: 'clean' | 'broken' | 'incomplete';
  exitCode: 0 | 1 | 3;
}
