// monitoring-service-api/verify: checks a live service against the contract. It calls every documented GET of
// the API (with `accounts`, again for the first customer and business-unit account, through the zaaid cookie), the
// error paths it can provoke without side effects (no token: 401; a monitor that does not exist: 404, code 1002),
// and a write only when `allow` names its operation; it judges each answer with Prism's validator and its own
// checks (judge.ts), and reports by operation what breaks the contract and what the contract does not describe.
//
// A run is bounded: a budget of HTTP requests, a rate, Retry-After honoured. Secrets (client ID and secret, refresh
// token, access tokens) never appear in what it returns, prints or throws.
import { dataCenters, type DataCenterId } from '../../generated/client.js';
import { RefreshingTokens, fixedToken, type TokenSource } from '../client/auth.js';
import { credentialAddress, parseRetryAfter, type FetchLike } from '../client/http.js';
import { isPathValue, isZaaid } from '../client/request-values.js';
import { ServiceError } from '../client/errors.js';
import { apiRoot } from '../description/mock-document.js';
import { deref, operationsOf, type Json } from '../description/openapi.js';
import { exampleOf, serializeBody } from '../description/samples.js';
import type { RouteOperation } from '../description/routes.js';
import { packagedDescription } from '../mock/packaged.js';
import { createJudge, type ContractViolation, type Judge } from './judge.js';
import { Pacer } from './pace.js';
import { Redactor } from '../output/redact.js';
import type { UndescribedAttribute } from './walk.js';

export type { ContractViolation, ViolationRule } from './judge.js';
export type { UndescribedAttribute } from './walk.js';
export { formatCheck, formatMarkdown, formatSummary } from './report.js';

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

interface Settings {
  baseUrl: string;
  authUrl: string | undefined;
  dataCenter: string | undefined;
  auth: VerifyAuth;
  accounts: boolean;
  allow: string[];
  budget: number;
  ratePerSecond: number;
  timeoutMs: number;
  maxWaitMs: number;
  unknownMonitorId: string;
  description: Json | undefined;
  fetch: FetchLike;
  insecure: boolean;
  onCheck: ((check: CheckReport) => void) | undefined;
}

function positive(name: string, value: number | undefined, fallback: number, whole = true): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    throw new TypeError(`${name} must be a ${whole ? 'whole ' : ''}number > 0, not ${String(value)}`);
  }
  return value;
}

function checkUrl(name: 'baseUrl' | 'authUrl', value: string, insecure: boolean): string {
  const address = credentialAddress(name, value, insecure);
  const { hostname } = new URL(address);
  if (hostname.endsWith('.invalid')) {
    throw new TypeError(
      `${hostname} is a placeholder host of the description (the documents do not give the data centers' hosts): give your data center's real ${name === 'baseUrl' ? 'API root with --base-url (baseUrl)' : 'identity provider with --auth-url (authUrl)'}.`,
    );
  }
  return address;
}

/** The operations that create or change data, which `allow` may name. */
export function writeOperations(description?: object): string[] {
  return resourceOperations((description as Json | undefined) ?? packagedBundle()).filter((entry) => entry.method !== 'get').map((entry) => entry.operationId);
}

const packagedBundle = (): Json => packagedDescription;

interface ResourceOperation {
  operationId: string;
  method: string;
  /** Relative to the API root: /monitors/{monitor_id}. */
  template: string;
  node: Json;
  parameters: Json[];
}

/** The operations of the API root (not the identity provider's), in the description's order. */
function resourceOperations(document: Json): ResourceOperation[] {
  return operationsOf(document)
    .filter(({ path }) => !Array.isArray(document.paths[path].servers)) // not the identity provider's paths
    .map(({ path: template, method, operation: node }) => ({
      operationId: String(node.operationId ?? `${method} ${template}`),
      method,
      template,
      node,
      parameters: [...(document.paths[template].parameters ?? []), ...(node.parameters ?? [])].map((parameter: Json) => deref(document, parameter) ?? {}),
    }));
}

