// The one error class of the library (every failed call, whatever went wrong, rejects with a ServiceError) and the
// errors of a call whose answer failed or could not be read.
import { isRecord } from '../description/openapi.js';
import { parseRetryAfter } from '../fetch/retry.js';
import type { CallContext } from './send.js';

/**
 * What went wrong:
 * - `http`: the service answered with a non-2xx status (other than the cases below).
 * - `auth`: the access token was refused (401, also after one renewal), or the identity provider refused or
 *   failed a token request.
 * - `rate-limit`: the service answered 429, or the client refused to ask the identity provider for another
 *   access token because that would break its limit (`status` is then 0).
 * - `network`: no HTTP answer (connection refused, reset, DNS failure...).
 * - `timeout`: no complete answer within `timeoutMs`, or the caller's signal timed out.
 * - `aborted`: the caller's `AbortSignal` aborted the call.
 * - `contract`: with `validate`, a successful answer whose body is not what the description says (the message
 *   names the JSON pointer and the rule).
 */
export type ServiceErrorKind = 'http' | 'auth' | 'rate-limit' | 'network' | 'timeout' | 'aborted' | 'contract';

/** The HTTP operation a result or an error belongs to. */
export interface OperationInfo {
  /** Upper-case HTTP method. */
  method: string;
  /** The path template of the description, e.g. `/monitors/{monitor_id}` (relative to the API root or identity provider). */
  path: string;
  /** The description's operationId, when the path and method are documented. */
  operationId?: string;
}

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
  operation: OperationInfo;
  status?: number | undefined;
  code?: number | undefined;
  body?: unknown;
  response?: Response | undefined;
  retryAfterMs?: number | undefined;
  attempts?: number | undefined;
  cause?: unknown;
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  // The fields are declared, not defined: the constructor sets each (a smaller browser bundle, the same object).
  declare readonly kind: ServiceErrorKind;
  /** The HTTP status of the answer; 0 when there was no HTTP answer (network, timeout, aborted, refused by the client). */
  declare readonly status: number;
  /** The service's error `code` from the `{code, message}` body, when there is one (e.g. 1002). */
  declare readonly code: number | undefined;
  /** The operation that failed: method, path template and operationId. */
  declare readonly operation: OperationInfo;
  /** The parsed error body (JSON, or the text when it is not JSON); undefined without an answer. */
  declare readonly body: unknown;
  /** The raw answer, when there was one (its body is already read: use `body`). */
  declare readonly response: Response | undefined;
  /** How long the server (Retry-After) or the client-side token limit asks to wait before trying again. */
  declare readonly retryAfterMs: number | undefined;
  /** How many HTTP requests the call made in all (retries included). */
  declare readonly attempts: number;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status ?? 0;
    this.code = init.code;
    this.operation = init.operation;
    this.body = init.body;
    this.response = init.response;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 0;
  }

  /** `true` for a ServiceError (also across copies of the library). */
  static is(value: unknown): value is ServiceError {
    return value instanceof ServiceError || (value instanceof Error && value.name === 'ServiceError' && 'kind' in value);
  }

  /** A short line for logs: `GET /monitors/{monitor_id} (getMonitor): 404 code 1002: Monitor does not exist.` */
  describe(): string {
    const op = `${this.operation.method} ${this.operation.path}${this.operation.operationId ? ` (${this.operation.operationId})` : ''}`;
    const status = this.status ? ` ${this.status}` : ` ${this.kind}`;
    const code = this.code === undefined ? '' : ` code ${this.code}`;
    return `${op}:${status}${code}: ${this.message}`;
  }
}

/** Records how many HTTP requests a call made (known only once it gives up). Internal. */
export function setAttempts(error: ServiceError, attempts: number): ServiceError {
  (error as { attempts: number }).attempts = attempts;
  return error;
}

/**
 * The service's `code` and a human message from an error body. Understands the service's `{code, message}`,
 * RFC 9457 problem details (`title`, `detail`, and Prism's `validation` list), OAuth-style `{error, error_description}`,
 * and plain text.
 */
export function describeErrorBody(body: unknown, response: Response): { code: number | undefined; message: string } {
  const fallback = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (isRecord(body)) {
    const code =
      typeof body.code === 'number' ? body.code : typeof body.code === 'string' && /^\d+$/.test(body.code) ? Number(body.code) : undefined;
    if (typeof body.message === 'string' && body.message) return { code, message: body.message };
    // Problem details (application/problem+json), e.g. Prism's 422 for an invalid request.
    const parts: string[] = [];
    if (typeof body.title === 'string') parts.push(body.title);
    if (typeof body.detail === 'string' && body.detail !== body.title) parts.push(body.detail);
    if (Array.isArray(body.validation)) {
      const items = body.validation.map((item) => {
        if (!isRecord(item)) return String(item);
        const where = Array.isArray(item.location) ? item.location.join('.') : '';
        return [where, typeof item.message === 'string' ? item.message : ''].filter(Boolean).join(' ');
      });
      if (items.length) parts.push(items.join('; '));
    }
    if (typeof body.error === 'string') parts.push(body.error);
    if (typeof body.error_description === 'string') parts.push(body.error_description);
    if (parts.length) return { code, message: parts.join(': ') };
    return { code, message: fallback };
  }
  if (typeof body === 'string' && body.trim()) {
    const text = body.trim().replace(/\s+/g, ' ');
    return { code: undefined, message: `${fallback}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}` };
  }
  return { code: undefined, message: fallback };
}

/** The kind of a non-2xx answer. */
export function kindOfStatus(status: number): ServiceErrorKind {
  if (status === 401) return 'auth';
  if (status === 429) return 'rate-limit';
  return 'http';
}

/** What openapi-fetch resolves to: the parsed body of a success (`data`) or of a failure (`error`), and the answer. */
export type FetchResult = { data?: unknown; error?: unknown; response: Response };

/**
 * The error of a call that got no readable answer: a ServiceError of `send` as it is (with the attempts made), an
 * answer whose body could not be read (kind `http`), or a request that could not be made (kind `network`).
 */
export function unreadAnswerError(error: unknown, context: CallContext): ServiceError {
  if (ServiceError.is(error)) return setAttempts(error, context.attempts);
  const reason = error instanceof Error ? error.message : String(error);
  const answer = context.lastResponse;
  if (answer) {
    // The answer came but could not be read (e.g. a 2xx whose body is not JSON).
    return new ServiceError({
      kind: 'http',
      status: answer.status,
      message: `The answer could not be read: ${reason}`,
      operation: context.operation,
      response: answer,
      cause: error,
      attempts: context.attempts,
    });
  }
  return new ServiceError({
    kind: 'network',
    message: `The request could not be made: ${reason}`,
    operation: context.operation,
    cause: error,
    attempts: context.attempts,
  });
}

/** The error of a non-2xx answer: its kind by status, the service's code and message, how long it asks to wait. */
export function failedAnswerError(result: FetchResult, context: CallContext, clock: () => number): ServiceError {
  const { response } = result;
  const { code, message } = describeErrorBody(result.error, response);
  return new ServiceError({
    kind: kindOfStatus(response.status),
    status: response.status,
    code,
    message,
    operation: context.operation,
    body: result.error,
    response,
    retryAfterMs: parseRetryAfter(response.headers.get('Retry-After'), clock()),
    attempts: context.attempts,
  });
}
