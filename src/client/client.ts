// createServiceClient: the typed client of the resource API, over the generated openapi-fetch client, with the
// service's auth, data centers, accounts (zaaid), errors, retries and timeouts.
import { apiVersion, createApiClient, type DataCenterId } from '../../generated/client.js';
import type { paths } from '../../generated/types.js';
import { RefreshingTokens, dataCenterOf, defaultTimeoutMs, fixedToken, type RenewedToken, type TokenSource } from './auth.js';
import { ServiceError, describeErrorBody, kindOfStatus, setAttempts, type OperationInfo } from './errors.js';
import {
  abortError,
  backoffDelay,
  credentialAddress,
  defaultSleep,
  parseRetryAfter,
  startExchange,
  type OpenExchange,
  resolveRetry,
  type FetchLike,
  type RetryOptions,
  type Sleep,
} from './http.js';
import { operationInfo } from './operations.js';
import { checkPathValues, checkZaaid } from './request-values.js';
import { isRecord } from '../description/openapi.js';

// ---------------------------------------------------------------------------------------------------------------
// Types

/** The paths of the resource API (the identity provider's `/oauth/...` paths are not called through the client). */
export type ResourcePaths = { [P in keyof paths as P extends `/oauth/${string}` ? never : P]: paths[P] };

/** The methods the service uses (core document, section 4.2). */
export type ResourceMethod = 'get' | 'put' | 'post' | 'delete';

/** The resource paths that document method `M`. */
export type PathsWithMethod<M extends ResourceMethod> = {
  [P in keyof ResourcePaths]: ResourcePaths[P] extends { [K in M]: object } ? P : never;
}[keyof ResourcePaths];

/** The operation object (of generated/types.ts `operations`) of a path and method. */
export type OperationOf<P extends keyof ResourcePaths, M extends ResourceMethod> = ResourcePaths[P] extends { [K in M]: infer O }
  ? O
  : never;

// biome-ignore lint/complexity/noBannedTypes: `{}` is the empty object type here: a key is optional when {} extends its Pick.
type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

type ParamsOf<O> = O extends { parameters: infer Params }
  ? RequiredKeysOf<Params> extends never
    ? { params?: Params }
    : { params: Params }
  : { params?: never };

/**
 * A JSON media type, with or without parameters: the description keys JSON request bodies
 * `application/json;charset=UTF-8` and successful answers `application/json; version=2.0`.
 */
export type JsonMediaType = 'application/json' | `application/json;${string}`;

/** A content map with its JSON media types keyed `application/json` (their parameters dropped). */
type PlainJsonContent<Content> = { [K in keyof Content as K extends JsonMediaType ? 'application/json' : K]: Content[K] };

/** An answer or a request body whose JSON media type is keyed `application/json`. */
type PlainJsonBody<Body> = Body extends { content: infer Content } ? Omit<Body, 'content'> & { content: PlainJsonContent<Content> } : Body;

type PlainJsonOperation<O> = {
  [K in keyof O]: K extends 'responses'
    ? { [S in keyof O[K]]: PlainJsonBody<O[K][S]> }
    : K extends 'requestBody'
      ? PlainJsonBody<O[K]>
      : O[K];
};

/**
 * The description's paths with each JSON media type keyed `application/json`. The service's own keys carry
 * parameters (`application/json; version=2.0` for successful answers, `application/json;charset=UTF-8` for errors
 * and request bodies), and some tools type bodies only under the plain key: openapi-msw's
 * `createOpenApiHttp<PlainJsonPaths>()` types each handler's success and error bodies.
 */
export type PlainJsonPaths = { [P in keyof paths]: { [M in keyof paths[P]]: PlainJsonOperation<paths[P][M]> } };

/** The schema of the JSON media type of a `content` map (the first one, if it has several). */
type JsonContent<Content> = Content[Extract<keyof Content, JsonMediaType>];