/** Checks the options and resolves the defaults; throws a TypeError naming a wrong option (nothing is sent). */
export function resolveVerifyOptions(options: VerifyOptions): Settings {
  if (!options || typeof options !== 'object') throw new TypeError('verifyService needs options: { baseUrl, authUrl, auth } or { dataCenter, baseUrl, authUrl, auth }');
  const center = options.dataCenter === undefined ? undefined : (dataCenters as Record<string, { baseUrl: string; authUrl: string } | undefined>)[options.dataCenter];
  if (options.dataCenter !== undefined && (!center || !Object.hasOwn(dataCenters, options.dataCenter))) {
    throw new TypeError(`Unknown data center ${JSON.stringify(options.dataCenter)}: use one of ${Object.keys(dataCenters).join(', ')}.`);
  }
  const rawBase = options.baseUrl ?? center?.baseUrl;
  if (!rawBase) throw new TypeError('Give the API root to verify: --base-url (baseUrl), e.g. http://127.0.0.1:4010/api for the mock.');
  const insecure = options.insecure === true;
  const baseUrl = checkUrl('baseUrl', rawBase, insecure);
  const auth = options.auth as Partial<Record<string, unknown>> | undefined;
  if (!auth || typeof auth !== 'object') throw new TypeError('auth is required: { clientId, clientSecret, refreshToken } or { accessToken }');
  const refreshing = auth.refreshToken !== undefined || auth.clientId !== undefined || auth.clientSecret !== undefined;
  let authUrl: string | undefined;
  if (refreshing) {
    for (const name of ['clientId', 'clientSecret', 'refreshToken']) {
      if (typeof auth[name] !== 'string' || auth[name] === '') throw new TypeError(`auth.${name} is required with a refresh token (a non-empty string)`);
    }
    const rawAuth = options.authUrl ?? center?.authUrl;
    if (!rawAuth) throw new TypeError('A refresh token needs the identity provider: --auth-url (authUrl), e.g. http://127.0.0.1:4010 for the mock.');
    authUrl = checkUrl('authUrl', rawAuth, insecure);
  } else {
    if (typeof auth.accessToken !== 'string' || auth.accessToken === '') throw new TypeError('auth needs { clientId, clientSecret, refreshToken } or { accessToken }');
    authUrl = options.authUrl === undefined ? undefined : checkUrl('authUrl', options.authUrl, insecure);
  }
  const document = (options.description as Json | undefined) ?? packagedBundle();
  const writes = resourceOperations(document).filter((entry) => entry.method !== 'get');
  const allow = [...new Set(options.allow ?? [])];
  for (const name of allow) {
    if (!writes.some((entry) => entry.operationId === name)) {
      const isGet = resourceOperations(document).some((entry) => entry.operationId === name);
      throw new TypeError(
        isGet
          ? `${name} reads data: verify sends every documented GET without being asked.`
          : `${JSON.stringify(name)} is not an operation of the API that creates or changes data; those are: ${writes.map((entry) => entry.operationId).join(', ') || 'none'}.`,
      );
    }
  }
  const unknownMonitorId = options.unknownMonitorId ?? verifyDefaults.unknownMonitorId;
  if (!/^[0-9]+$/.test(unknownMonitorId)) throw new TypeError(`unknownMonitorId must be a string of digits (a monitor_id), not ${JSON.stringify(unknownMonitorId)}`);
  return {
    baseUrl,
    authUrl,
    dataCenter: options.dataCenter,
    auth: options.auth,
    accounts: options.accounts === true,
    allow,
    budget: positive('budget', options.budget, verifyDefaults.budget),
    ratePerSecond: positive('ratePerSecond', options.ratePerSecond, verifyDefaults.ratePerSecond, false),
    timeoutMs: positive('timeoutMs', options.timeoutMs, verifyDefaults.timeoutMs),
    maxWaitMs: options.maxWaitMs === 0 ? 0 : positive('maxWaitMs', options.maxWaitMs, verifyDefaults.maxWaitMs),
    unknownMonitorId,
    description: options.description as Json | undefined,
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
    insecure,
    onCheck: options.onCheck,
  };
}

