// One HTTP exchange with a timeout, retry delays and Retry-After: the pieces the client and the identity-provider
// helpers share.
import { ServiceError, type OperationInfo } from './errors.js';

/** A fetch function: the global `fetch` or any function that takes a Request and gives a Response. */
export type FetchLike = (request: Request) => Promise<Response>;

/** Sleeps `ms` milliseconds; rejects with the signal's reason when it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Retries of idempotent calls (GET, PUT, DELETE) on 5xx, 429, network errors and timeouts. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2; 0 turns retries off. */
  retries: number;
  /** The first backoff delay; each further retry doubles it. Default 250 ms. */
  baseDelayMs: number;
  /** Cap of one backoff delay (before jitter). Default 8000 ms. */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` the client waits for; a longer one ends the call with the error (its
   * `retryAfterMs` says how long the server asked to wait). Default 60 000 ms.
   */
  maxRetryAfterMs: number;
}

export const defaultRetry: RetryOptions = { retries: 2, baseDelayMs: 250, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

export function resolveRetry(retry: Partial<RetryOptions> | false | undefined, base: RetryOptions = defaultRetry): RetryOptions {
  if (retry === false) return { ...base, retries: 0 };
  const merged = { ...base, ...Object.fromEntries(Object.entries(retry ?? {}).filter(([, value]) => value !== undefined)) };
  for (const [name, value] of Object.entries(merged)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new TypeError(`retry.${name} must be a number >= 0, not ${String(value)}`);
  }
  merged.retries = Math.floor(merged.retries);
  return merged;
}

/**
 * The delay before retry number `retry` (0 for the first retry): exponential, capped at `maxDelayMs`, with
 * "equal jitter" (between half and all of the exponential delay), so that many clients do not retry in step.
 */
export function backoffDelay(retry: number, options: RetryOptions, random: () => number = Math.random): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** `Retry-After` as milliseconds from now: delay-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // not a date either (e.g. "-1", "1.5")
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** A URL without its trailing slashes (removed one by one: no expression that backtracks on a run of them). */
export function stripSlash(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

/** Whether a host name is this machine (localhost, 127.0.0.0/8, ::1): plain http there reaches no network. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  const parts = host.split('.');
  return (
    parts.length === 4 &&
    parts[0] === '127' &&
    parts.every(
      (part) => part.length > 0 && part.length <= 3 && [...part].every((digit) => digit >= '0' && digit <= '9') && Number(part) <= 255,
    )
  );
}

/**
 * An address that credentials will be sent to (an API root, an identity provider), checked: an http(s) URL without
 * a user name or password in it, and https unless it is this machine or the caller opted out (`insecure`), since
 * plain http shows every token and secret to the network. Gives it without trailing slashes; throws a TypeError.
 */
export function credentialAddress(name: string, value: string, insecure = false): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} must be a URL such as https://host/api, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${name} must be an http(s) URL, not ${JSON.stringify(value)}`);
  if (url.username || url.password)
    throw new TypeError(`${name} must not carry a user name or password: credentials never travel in a URL.`);
  if (url.protocol === 'http:' && !insecure && !isLoopback(url.hostname)) {
    throw new TypeError(
      `${name} ${url.origin} is plain http: tokens and secrets would cross the network unencrypted. Use https, or opt out with insecure: true ` +
        '(plain http is allowed without it only to this machine: localhost, 127.0.0.1, ::1).',
    );
  }
  return stripSlash(value);
}

/** Statuses whose answer has no body (a Response cannot be built with one). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

/** The error for a call the caller's signal ended. */
export function abortError(signal: AbortSignal, operation: OperationInfo): ServiceError {
  const timeout = isTimeoutReason(signal.reason);
  return new ServiceError({
    kind: timeout ? 'timeout' : 'aborted',
    message: timeout ? "The caller's signal timed out." : 'The caller aborted the call.',
    operation,
    cause: signal.reason,
  });
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = cause && 'code' in cause ? ` (${String(cause.code)})` : '';
  return cause ? `${error.message}: ${cause.message}${code}` : error.message;
}

/** An exchange whose answer has arrived (status and headers) while its body may still be on its way. */
export interface OpenExchange {
  response: Response;
  /** Ends the exchange's deadline: call it once the body is read, or given up. */
  end(): void;
}

export interface ExchangeOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  operation: OperationInfo;
  /** Called when the deadline or the caller's signal ends the exchange while its body is being read. */
  onStall?: ((error: ServiceError) => void) | undefined;
}

/**
 * Sends one request and resolves once its answer's status and headers have come, within `timeoutMs` and the
 * caller's signal; the deadline goes on for the body until `end()`. Never follows a redirect: a 3xx throws. Throws
 * a ServiceError of kind network, timeout or aborted. One Request is built, from `input` and `init`.
 */
