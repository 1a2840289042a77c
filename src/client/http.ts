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
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`retry.${name} must be a number >= 0, not ${String(value)}`);
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
    message: timeout ? 'The caller\'s signal timed out.' : 'The caller aborted the call.',
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

/**
 * Sends one request and reads its whole answer, within `timeoutMs` (sending, headers and body) and the caller's
 * signal. Gives a Response whose body is in memory; throws a ServiceError of kind network, timeout or aborted.
 */
export async function exchange(
  fetchImpl: FetchLike,
  request: Request,
  options: { timeoutMs: number; signal?: AbortSignal | undefined; operation: OperationInfo },
): Promise<Response> {
  const { timeoutMs, signal, operation } = options;
  if (signal?.aborted) throw abortError(signal, operation);
  const controller = new AbortController();
  let timedOut = false;
  let rejectAbort: (reason: unknown) => void = () => {};
  const aborted = new Promise<never>((_, reject) => (rejectAbort = reject));
  aborted.catch(() => {}); // handled through the race below
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError'));
    rejectAbort(controller.signal.reason);
  }, timeoutMs);
  const onAbort = () => {
    controller.abort(signal!.reason);
    rejectAbort(signal!.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const work = (async () => {
      const response = await fetchImpl(new Request(request, { signal: controller.signal }));
      const body = nullBodyStatuses.has(response.status) ? null : await response.arrayBuffer();
      const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      Object.defineProperty(copy, 'url', { value: response.url || request.url });
      return copy;
    })();
    work.catch(() => {}); // when the deadline wins the race, the late failure is expected
    // The race keeps the deadline even with a fetch that ignores signals.
    return await Promise.race([aborted, work]);
  } catch (error) {
    if (ServiceError.is(error)) throw error;
    if (timedOut) {
      throw new ServiceError({ kind: 'timeout', message: `No complete answer within ${timeoutMs} ms.`, operation, cause: error });
    }
    if (signal?.aborted) throw abortError(signal, operation);
    const host = new URL(request.url).hostname;
    const hint = host.endsWith('.invalid')
      ? ` (${host} is a placeholder host of the description: give your data center's real baseUrl and authUrl)`
      : '';
    throw new ServiceError({ kind: 'network', message: `Network error: ${describeCause(error)}${hint}`, operation, cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Waits for `promise`, or rejects with the caller's abort error first. The promise itself keeps running. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, operation: OperationInfo): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal, operation));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal, operation));
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