/**
 * Verifies a live service against the contract and resolves to the report (`exitCode`: 0 clean, 1 the service
 * broke the contract, 3 incomplete). Rejects with a TypeError for a wrong option (nothing sent), and with an
 * error when Prism's engine is not installed. Nothing it resolves or rejects with holds a secret.
 */
export async function verifyService(options: VerifyOptions): Promise<VerifyReport> {
  const settings = resolveVerifyOptions(options);
  const auth = settings.auth as Partial<Record<string, string>>;
  const redactor = new Redactor([auth.clientId, auth.clientSecret, auth.refreshToken, auth.accessToken]);
  const onCheck = settings.onCheck;
  try {
    const report = await run({ ...settings, onCheck: onCheck && ((check) => onCheck(redactor.value(check))) }, redactor);
    return redactor.value(report);
  } catch (error) {
    throw redactor.error(error);
  }
}

interface Sent {
  status: number;
  headers: Record<string, string>;
  text: string;
}

type SendResult = { ok: true; answer: Sent; attempts: number; durationMs: number } | { ok: false; outcome: 'incomplete' | 'skipped'; note: string; attempts: number; answer?: Sent };

const outcomeRank: Record<CheckOutcome, number> = { pass: 0, unconfirmed: 1, skipped: 2, incomplete: 3, fail: 4 };

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a redirect points, as origin and path (its query may hold anything). */
function redirectTarget(location: string, base: string): string {
  try {
    const url = new URL(location, base);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'an address that is not a URL';
  }
}