export async function startExchange(
  fetchImpl: FetchLike,
  input: Request | string,
  init: RequestInit,
  options: ExchangeOptions,
): Promise<OpenExchange> {
  const { timeoutMs, signal, operation } = options;
  if (signal?.aborted) throw abortError(signal, operation);
  const controller = new AbortController();
  let phase: 'headers' | 'body' | 'ended' = 'headers';
  let rejectHeaders: (reason: unknown) => void = () => {};
  const headersFailed = new Promise<never>((_, reject) => (rejectHeaders = reject));
  headersFailed.catch(() => {}); // handled through the race below
  const stop = (reason: unknown, error: () => ServiceError) => {
    controller.abort(reason);
    if (phase === 'headers') rejectHeaders(reason);
    else if (phase === 'body') options.onStall?.(error());
    end();
  };
  const timer = setTimeout(
    () =>
      stop(
        new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError'),
        () => new ServiceError({ kind: 'timeout', message: `No complete answer within ${timeoutMs} ms.`, operation }),
      ),
    timeoutMs,
  );
  const onAbort = () => stop(signal!.reason, () => abortError(signal!, operation));
  signal?.addEventListener('abort', onAbort, { once: true });
  function end() {
    phase = 'ended';
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  try {
    // Redirects are never followed: the request carries credentials, which go only to the address the caller gave.
    const request = new Request(input, { ...init, signal: controller.signal, redirect: 'manual' });
    const work = fetchImpl(request);
    work.catch(() => {}); // when the deadline wins the race, the late failure is expected
    // The race keeps the deadline even with a fetch that ignores signals.
    const response = await Promise.race([headersFailed, work]);
    if (isRedirect(response)) {
      await response.body?.cancel().catch(() => {});
      throw redirectError(response, request.url, operation);
    }
    phase = 'body';
    return { response, end };
  } catch (error) {
    const timedOut =
      controller.signal.reason instanceof DOMException && controller.signal.reason.name === 'TimeoutError' && !signal?.aborted;
    end();
    if (ServiceError.is(error)) throw error;
    if (timedOut)
      throw new ServiceError({ kind: 'timeout', message: `No complete answer within ${timeoutMs} ms.`, operation, cause: error });
    if (signal?.aborted) throw abortError(signal, operation);
    const url = input instanceof Request ? input.url : input;
    const host = new URL(url).hostname;
    const hint = host.endsWith('.invalid')
      ? ` (${host} is a placeholder host of the description: give your data center's real baseUrl and authUrl)`
      : '';
    throw new ServiceError({ kind: 'network', message: `Network error: ${describeCause(error)}${hint}`, operation, cause: error });
  }
}

/**
 * Sends one request and reads its whole answer within the deadline (for the identity provider's calls): a Response
 * whose body is in memory.
 */
export async function exchange(fetchImpl: FetchLike, request: Request, options: ExchangeOptions): Promise<Response> {
  let stalled: (error: ServiceError) => void = () => {};
  const stall = new Promise<never>((_, reject) => (stalled = reject));
  stall.catch(() => {});
  const { response, end } = await startExchange(fetchImpl, request, {}, { ...options, onStall: (error) => stalled(error) });
  try {
    const body = nullBodyStatuses.has(response.status) ? null : await Promise.race([response.arrayBuffer(), stall]);
    const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(copy, 'url', { value: response.url || request.url });
    return copy;
  } catch (error) {
    if (ServiceError.is(error)) throw error;
    throw new ServiceError({
      kind: 'network',
      message: `Network error: ${describeCause(error)}`,
      operation: options.operation,
      cause: error,
    });
  } finally {
    end();
  }
}

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400 && response.status !== 304);
}

/**
 * Where a redirect points, for a message: the Location resolved against the request's address, as origin and path
 * only (its query may hold anything, a code or a token). Undefined when it is not a URL. The client's errors and
 * verify's notes describe a redirect with it.
 */
export function redirectTarget(location: string, base: string): string | undefined {
  try {
    const url = new URL(location, base);
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** The error for an answer that redirects: it names where to (origin and path only), and why it was not followed. */
function redirectError(response: Response, url: string, operation: OperationInfo): ServiceError {
  const target = redirectTarget(response.headers.get('location') ?? '', url) ?? 'another address';
  const status = response.status;
  return new ServiceError({
    kind: 'http',
    status,
    message:
      `The answer is a redirect (${status || 'its status hidden by the browser'}) to ${target}, which the client does not follow: the request carries credentials, ` +
      'and they go only to the address you gave. If that address is right, configure it instead.',
    operation,
    response,
  });
}

/**
 * Waits for `promise`, or rejects first once `signal` aborts, with `failure(signal)` (the signal's reason by default).
 * The promise itself keeps running.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  failure: (signal: AbortSignal) => unknown = (aborted) => aborted.reason,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(failure(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(failure(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
