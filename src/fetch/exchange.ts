// One HTTP exchange with a deadline, without following redirects: the piece the client, the identity-provider
// helpers, the mock and verify share.
import { type OperationInfo, ServiceError } from '../client/errors.js';
import { placeholderHost } from './address.js';

/** A fetch function: the global `fetch` or any function that takes a Request and gives a Response. */
export type FetchLike = (request: Request) => Promise<Response>;

/** The statuses whose answers have no body (a Response refuses one). */
export const nullBodyStatuses: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

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
    const placeholder = placeholderHost(input instanceof Request ? input.url : input);
    const hint = placeholder ? ` (${placeholder}: give your data center's real baseUrl and authUrl)` : '';
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

/**
 * Where a redirect answer points, for the client's message: its target (origin and path), or what hides it (the
 * browser, no Location header, a Location that is not a URL). Never "another address" when there is none.
 */
function redirectDestination(response: Response, url: string): string {
  if (response.type === 'opaqueredirect') return 'a redirect (its status and address hidden by the browser)';
  const location = response.headers.get('location');
  if (location === null) return `a redirect (${response.status}) without a Location header`;
  const target = redirectTarget(location, url);
  return target === undefined
    ? `a redirect (${response.status}) to a Location that is not a URL`
    : `a redirect (${response.status}) to ${target}`;
}

/** The error for an answer that redirects: it says where to (origin and path only), and why it was not followed. */
function redirectError(response: Response, url: string, operation: OperationInfo): ServiceError {
  return new ServiceError({
    kind: 'http',
    status: response.status,
    message:
      `The answer is ${redirectDestination(response, url)}, which the client does not follow: credentials go only to the ` +
      'address you gave. If it has moved, give the new one.',
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