/** The note of a redirect answer, or undefined for any other answer. */
function redirectNote(answer: { status: number; headers: Record<string, string> }, base: string): string | undefined {
  if (answer.status < 300 || answer.status >= 400 || answer.headers.location === undefined) return undefined;
  return `a redirect to ${redirectTarget(answer.headers.location, base)}, not followed: verify sends credentials only to the address it was given`;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const failure = error as Error & { cause?: Error & { code?: string } };
  if (failure?.name === 'TimeoutError' || failure?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = failure?.cause;
  return cause ? `${cause.message}${cause.code && !cause.message.includes(cause.code) ? ` (${cause.code})` : ''}` : String(failure?.message ?? failure);
}

async function run(settings: Settings, redactor: Redactor): Promise<VerifyReport> {
  const started = Date.now();
  const judge: Judge = await createJudge(settings.description);
  const bundleDocument = settings.description ?? packagedBundle();
  const document = judge.document;
  const version = String(document.info?.version ?? '');
  const accept = `application/json; version=${version}`;
  const pacer = new Pacer({ budget: settings.budget, ratePerSecond: settings.ratePerSecond, maxWaitMs: settings.maxWaitMs });
  const checks: CheckReport[] = [];
  const notes: string[] = [];

  const record = (check: CheckReport) => {
    checks.push(check);
    settings.onCheck?.(check);
  };

  /** One HTTP request within the budget, the rate and the time limit. */
  const once = async (request: Request): Promise<{ refused: string } | { response: Response; text: string } | { error: string }> => {
    const refusal = await pacer.slot();
    if (refusal) return { refused: refusal.message };
    try {
      // Never follow a redirect: the request carries credentials, and a 3xx is an answer to judge (and report).
      const response = await settings.fetch(new Request(request, { signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'manual' }));
      const text = await response.text();
      return { response, text };
    } catch (error) {
      return { error: describeFailure(error, settings.timeoutMs) };
    }
  };

  /** Calls in a row that got no answer: after three, the service is taken to be down and the run ends. */
  let unanswered = 0;
  /** A call with up to two retries after 429 or 503, waiting as Retry-After says (or 1 s, then 2 s). */
  const send = async (build: () => Request): Promise<SendResult> => {
    const begun = performance.now();
    let attempts = 0;
    for (let retry = 0; ; retry++) {
      const result = await once(build());
      if ('refused' in result) return { ok: false, outcome: 'skipped', note: `not sent: ${result.refused}`, attempts };
      attempts += 1;
      if ('error' in result) {
        unanswered += 1;
        if (unanswered >= 3) pacer.stop({ reason: 'no-answer', message: `${unanswered} calls in a row got no answer (the last: ${result.error})` });
        return { ok: false, outcome: 'incomplete', note: `no answer: ${result.error}`, attempts };
      }
      unanswered = 0;
      const headers: Record<string, string> = {};
      result.response.headers.forEach((value, name) => (headers[name] = value));
      const answer = { status: result.response.status, headers, text: result.text };
      if ((answer.status === 429 || answer.status === 503) && retry < 2) {
        const wait = parseRetryAfter(result.response.headers.get('Retry-After')) ?? 1000 * 2 ** retry;
        if (pacer.hold(wait)) continue;
        return { ok: false, outcome: 'incomplete', note: `answered ${answer.status}; ${pacer.stopped?.message ?? 'verify stopped'}`, attempts, answer };
      }
      return { ok: true, answer, attempts, durationMs: Math.round(performance.now() - begun) };
    }
  };

  // Access tokens: one from the refresh token (the identity provider's answer is judged too), or the one given.
  let signIn: Sent | undefined;
  let tokens: TokenSource;
  let tokenFailure: string | undefined;
  if (settings.auth.refreshToken !== undefined) {
    const identityFetch: FetchLike = async (request) => {
      const result = await once(request);
      if ('refused' in result) throw new Error(`not sent: ${result.refused}`);
      if ('error' in result) throw new Error(result.error);
      const headers: Record<string, string> = {};
      result.response.headers.forEach((value, name) => (headers[name] = value));
      signIn = { status: result.response.status, headers, text: result.text };
      const empty = [101, 204, 205, 304].includes(result.response.status);
      return new Response(empty ? null : result.text, { status: result.response.status, headers: result.response.headers });
    };
    tokens = new RefreshingTokens({
      authUrl: settings.authUrl!,
      clientId: settings.auth.clientId,
      clientSecret: settings.auth.clientSecret,
      refreshToken: settings.auth.refreshToken,
      fetch: identityFetch,
      insecure: settings.insecure,
      timeoutMs: settings.timeoutMs,
      clock: Date.now,
      renewalMarginMs: 60_000,
      onTokenRenewed: (token) => redactor.add(token.accessToken),
    });
  } else {
    tokens = fixedToken(settings.auth.accessToken);
  }
  const tokenOperation = { method: 'POST', path: '/oauth/v2/token', operationId: 'requestToken' };
  let judgedSignIn = false;
  const accessToken = async (): Promise<string | undefined> => {
    if (tokenFailure) return undefined;
    try {
      return await tokens.get(undefined, tokenOperation);
    } catch (error) {
      tokenFailure = ServiceError.is(error) ? error.message : error instanceof Error ? error.message : String(error);
      return undefined;
    } finally {
      if (signIn && !judgedSignIn) {
        judgedSignIn = true;
        await judgeSignIn(signIn);
      }
    }
  };

  const judgeSignIn = async (answer: Sent) => {
    const judgement = await judge.judge({ method: 'POST', path: '/oauth/v2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, answer);
    const check: CheckReport = {
      operation: judge.operation('post', '/oauth/v2/token')?.operationId ?? 'requestToken',
      method: 'POST',
      template: '/oauth/v2/token',
      path: '/oauth/v2/token',
      purpose: 'sign-in',
      label: 'refresh-token grant (verify signing in)',
      status: answer.status,
      outcome: 'pass',
      violations: judgement.violations,
      undescribed: judgement.undescribed,
      notes: [],
      attempts: 1,
    };
    const redirect = redirectNote(answer, settings.authUrl ?? settings.baseUrl);
    if (redirect) check.notes.push(redirect);
    if (check.violations.length > 0) check.outcome = 'fail';
    else if (answer.status >= 300) {
      check.outcome = 'incomplete';
      check.notes.push(`the identity provider answered ${answer.status}: no access token`);
    }
    record(check);
  };

  const operations = resourceOperations(bundleDocument);
  const byId = new Map(operations.map((entry) => [entry.operationId, entry]));
  const routeOf = (entry: ResourceOperation): RouteOperation | undefined => judge.operation(entry.method, `${apiRoot}${entry.template}`);
  const requiresToken = (entry: ResourceOperation) => (routeOf(entry)?.securityHeaders.length ?? 0) > 0;

  interface CallPlan {
    entry: ResourceOperation;
    purpose: CheckPurpose;
    label: string;
    account?: { kind: 'customer' | 'business unit'; zaaid: string } | undefined;
    /** Values of path parameters, by name (else: learned from earlier answers, else the documented example). */
    pathValues?: Record<string, string>;
    withToken: boolean;
    headers?: Record<string, string>;
  }

  const pathParameterNames = new Set(operations.flatMap((entry) => entry.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => String(parameter.name))));
  /** Values of path parameters learned from earlier answers (e.g. monitor_id from the list of monitors), per account. */
  const learned = new Map<string, Map<string, string>>();
  const learn = (scope: string, body: unknown) => {
    const data = isRecord(body) ? body.data : undefined;
    const first = Array.isArray(data) ? data[0] : data;
    if (!isRecord(first)) return;
    const values = learned.get(scope) ?? new Map<string, string>();
    for (const [key, value] of Object.entries(first)) {
      if (!pathParameterNames.has(key) || values.has(key) || (typeof value !== 'string' && typeof value !== 'number')) continue;
      // A value from the service goes into a path only when it cannot address another path.
      if (isPathValue(value)) values.set(key, String(value));
      else notes.push(`The service gave ${key} ${JSON.stringify(value)}, which would address another path: it was not used in a request.`);
    }
    learned.set(scope, values);
  };

  /** Renewing the token after a 401 happens once in a run: a service that refuses every token gets no more. */
  let renewedOnce = false;
  const call = async (plan: CallPlan): Promise<CheckReport & { body?: unknown }> => {
    const { entry } = plan;
    const scope = plan.account?.kind ?? 'own';
    let path = entry.template;
    const query = new URLSearchParams();
    for (const parameter of entry.parameters) {
      if (parameter.in === 'path') {
        const value = plan.pathValues?.[parameter.name] ?? learned.get(scope)?.get(parameter.name) ?? exampleOf(bundleDocument, parameter);
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value ?? '1')));
      }
      if (parameter.in === 'query' && parameter.required) {
        const value = exampleOf(bundleDocument, parameter);
        if (value !== undefined) query.set(parameter.name, String(value));
      }
    }
    const target = query.size > 0 ? `${path}?${query}` : path;
    const check: CheckReport & { body?: unknown } = {
      operation: entry.operationId,
      method: entry.method.toUpperCase(),
      template: entry.template,
      path: target,
      purpose: plan.purpose,
      label: plan.label,
      account: plan.account?.kind,
      outcome: 'pass',
      violations: [],
      undescribed: [],
      notes: [],
      attempts: 0,
    };
    const headers: Record<string, string> = { Accept: accept, ...plan.headers };
    if (plan.account) headers.Cookie = `zaaid=${plan.account.zaaid}`;
    let body: string | undefined;
    let bodyValue: unknown;
    if (plan.purpose === 'write') {
      const requestBody = deref(bundleDocument, entry.node.requestBody);
      const [mediaType, media] = Object.entries<Json>(requestBody?.content ?? {})[0] ?? [];
      if (mediaType && media) {
        bodyValue = exampleOf(bundleDocument, media);
        if (bodyValue !== undefined) {
          body = serializeBody(mediaType, bodyValue as Json);
          headers['Content-Type'] = mediaType;
        }
      }
    }
    if (pacer.stopped) {
      check.outcome = 'skipped';
      check.notes.push(`not sent: ${pacer.stopped.message}`);
      return check;
    }
    let token: string | undefined;
    if (plan.withToken) {
      token = await accessToken();
      if (token === undefined) {
        check.outcome = 'skipped';
        check.notes.push(`not sent: no access token (${tokenFailure ?? 'the identity provider did not give one'})`);
        return check;
      }
    }
    let renewed = false;
    let result: SendResult;
    for (;;) {
      result = await send(() => new Request(`${settings.baseUrl}${target}`, { method: check.method, headers: token ? { ...headers, Authorization: `Service-oauthtoken ${token}` } : headers, body: body ?? null }));
      // The token may have expired early or been revoked: renew once in the run (the identity provider's limit).
      if (result.ok && result.answer.status === 401 && plan.withToken && tokens.renewable && !renewed && !renewedOnce) {
        renewed = true;
        renewedOnce = true;
        tokens.invalidate(token!);
        token = await accessToken();
        if (token !== undefined) continue;
      }
      break;
    }
    check.attempts = result.attempts;
    if (!result.ok) {
      check.outcome = result.outcome;
      check.notes.push(result.note);
      if (result.answer) check.status = result.answer.status;
      return check;
    }
    const { answer } = result;
    check.status = answer.status;
    check.durationMs = result.durationMs;
    const redirect = redirectNote(answer, settings.baseUrl);
    if (redirect) check.notes.push(redirect);
    if (answer.status === 429) {
      check.outcome = 'incomplete';
      check.notes.push(`answered 429 (too many requests) ${plural(result.attempts, 'time')}: not judged`);
      return check;
    }
    if (answer.status >= 500 && answer.status !== 500 && !routeOf(entry)?.statuses.includes(String(answer.status))) {
      check.outcome = 'incomplete';
      check.notes.push(`answered ${answer.status}, a server or gateway error: not judged`);
      return check;
    }
    const judgement = await judge.judge(
      { method: entry.method, path: `${apiRoot}${path}`, query: Object.fromEntries(query), headers: { ...headers, ...(token ? { authorization: 'Service-oauthtoken verify' } : {}) }, body: bodyValue },
      answer,
    );
    check.violations = judgement.violations;
    check.undescribed = judgement.undescribed;
    check.body = judgement.body;
    const status = answer.status;
    const success = status >= 200 && status < 300;
    switch (plan.purpose) {
      case 'no-token':
        if (success) {
          check.violations.push({ rule: 'security', message: `answered ${status} to a call without a token: every resource call needs Authorization: Service-oauthtoken {access_token} (core document, section 5)` });
        } else if (status !== 401) {
          check.outcome = 'unconfirmed';
          check.notes.push(`answered ${status} without a token; the documented answer is 401`);
        }
        break;
      case 'unknown-monitor':
        if (status === 404) {
          const found = isRecord(judgement.body) ? judgement.body : {};
          if (Number.isInteger(found.code) && found.code !== 1002) {
            check.violations.push({ rule: 'error-code', pointer: '/code', message: `the code for a monitor that does not exist is 1002 (core document, section 7), not ${String(found.code)}` });
          }
          if (typeof found.message === 'string' && found.message !== 'Monitor does not exist.') {
            check.notes.push(`the message is ${JSON.stringify(found.message)}; the documents show "Monitor does not exist."`);
          }
        } else if (success) {
          check.outcome = 'unconfirmed';
          check.notes.push(`monitor ${settings.unknownMonitorId} exists: give one that does not (--unknown-monitor-id) to see the 404 with code 1002`);
        } else {
          check.outcome = 'unconfirmed';
          check.notes.push(`answered ${status}; the documented answer for a monitor that does not exist is 404 with code 1002`);
        }
        break;
      default:
        if (status === 401 && plan.withToken) {
          check.outcome = 'incomplete';
          check.notes.push('the service refused the access token (401)');
        } else if (status === 500) {
          check.outcome = 'incomplete';
          check.notes.push('answered 500, a server error: the documented success answer was not seen');
        } else if (!success && judgement.documentedStatus) {
          check.outcome = 'unconfirmed';
          check.notes.push(`answered ${status}, a documented status: the success answer was not seen`);
        }
        if (success) learn(scope, judgement.body);
        if (success && plan.purpose === 'write') check.notes.push('this call created or changed data in the account; verify does not undo it');
    }
    if (check.violations.length > 0) check.outcome = 'fail';
    return check;
  };

  const finish = (check: CheckReport & { body?: unknown }) => {
    const { body: _body, ...reported } = check;
    record(reported);
    return check;
  };

  // 1. Every documented GET, on the caller's own account.
  const gets = operations.filter((entry) => entry.method === 'get');
  const bodies = new Map<string, unknown>();
  for (const entry of gets) {
    const check = finish(await call({ entry, purpose: 'documented-call', label: 'documented call', withToken: requiresToken(entry) }));
    if (check.outcome !== 'skipped') bodies.set(entry.operationId, check.body);
  }

  // 2. The error paths that change nothing: no token (401), a monitor that does not exist (404, code 1002).
  const noTokenTarget = gets.find((entry) => requiresToken(entry) && !entry.parameters.some((parameter) => parameter.in === 'path'));
  if (noTokenTarget) finish(await call({ entry: noTokenTarget, purpose: 'no-token', label: 'without a token (expects 401)', withToken: false }));
  const monitorTarget = gets.find((entry) => entry.parameters.some((parameter) => parameter.in === 'path' && parameter.name === 'monitor_id'));
  if (monitorTarget) {
    finish(
      await call({
        entry: monitorTarget,
        purpose: 'unknown-monitor',
        label: 'a monitor that does not exist (expects 404, code 1002)',
        withToken: requiresToken(monitorTarget),
        pathValues: { monitor_id: settings.unknownMonitorId },
        // The mock plays the documented 404 on request; a real service ignores the header.
        headers: { Prefer: 'code=404' },
      }),
    );
  }

  // 3. Writes, only those named.
  for (const name of settings.allow) {
    const entry = byId.get(name)!;
    finish(await call({ entry, purpose: 'write', label: 'documented example (allowed write)', withToken: requiresToken(entry) }));
  }

  // 4. With accounts: every GET again for the first customer and business-unit account.
  if (settings.accounts) {
    const sources = [
      { kind: 'customer' as const, entry: gets.find((entry) => entry.template === '/short/msp/customers') },
      { kind: 'business unit' as const, entry: gets.find((entry) => entry.template === '/short/bu/business_units') },
    ];
    const listings = new Set(sources.map((source) => source.entry?.operationId));
    for (const source of sources) {
      if (!source.entry) continue;
      const body = bodies.get(source.entry.operationId);
      const data = isRecord(body) ? body.data : undefined;
      const first = Array.isArray(data) ? data[0] : undefined;
      const zaaid = isRecord(first) && typeof first.zaaid === 'string' ? first.zaaid : undefined;
      if (!zaaid) {
        notes.push(`--accounts: ${source.entry.operationId} gave no ${source.kind} account, so no call was made for one.`);
        continue;
      }
      if (!isZaaid(zaaid)) {
        // It would break the Cookie header or add a cookie of its own: the client refuses such a zaaid too.
        notes.push(`--accounts: ${source.entry.operationId} gave the ${source.kind} account ${JSON.stringify(zaaid)}, which is not a cookie value, so no call was made for it.`);
        continue;
      }
      for (const entry of gets.filter((candidate) => !listings.has(candidate.operationId))) {
        finish(
          await call({
            entry,
            purpose: 'documented-call',
            label: `documented call, as the first ${source.kind} account`,
            account: { kind: source.kind, zaaid },
            withToken: requiresToken(entry),
          }),
        );
      }
    }
  }

  if (pacer.stopped) notes.push(`The run was cut short: ${pacer.stopped.message}.`);
  return assemble(settings, checks, notes, {
    title: String(document.info?.title ?? ''),
    version,
    started,
    requestsSent: pacer.sent.length,
  });
}

