// The client's fetch for openapi-fetch: each request it builds gets the service's headers and the call's token, one
// renewal after a 401, and the retries of an idempotent call; the answer goes back as it arrives.

import { abortError, type FetchLike, type OpenExchange, startExchange } from '../fetch/exchange.js';
import { backoffDelay, parseRetryAfter, type RetryOptions, type Sleep } from '../fetch/retry.js';
import type { TokenSource } from './auth.js';
import { type OperationInfo, ServiceError } from './errors.js';

/** One call's settings and what its attempts learn on the way. */
export interface CallContext {
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

/** What sending needs of the client. */
export interface SendSettings {
  version: string;
  fetch: FetchLike;
  clock: () => number;
  sleep: Sleep;
  tokens: TokenSource;
}

const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** The service's headers on a request: the version in Accept, the JSON charset of a body, the account's cookie. */
function setServiceHeaders(headers: Headers, body: ArrayBuffer | undefined, version: string, account: string | undefined): void {
  if (!headers.has('Accept')) headers.set('Accept', `application/json; version=${version}`);
  if (body && body.byteLength > 0) {
    const type = headers.get('Content-Type');
    if (!type || /^application\/json\s*$/i.test(type)) headers.set('Content-Type', 'application/json;charset=UTF-8');
  }
  if (account !== undefined) {
    const cookie = headers.get('Cookie');
    headers.set('Cookie', cookie ? `${cookie}; zaaid=${account}` : `zaaid=${account}`);
  }
}

/** An answer not given to the caller: its body is not read, its deadline ends now. */
function discard(open: OpenExchange): void {
  void open.response.body?.cancel().catch(() => {});
  open.end();
}

/** Whether a failed attempt may be tried again: no answer came (network, timeout), and the caller did not abort. */
function retriesFailure(error: unknown, context: CallContext, retries: number): boolean {
  const transient = ServiceError.is(error) && (error.kind === 'network' || error.kind === 'timeout');
  return transient && retries < context.retry.retries && !context.signal?.aborted;
}

/**
 * How long to wait before trying an answer (429, 5xx) again: its Retry-After, or the backoff without one. Undefined
 * when it is not tried again: no retries left, or a Retry-After longer than the client waits for.
 */
function answerRetryDelay(response: Response, context: CallContext, retries: number, clock: () => number): number | undefined {
  if ((response.status !== 429 && response.status < 500) || retries >= context.retry.retries) return undefined;
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), clock());
  if (retryAfter !== undefined && retryAfter > context.retry.maxRetryAfterMs) return undefined;
  return retryAfter ?? backoffDelay(retries, context.retry);
}

/** Sleeps between attempts; the caller's abort during the wait ends the call with the client's error. */
async function wait(sleep: Sleep, ms: number, context: CallContext): Promise<void> {
  try {
    await sleep(ms, context.signal);
  } catch (error) {
    if (context.signal?.aborted) throw abortError(context.signal, context.operation);
    throw error;
  }
}

/**
 * One call: authorization, version, account, JSON charset, 401 renewal, retries, timeouts. Resolves to the answer
 * as it arrives (its body is read by the caller, within the attempt's deadline, which `context.open` ends).
 */
export async function send(settings: SendSettings, template: Request, context: CallContext): Promise<Response> {
  const { tokens } = settings;
  const method = template.method.toUpperCase();
  // Read without Request.body, which Firefox lacks (it is undefined there, for a request with a body too).
  const bytes = method === 'GET' || method === 'HEAD' ? undefined : await template.arrayBuffer();
  const body = bytes !== undefined && bytes.byteLength > 0 ? bytes : undefined;
  // The template is this call's own Request (built by openapi-fetch): its headers are the ones to send.
  const headers = template.headers;
  setServiceHeaders(headers, body, settings.version, context.account);
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
        settings.fetch,
        template.url,
        { method, headers, body: body ?? null },
        { timeoutMs: context.timeoutMs, signal: context.signal, operation: context.operation, onStall: context.onStall },
      );
    } catch (error) {
      if (!idempotent || !retriesFailure(error, context, retries)) throw error;
      await wait(settings.sleep, backoffDelay(retries++, context.retry), context);
      continue;
    }
    context.lastResponse = open.response;
    if (open.response.status === 401 && tokens.renewable && !renewedAfter401) {
      // The token may have been revoked or expired early: renew once (shared with concurrent calls), retry once.
      renewedAfter401 = true;
      tokens.invalidate(token);
      discard(open);
      continue;
    }
    const delay = idempotent ? answerRetryDelay(open.response, context, retries, settings.clock) : undefined;
    if (delay !== undefined) {
      discard(open);
      await wait(settings.sleep, delay, context);
      retries += 1;
      continue;
    }
    context.open = open;
    return open.response;
  }
}