type BodyOf<O> = O extends { requestBody?: never }
  ? { body?: never }
  : O extends { requestBody: { content: infer Content } }
    ? { body: JsonContent<Content> }
    : O extends { requestBody?: { content: infer Content } }
      ? { body?: JsonContent<Content> }
      : { body?: unknown };

/** Per-call options, next to `params` and `body`. */
export interface CallOptions {
  /** Extra request headers of this call. */
  headers?: Record<string, string>;
  /** Ends the call (kind `aborted`, or `timeout` for `AbortSignal.timeout()`), waits and retries included. */
  signal?: AbortSignal;
  /** Time limit of each HTTP attempt (request and whole answer). Default: the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retry settings of this call, or `false` for none. Default: the client's. */
  retry?: Partial<RetryOptions> | false;
}

/** The second argument of a call: `params` (path, query, header, cookie) and `body` as the description types them. */
export type CallInit<O> = ParamsOf<O> & BodyOf<O> & CallOptions;

type CallArgs<O> = RequiredKeysOf<CallInit<O>> extends never ? [init?: CallInit<O>] : [init: CallInit<O>];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226 | '2XX';
type ResponsesOf<O> = O extends { responses: infer R } ? R : never;
type JsonOf<R> = R extends { content: infer Content }
  ? [Extract<keyof Content, JsonMediaType>] extends [never]
    ? undefined
    : JsonContent<Content>
  : undefined;

/** The JSON body of a successful answer of the operation (the envelope, for most). */
export type ResponseBody<O> = JsonOf<ResponsesOf<O>[Extract<keyof ResponsesOf<O>, SuccessStatus>]>;

/** The `data` of an envelope; a body that is not an envelope as it is. */
export type EnvelopeData<Body> = Body extends { data: infer Data } ? Data : Body extends { data?: infer Data } ? Data | undefined : Body;

/** What a call resolves to: the `data` of the envelope. */
export type ResultData<P extends keyof ResourcePaths, M extends ResourceMethod> = EnvelopeData<ResponseBody<OperationOf<P, M>>>;

/** Everything about a successful call, from `client.request()`. */
export interface ServiceResult<Body> {
  /** The `data` of the envelope (what GET, POST... resolve to). */
  data: EnvelopeData<Body>;
  /** The whole parsed body, envelope and unknown attributes included. */
  body: Body;
  /** The raw answer (its body is already read: use `body`). */
  response: Response;
  operation: OperationInfo;
  /** HTTP requests made, retries included. */
  attempts: number;
}

export type ServiceMethod<M extends ResourceMethod> = <P extends PathsWithMethod<M>>(
  path: P,
  ...init: CallArgs<OperationOf<P, M>>
) => Promise<ResultData<P, M>>;

export type ServiceRequestMethod = <
  M extends ResourceMethod | Uppercase<ResourceMethod>,
  P extends PathsWithMethod<Extract<Lowercase<M>, ResourceMethod>>,
>(
  method: M,
  path: P,
  ...init: CallArgs<OperationOf<P, Extract<Lowercase<M>, ResourceMethod>>>
) => Promise<ServiceResult<ResponseBody<OperationOf<P, Extract<Lowercase<M>, ResourceMethod>>>>>;

/** How the client authenticates. */
export type ServiceAuth =
  | {
      /** From the developer console. Sent to the identity provider only, never to the resource server. */
      clientId: string;
      clientSecret: string;
      /** The permanent refresh token of `exchangeGrantCode`. */
      refreshToken: string;
      /** Optional: an access token to start with (e.g. saved from an earlier run). */
      accessToken?: string;
      /** When that access token expires (Date or epoch ms); unknown means "until the service refuses it". */
      accessTokenExpiresAt?: Date | number;
    }
  | {
      /** A ready access token. Nothing renews it: when it expires calls fail with kind `auth`. */
      accessToken: string;
      clientId?: never;
      clientSecret?: never;
      refreshToken?: never;
    };