// A pointer with its array indexes as `*` (`/data/3/x` is `/data/*/x`), segment by segment.
function pointerShape(pointer: string): string {
  return pointer
    .split('/')
    .map((token) => (token !== '' && [...token].every((char) => char >= '0' && char <= '9') ? '*' : token))
    .join('/');
}

function assemble(settings: Settings, checks: CheckReport[], notes: string[], facts: { title: string; version: string; started: number; requestsSent: number }): VerifyReport {
  const undescribed: VerifyReport['undescribed'] = [];
  for (const check of checks) {
    for (const attribute of check.undescribed) {
      const shape = pointerShape(attribute.pointer);
      const known = undescribed.find((entry) => entry.operation === check.operation && entry.status === check.status && pointerShape(entry.pointer) === shape);
      if (known) {
        known.calls += 1;
        known.count += attribute.count;
        for (const type of attribute.types) if (!known.types.includes(type)) known.types.push(type);
      } else {
        undescribed.push({ operation: check.operation, status: check.status ?? 0, ...attribute, types: [...attribute.types], calls: 1 });
      }
    }
  }
  const operations = new Map<string, OperationSummary>();
  for (const check of checks) {
    const summary = operations.get(check.operation) ?? { operation: check.operation, method: check.method, template: check.template, calls: 0, outcome: 'pass', violations: 0, undescribed: 0 };
    summary.calls += 1;
    summary.violations += check.violations.length;
    summary.undescribed = undescribed.filter((entry) => entry.operation === check.operation).length;
    if (outcomeRank[check.outcome] > outcomeRank[summary.outcome]) summary.outcome = check.outcome;
    operations.set(check.operation, summary);
  }
  const undocumentedStatuses: { operation: string; status: number }[] = [];
  for (const check of checks) {
    if (check.status !== undefined && check.violations.some((violation) => violation.rule === 'status') && !undocumentedStatuses.some((entry) => entry.operation === check.operation && entry.status === check.status)) {
      undocumentedStatuses.push({ operation: check.operation, status: check.status });
    }
  }
  const broken = checks.some((check) => check.outcome === 'fail');
  const incomplete = checks.some((check) => check.outcome === 'incomplete' || check.outcome === 'skipped');
  const result = broken ? 'broken' : incomplete ? 'incomplete' : 'clean';
  return {
    target: { baseUrl: settings.baseUrl, authUrl: settings.authUrl, dataCenter: settings.dataCenter, auth: settings.auth.refreshToken !== undefined ? 'refresh token' : 'access token' },
    contract: { title: facts.title, version: facts.version },
    startedAt: new Date(facts.started).toISOString(),
    finishedAt: new Date().toISOString(),
    limits: { budget: settings.budget, ratePerSecond: settings.ratePerSecond, maxWaitMs: settings.maxWaitMs, requestsSent: facts.requestsSent },
    options: { accounts: settings.accounts, allow: settings.allow, unknownMonitorId: settings.unknownMonitorId },
    checks,
    operations: [...operations.values()],
    undescribed,
    undocumentedStatuses,
    notes,
    result,
    exitCode: result === 'broken' ? verifyExitCodes.broken : result === 'incomplete' ? verifyExitCodes.incomplete : verifyExitCodes.clean,
  };
}
