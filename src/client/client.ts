// createServiceClient: the typed client of the resource API, over the generated openapi-fetch client, with the
// service's auth, data centers, accounts (zaaid), errors, retries and timeouts.
import { createApiClient, type DataCenterId } from '../../generated/client.js';
import type { paths } from '../../generated/types.js';
import { isRecord } from '../description/openapi.js';
import type { FetchLike } from '../fetch/exchange.js';
import { type RetryOptions, resolveRetry, type Sleep } from '../fetch/retry.js';
import { positiveNumber } from '../options.js';
import type { RenewedToken } from './auth.js';
import { type AnswerSchemas, answerSchemas, checkAnswer } from './contract.js';
import { type FetchResult, failedAnswerError, type OperationInfo, unreadAnswerError } from './errors.js';
import { operationInfo } from './operations.js';
import { checkPathValues, checkZaaid } from './request-values.js';
import { type CallContext, send } from './send.js';
import { type ClientSettings, clientSettings } from './settings.js';

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
   * Check each successful answer against the description's schema for its operation and status: give the schemas,
   * `validate: answerSchema` (`import { answerSchema } from 'monitoring-service-api/zod'`, with `zod@4` installed),
   * so that only an app that checks carries zod. `true` loads the same schemas at run time beside the package (Node,
   * Deno, Bun; not in a bundle). An answer that breaks the contract rejects with a ServiceError of kind `contract`
   * naming the JSON pointer and the rule; attributes the description does not know stay allowed.
   */
  validate?: boolean | AnswerSchemas;
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

/** Whether this runtime sends a Cookie header a script sets (browsers drop it from the request without a word). */
function sendsCookieHeader(): boolean {
  try {
    return new Request('http://cookie.invalid/', { headers: { Cookie: 'zaaid=1' } }).headers.has('Cookie');
  } catch {
    return false;
  }
}

/**
 * An account travels in the `Cookie` header (forAccount, `params.cookie.zaaid`, a Cookie in a call's `headers`),
 * which browsers forbid scripts to set: rather than act on the caller's own account there, the client refuses before
 * anything is sent, whichever way the account was named (`how`).
 */
function checkCookieHeader(how: string): void {
  if (sendsCookieHeader()) return;
  throw new TypeError(
    `${how} needs the Cookie header (Cookie: zaaid=...), and this runtime cannot set it: browsers forbid scripts to set ` +
      'Cookie and drop it from requests. Act on customer and business-unit accounts from a server (Node.js 20.19+), or through your own backend.',
  );
}

/** An account to act on, checked: a zaaid, and a runtime that can send it (`how`: where the caller named it). */
function accountOf(zaaid: unknown, how = 'forAccount'): string {
  const checked = checkZaaid(zaaid);
  checkCookieHeader(how);
  return checked;
}

/** The envelope's `data`; a body that is not an envelope (an undocumented answer) as it is. */
function unwrap(body: unknown): unknown {
  if (isRecord(body) && ('data' in body || typeof body.message === 'string')) return body.data;
  return body;
}

/** The second argument of a call, as the client reads it whatever the operation. */
type AnyCallInit = CallOptions & { params?: Record<string, unknown>; body?: unknown };

/** The parts of a call's second argument, each possibly absent. */
interface GivenCall {
  headers: Record<string, string> | undefined;
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  retry: Partial<RetryOptions> | false | undefined;
  params: Record<string, unknown> | undefined;
  body: unknown;
}

/** A call's settings: the client's, with the call's own options over them, and the account it acts on. */
function callContext(
  settings: ClientSettings,
  account: string | undefined,
  operation: OperationInfo,
  init: Pick<GivenCall, 'signal' | 'timeoutMs' | 'retry' | 'params' | 'headers'>,
): CallContext {
  const { params, headers } = init;
  if (isRecord(params)) checkPathValues(params.path);
  // Headers of any form (an object, a Headers, pairs), as fetch reads them.
  if (headers !== undefined && new Headers(headers as HeadersInit).has('cookie')) checkCookieHeader('A Cookie in headers');
  // openapi-fetch never sends params.cookie: a zaaid given there acts like forAccount().
  const cookie = isRecord(params) && isRecord(params.cookie) ? params.cookie : undefined;
  return {
    operation,
    account: cookie?.zaaid !== undefined ? accountOf(cookie.zaaid, 'params.cookie.zaaid') : account,
    signal: init.signal,
    timeoutMs: positiveNumber('timeoutMs', init.timeoutMs, settings.timeoutMs),
    retry: init.retry === undefined ? settings.retry : resolveRetry(init.retry, settings.retry),
    attempts: 0,
  };
}

