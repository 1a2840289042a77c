// Retries of a call: how long to wait before the next attempt (a capped, jittered backoff, or the answer's
// Retry-After) and the wait itself.
import { OptionError, option, wording } from '../options.js';

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
      throw new OptionError(wording`${option(`retry.${name}`)} must be a number >= 0, not ${String(value)}`);
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
