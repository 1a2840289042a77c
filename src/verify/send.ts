// verify's HTTP requests: each one within the run's budget, rate and time limit, never following a redirect; a call
// retried after 429 or 503 as the service asks; a service that stops answering ends the run.
import { type FetchLike, redirectTarget } from '../fetch/exchange.js';
import { describeFetchFailure } from '../fetch/failure.js';
import { parseRetryAfter } from '../fetch/retry.js';
import { headersRecord } from '../http/exchange.js';
import type { Pacer } from './pace.js';

/** An answer as verify judges and reports it: header names in lower case, the body as text. */
export interface Sent {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One request: not sent (the pacer refused it), answered, or no answer (network error, timeout). */
export type Exchange = { refused: string } | { response: Response; text: string } | { error: string };

export type SendResult =
  | { ok: true; answer: Sent; attempts: number; durationMs: number }
  | { ok: false; outcome: 'incomplete' | 'skipped'; note: string; attempts: number; answer?: Sent };

/** The answer of an exchange in the form the judge reads. */
export function sentOf(exchange: { response: Response; text: string }): Sent {
  return { status: exchange.response.status, headers: headersRecord(exchange.response.headers), text: exchange.text };
}

/** The note of a redirect answer, or undefined for any other answer. */
export function redirectNote(answer: { status: number; headers: Record<string, string> }, base: string): string | undefined {
  if (answer.status < 300 || answer.status >= 400 || answer.headers.location === undefined) return undefined;
  const target = redirectTarget(answer.headers.location, base) ?? 'an address that is not a URL';
  return `a redirect to ${target}, not followed: verify sends credentials only to the address it was given`;
}

/** Every request of a run goes through one Sender: the pacer counts it, and unanswered calls are counted in a row. */
export class Sender {
  /** Calls in a row that got no answer: after three, the service is taken to be down and the run ends. */
  private unanswered = 0;

  constructor(
    private readonly pacer: Pacer,
    private readonly fetch: FetchLike,
    private readonly timeoutMs: number,
  ) {}

  /** One HTTP request within the budget, the rate and the time limit. */
  async once(request: Request): Promise<Exchange> {
    const refusal = await this.pacer.slot();
    if (refusal) return { refused: refusal.message };
    try {
      // Never follow a redirect: the request carries credentials, and a 3xx is an answer to judge (and report).
      const response = await this.fetch(new Request(request, { signal: AbortSignal.timeout(this.timeoutMs), redirect: 'manual' }));
      const text = await response.text();
      return { response, text };
    } catch (error) {
      return { error: describeFetchFailure(error, this.timeoutMs) };
    }
  }

  /** A call with up to two retries after 429 or 503, waiting as Retry-After says (or 1 s, then 2 s). */
  async send(build: () => Request): Promise<SendResult> {
    const begun = performance.now();
    let attempts = 0;
    for (let retry = 0; ; retry++) {
      const result = await this.once(build());
      if ('refused' in result) return { ok: false, outcome: 'skipped', note: `not sent: ${result.refused}`, attempts };
      attempts += 1;
      if ('error' in result) return this.noAnswer(result.error, attempts);
      this.unanswered = 0;
      const answer = sentOf(result);
      if ((answer.status === 429 || answer.status === 503) && retry < 2) {
        const wait = parseRetryAfter(result.response.headers.get('Retry-After')) ?? 1000 * 2 ** retry;
        if (this.pacer.hold(wait)) continue;
        return {
          ok: false,
          outcome: 'incomplete',
          note: `answered ${answer.status}; ${this.pacer.stopped?.message ?? 'verify stopped'}`,
          attempts,
          answer,
        };
      }
      return { ok: true, answer, attempts, durationMs: Math.round(performance.now() - begun) };
    }
  }

  /** A call that got no answer; the third in a row stops the run. */
  private noAnswer(error: string, attempts: number): SendResult {
    this.unanswered += 1;
    if (this.unanswered >= 3)
      this.pacer.stop({ reason: 'no-answer', message: `${this.unanswered} calls in a row got no answer (the last: ${error})` });
    return { ok: false, outcome: 'incomplete', note: `no answer: ${error}`, attempts };
  }
}