export interface ServiceClientOptions {
  /** The data center (one of the ten ids of `dataCenters`): gives the API root and the identity provider together. */
  dataCenter?: DataCenterId;
  /** The API root (`{base_url}`, ending in `/api`), instead of or overriding the data center's. */
  baseUrl?: string;
  /** The identity provider (`{auth_url}`), instead of or overriding the data center's. */
  authUrl?: string;
  auth: ServiceAuth;
  /** The API version sent as `Accept: application/json; version=...`. Default: the description's (`apiVersion`). */
  version?: string;
  /** Time limit of each HTTP attempt, the answer's body included. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries of idempotent calls (GET, PUT, DELETE); `false` for none. POST is never retried. */
  retry?: Partial<RetryOptions> | false;
  /** Renew the access token this long before it expires (at most half its lifetime). Default 60 000 ms. */
  renewalMarginMs?: number;
  /** Called with each access token the client obtains (to save it, or to log its expiry). */
  onTokenRenewed?: (token: RenewedToken) => void;
  /** Custom fetch, for the resource server and the identity provider. Default: the global fetch. */
  fetch?: FetchLike;
  /**
   * Allow plain-http addresses on other machines. Without it, `baseUrl` and `authUrl` must be https, except on this
   * machine (localhost, 127.0.0.1, ::1): tokens and secrets never cross a network unencrypted by accident.
   */
  insecure?: boolean;
  /**
   * Check each successful answer against the description's schema for its operation and status (zod, an optional
   * peer dependency: `npm install zod@4`). An answer that breaks the contract rejects with a ServiceError of kind
   * `contract` naming the JSON pointer and the rule; attributes the description does not know stay allowed.
   */
  validate?: boolean;
  /** The clock (epoch ms) for token expiry and the identity provider's limit. Default `Date.now`. */
  clock?: () => number;
  /** How the client waits between retries. Default: a timer. */
  sleep?: Sleep;
}