/** The calls of a client and of its forAccount() clients, which share its settings, tokens and openapi-fetch client. */
class ClientCalls {
  // The generated openapi-fetch client builds URLs and bodies; `send` does the rest of each call.
  private readonly api: ReturnType<typeof createApiClient>;
  /** The schemas that successful answers are checked against (`validate`), or undefined. */
  private readonly schemas: (() => Promise<AnswerSchemas>) | undefined;

  constructor(
    readonly options: ServiceClientOptions,
    readonly settings: ClientSettings,
  ) {
    this.api = createApiClient({ baseUrl: settings.baseUrl });
    this.schemas = answerSchemas(options.validate);
  }

  /** One call of the API: resolves with the parsed answer, rejects with a ServiceError. */
  async call(
    account: string | undefined,
    rawMethod: string,
    path: string,
    init: Record<string, unknown> = {},
  ): Promise<ServiceResult<unknown>> {
    const { headers, signal, timeoutMs, retry, params, body } = init as AnyCallInit;
    const method = rawMethod.toLowerCase();
    const operation = operationInfo(method, path);
    const context = callContext(this.settings, account, operation, { signal, timeoutMs, retry, params, headers });
    // The schemas are loaded before anything is sent: a call that cannot be checked is not made.
    const schemas = this.schemas && (await this.schemas());
    const result = await this.request(method, path, { headers, params, body }, context);
    const { response } = result;
    if (!response.ok) throw failedAnswerError(result, context, this.settings.clock);
    if (schemas) await checkAnswer(schemas, operation, response, result.data, context.attempts);
    return { data: unwrap(result.data), body: result.data, response, operation, attempts: context.attempts };
  }

  /**
   * The call through openapi-fetch, with `send` as its fetch. openapi-fetch reads the body: the race with a stall
   * keeps the attempt's deadline on it, even with a fetch that ignores signals.
   */
  private async request(
    method: string,
    path: string,
    init: Pick<GivenCall, 'headers' | 'params' | 'body'>,
    context: CallContext,
  ): Promise<FetchResult> {
    const { headers, params, body } = init;
    const stalled = new Promise<never>((_, reject) => (context.onStall = reject));
    stalled.catch(() => {}); // handled through the race below
    try {
      const request = (this.api.request as (method: string, url: string, init: object) => Promise<FetchResult>)(method, path, {
        params,
        ...(body === undefined ? {} : { body }),
        headers,
        fetch: (request: Request) => send(this.settings, request, context),
      });
      request.catch(() => {}); // when the deadline wins the race, the late failure is expected
      return await Promise.race([request, stalled]);
    } catch (error) {
      throw unreadAnswerError(error, context);
    } finally {
      context.open?.end();
    }
  }
}

/** The client's methods on one account (undefined: the caller's own). */
function bind(calls: ClientCalls, account: string | undefined): ServiceClient {
  const call = (name: string, path: string, init?: Record<string, unknown>) => calls.call(account, name, path, init);
  const method = (name: string) => async (path: string, init?: Record<string, unknown>) => (await call(name, path, init)).data;
  return {
    GET: method('get') as ServiceMethod<'get'>,
    POST: method('post') as ServiceMethod<'post'>,
    PUT: method('put') as ServiceMethod<'put'>,
    DELETE: method('delete') as ServiceMethod<'delete'>,
    request: call as ServiceRequestMethod,
    forAccount: (zaaid: string) => bind(calls, accountOf(zaaid)),
    account,
    baseUrl: calls.settings.baseUrl,
    authUrl: calls.settings.authUrl,
    dataCenter: calls.options.dataCenter,
    version: calls.settings.version,
  };
}

/**
 * Creates the client. Give a `dataCenter` (or a `baseUrl`, and an `authUrl` to renew tokens) and `auth`: a refresh
 * token with its client ID and secret, or a ready access token.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  return bind(new ClientCalls(options, clientSettings(options)), undefined);
}