export interface ServiceClient {
  /** GET a resource: resolves to the typed `data` of the envelope; rejects with a ServiceError. */
  GET: ServiceMethod<'get'>;
  POST: ServiceMethod<'post'>;
  PUT: ServiceMethod<'put'>;
  DELETE: ServiceMethod<'delete'>;
  /** Any method, resolving to `{ data, body, response, operation, attempts }`: the raw answer too. */
  request: ServiceRequestMethod;
  /**
   * The same client acting on a customer (MSP) or business-unit (BU portal) account: every call carries
   * `Cookie: zaaid={zaaid}`. It shares the token cache, the options and the identity provider's limit. Throws a
   * TypeError where the runtime cannot set the Cookie header (browsers).
   */
  forAccount(zaaid: string): ServiceClient;
  /** The account this client acts on (`forAccount`), or undefined for the caller's own account. */
  readonly account: string | undefined;
  readonly baseUrl: string;
  readonly authUrl: string | undefined;
  readonly dataCenter: DataCenterId | undefined;
  /** The API version sent in `Accept`. */
  readonly version: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Implementation

interface CallContext {
  operation: OperationInfo;
  account: string | undefined;
  signal: AbortSignal | undefined;
  timeoutMs: number;
  retry: RetryOptions;
  attempts: number;
  /** The last answer received, if any. */
  lastResponse?: Response;
  /** The exchange whose answer the caller reads; ended once it is read. */
  open?: OpenExchange;
  /** Rejects the call when the deadline or the caller's signal ends it while the answer's body is read. */
  onStall?: (error: ServiceError) => void;
}

const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * The account of forAccount() travels in the `Cookie` header, which browsers forbid scripts to set (they drop it
 * from the request without a word): rather than act on the caller's own account there, forAccount refuses.
 */
function checkAccountHeader(zaaid: string): string {
  let kept = false;
  try {
    kept = new Request('http://cookie.invalid/', { headers: { Cookie: `zaaid=${zaaid}` } }).headers.has('Cookie');
  } catch {
    kept = false;
  }
  if (!kept) {
    throw new TypeError(
      'forAccount needs the Cookie header (Cookie: zaaid=...), and this runtime cannot set it: browsers forbid scripts to set ' +
        'Cookie and drop it from requests. Act on customer and business-unit accounts from a server (Node.js 20.19+), or through your own backend.',
    );
  }
  return zaaid;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new TypeError(`${name} must be a number > 0, not ${String(value)}`);
  return value;
}

/** The zod schemas of the description, loaded by the first call that validates (zod is an optional peer dependency). */
let contract: Promise<typeof import('../../generated/zod.js')> | undefined;

/** Rejects with a ServiceError of kind `contract` when a successful answer's body is not what the description says. */
async function checkAnswer(operation: OperationInfo, response: Response, body: unknown, attempts: number): Promise<void> {
  contract ??= import('../../generated/zod.js').catch((error: unknown) => {
    contract = undefined;
    throw new TypeError(
      `validate: true needs zod 4 beside this package (npm install zod@4): ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const schema = operation.operationId ? (await contract).answerSchema(operation.operationId, response.status) : undefined;
  if (!schema) return; // an operation or status the description does not document: nothing to check against
  const result = schema.safeParse(body);
  if (result.success) return;
  const [first, ...others] = result.error.issues;
  const pointer = `/${first!.path.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  throw new ServiceError({
    kind: 'contract',
    status: response.status,
    message:
      `The answer of ${operation.method} ${operation.path} (${operation.operationId}, ${response.status}) breaks the contract at ${pointer}: ` +
      `${first!.message} (${first!.code})${others.length > 0 ? `, and ${others.length} more` : ''}.`,
    operation,
    body,
    response,
    attempts,
  });
}

/** The envelope's `data`; a body that is not an envelope (an undocumented answer) as it is. */
function unwrap(body: unknown): unknown {
  if (isRecord(body) && ('data' in body || typeof body.message === 'string')) return body.data;
  return body;
}

/**
 * Creates the client. Give a `dataCenter` (or a `baseUrl`, and an `authUrl` to renew tokens) and `auth`: a refresh
 * token with its client ID and secret, or a ready access token.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const center = options.dataCenter === undefined ? undefined : dataCenterOf(options.dataCenter);
  const rawBaseUrl = options.baseUrl ?? center?.baseUrl;
  if (!rawBaseUrl) throw new TypeError('Give a dataCenter or a baseUrl (the API root, ending in /api).');
  const baseUrl = credentialAddress('baseUrl', rawBaseUrl, options.insecure);
  const authUrl = options.authUrl ? credentialAddress('authUrl', options.authUrl, options.insecure) : center?.authUrl;
  const version = options.version ?? apiVersion;
  if (!/^\d+(\.\d+)*$/.test(version)) throw new TypeError(`version must look like "2.0", not ${JSON.stringify(version)}`);
  const timeoutMs = positive('timeoutMs', options.timeoutMs, defaultTimeoutMs);
  const retry = resolveRetry(options.retry);
  const fetchImpl: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const tokens = tokenSource();

  // The generated openapi-fetch client builds URLs and bodies; `send` below does the rest of each call.
  const api = createApiClient({ baseUrl });

  function tokenSource(): TokenSource {
    const auth = options.auth as Partial<Record<string, unknown>> | undefined;
    if (!auth || typeof auth !== 'object')
      throw new TypeError('auth is required: { clientId, clientSecret, refreshToken } or { accessToken }');
    const { clientId, clientSecret, refreshToken, accessToken, accessTokenExpiresAt } = auth;
    if (clientId !== undefined || clientSecret !== undefined || refreshToken !== undefined) {
      for (const [name, value] of Object.entries({ clientId, clientSecret, refreshToken })) {
        if (typeof value !== 'string' || !value) throw new TypeError(`auth.${name} is required with a refresh token (a non-empty string)`);
      }
      if (!authUrl) throw new TypeError('Renewing access tokens needs the identity provider: give a dataCenter or an authUrl.');
      if (accessToken !== undefined && (typeof accessToken !== 'string' || !accessToken))
        throw new TypeError('auth.accessToken must be a non-empty string');
      const expiresAt =
        accessTokenExpiresAt instanceof Date
          ? accessTokenExpiresAt.getTime()
          : typeof accessTokenExpiresAt === 'number'
            ? accessTokenExpiresAt
            : undefined;
      return new RefreshingTokens({
        authUrl,
        clientId: clientId as string,
        clientSecret: clientSecret as string,
        refreshToken: refreshToken as string,
        fetch: fetchImpl,
        timeoutMs,
        clock,
        renewalMarginMs: positive('renewalMarginMs', options.renewalMarginMs, 60_000),
        initial: typeof accessToken === 'string' ? { accessToken, expiresAt } : undefined,
        insecure: options.insecure,
        onTokenRenewed: options.onTokenRenewed,
      });
    }
    if (typeof accessToken !== 'string' || !accessToken)
      throw new TypeError('auth needs { clientId, clientSecret, refreshToken } or { accessToken }');
    return fixedToken(accessToken);
  }

  /**
   * One call: authorization, version, account, JSON charset, 401 renewal, retries, timeouts. Resolves to the answer
   * as it arrives (its body is read by the caller, within the attempt's deadline, which `context.open` ends).
   */
  async function send(template: Request, context: CallContext): Promise<Response> {
    const method = template.method.toUpperCase();
    const body = template.body === null ? undefined : await template.arrayBuffer();
    // The template is this call's own Request (built by openapi-fetch): its headers are the ones to send.
    const headers = template.headers;
    if (!headers.has('Accept')) headers.set('Accept', `application/json; version=${version}`);
    if (body && body.byteLength > 0) {
      const type = headers.get('Content-Type');
      if (!type || /^application\/json\s*$/i.test(type)) headers.set('Content-Type', 'application/json;charset=UTF-8');
    }
    if (context.account !== undefined) {
      const cookie = headers.get('Cookie');
      headers.set('Cookie', cookie ? `${cookie}; zaaid=${context.account}` : `zaaid=${context.account}`);
    }
    const idempotent = idempotentMethods.has(method);
    let retries = 0;
    let renewedAfter401 = false;
    for (;;) {
      const token = await tokens.get(context.signal, context.operation);
      headers.set('Authorization', `Service-oauthtoken ${token}`);
      context.attempts += 1;
      let open: OpenExchange;
      try {
        open = await startExchange(
          fetchImpl,
          template.url,
          { method, headers, body: body ?? null },
          {
            timeoutMs: context.timeoutMs,
            signal: context.signal,
            operation: context.operation,
            onStall: context.onStall,
          },
        );
      } catch (error) {
        const transient = ServiceError.is(error) && (error.kind === 'network' || error.kind === 'timeout');
        if (transient && idempotent && retries < context.retry.retries && !context.signal?.aborted) {
          await wait(backoffDelay(retries++, context.retry), context);
          continue;
        }
        throw error;
      }
      const { response } = open;
      context.lastResponse = response;
      /** An answer not given to the caller: its body is not read, its deadline ends now. */
      const discard = () => {
        void response.body?.cancel().catch(() => {});
        open.end();
      };
      if (response.status === 401 && tokens.renewable && !renewedAfter401) {
        // The token may have been revoked or expired early: renew once (shared with concurrent calls), retry once.
        renewedAfter401 = true;
        tokens.invalidate(token);
        discard();
        continue;
      }
      if ((response.status === 429 || response.status >= 500) && idempotent && retries < context.retry.retries) {
        const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), clock());
        if (retryAfter === undefined || retryAfter <= context.retry.maxRetryAfterMs) {
          discard();
          await wait(retryAfter ?? backoffDelay(retries, context.retry), context);
          retries += 1;
          continue;
        }
      }
      context.open = open;
      return response;
    }
  }

  async function wait(ms: number, context: CallContext): Promise<void> {
    try {
      await sleep(ms, context.signal);
    } catch (error) {
      if (context.signal?.aborted) throw abortError(context.signal, context.operation);
      throw error;
    }
  }

  async function call(
    account: string | undefined,
    rawMethod: string,
    path: string,
    init: Record<string, unknown> = {},
  ): Promise<ServiceResult<unknown>> {
    const {
      headers,
      signal,
      timeoutMs: callTimeout,
      retry: callRetry,
      params,
      body,
    } = init as CallOptions & { params?: Record<string, unknown>; body?: unknown };
    const method = rawMethod.toLowerCase();
    const operation = operationInfo(method, path);
    if (isRecord(params)) checkPathValues(params.path);
    // openapi-fetch never sends params.cookie: a zaaid given there acts like forAccount().
    const cookie = isRecord(params) && isRecord(params.cookie) ? params.cookie : undefined;
    const context: CallContext = {
      operation,
      account: cookie?.zaaid !== undefined ? checkZaaid(cookie.zaaid) : account,
      signal,
      timeoutMs: positive('timeoutMs', callTimeout, timeoutMs),
      retry: callRetry === undefined ? retry : resolveRetry(callRetry, retry),
      attempts: 0,
    };
    let result: { data?: unknown; error?: unknown; response: Response };
    const stalled = new Promise<never>((_, reject) => (context.onStall = reject));
    stalled.catch(() => {}); // handled through the race below
    try {
      const request = (api.request as (method: string, url: string, init: object) => Promise<typeof result>)(method, path, {
        params,
        ...(body === undefined ? {} : { body }),
        headers,
        fetch: (request: Request) => send(request, context),
      });
      request.catch(() => {}); // when the deadline wins the race, the late failure is expected
      // openapi-fetch reads the body: the race keeps the deadline on it, even with a fetch that ignores signals.
      result = await Promise.race([request, stalled]);
    } catch (error) {
      if (ServiceError.is(error)) throw setAttempts(error, context.attempts);
      const reason = error instanceof Error ? error.message : String(error);
      const answer = context.lastResponse;
      if (answer) {
        // The answer came but could not be read (e.g. a 2xx whose body is not JSON).
        throw new ServiceError({
          kind: 'http',
          status: answer.status,
          message: `The answer could not be read: ${reason}`,
          operation,
          response: answer,
          cause: error,
          attempts: context.attempts,
        });
      }
      throw new ServiceError({
        kind: 'network',
        message: `The request could not be made: ${reason}`,
        operation,
        cause: error,
        attempts: context.attempts,
      });
    } finally {
      context.open?.end();
    }
    const { response } = result;
    if (!response.ok) {
      const { code, message } = describeErrorBody(result.error, response);
      throw new ServiceError({
        kind: kindOfStatus(response.status),
        status: response.status,
        code,
        message,
        operation,
        body: result.error,
        response,
        retryAfterMs: parseRetryAfter(response.headers.get('Retry-After'), clock()),
        attempts: context.attempts,
      });
    }
    if (options.validate) await checkAnswer(operation, response, result.data, context.attempts);
    return { data: unwrap(result.data), body: result.data, response, operation, attempts: context.attempts };
  }

  function bind(account: string | undefined): ServiceClient {
    const method = (name: string) => async (path: string, init?: Record<string, unknown>) => (await call(account, name, path, init)).data;
    return {
      GET: method('get') as ServiceMethod<'get'>,
      POST: method('post') as ServiceMethod<'post'>,
      PUT: method('put') as ServiceMethod<'put'>,
      DELETE: method('delete') as ServiceMethod<'delete'>,
      request: ((name: string, path: string, init?: Record<string, unknown>) => call(account, name, path, init)) as ServiceRequestMethod,
      forAccount: (zaaid: string) => bind(checkAccountHeader(checkZaaid(zaaid))),
      account,
      baseUrl,
      authUrl,
      dataCenter: options.dataCenter,
      version,
    };
  }

  return bind(undefined);
}
