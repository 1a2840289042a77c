// The bounds of a verify run: a budget of HTTP requests, a rate (a least interval between two requests), and the
// waits a service asks for with Retry-After, which hold every later request too.
import { defaultSleep } from '../fetch/retry.js';

export interface PaceOptions {
  /** Most HTTP requests in the run, identity provider included. */
  budget: number;
  /** Most requests per second: requests start at least 1000 / rate ms apart. */
  ratePerSecond: number;
  /** The longest wait verify accepts (Retry-After); a longer one ends the run. */
  maxWaitMs: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Why a request was not sent. */
export type Refusal = { reason: 'budget' | 'wait' | 'no-answer'; message: string };

export class Pacer {
  /** Start times of the requests sent, in order. */
  readonly sent: number[] = [];
  private nextAt = Number.NEGATIVE_INFINITY;
  private readonly intervalMs: number;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private refusal: Refusal | undefined;
  /** One request at a time: each waits for the one before it to get its slot. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PaceOptions) {
    this.intervalMs = 1000 / options.ratePerSecond;
    this.clock = options.clock ?? (() => performance.now());
    this.sleep = options.sleep ?? defaultSleep;
  }

  get remaining(): number {
    return Math.max(0, this.options.budget - this.sent.length);
  }

  /** Why the run cannot send more, once it cannot. */
  get stopped(): Refusal | undefined {
    return (
      this.refusal ??
      (this.remaining === 0 ? { reason: 'budget', message: `the request budget (${this.options.budget}) is spent` } : undefined)
    );
  }

  /** Waits for the next slot; resolves undefined when the request may go, or why it may not. */
  slot(): Promise<Refusal | undefined> {
    const turn = this.queue.then(async () => {
      const stopped = this.stopped;
      if (stopped) return stopped;
      for (let now = this.clock(); now < this.nextAt; now = this.clock()) await this.sleep(this.nextAt - now);
      const now = this.clock();
      this.sent.push(now);
      this.nextAt = now + this.intervalMs;
      return undefined;
    });
    this.queue = turn;
    return turn;
  }

  /** Ends the run: no request after this one. */
  stop(refusal: Refusal): void {
    this.refusal ??= refusal;
  }

  /** The service asked to wait `ms` (Retry-After): no request before then; too long a wait ends the run. */
  hold(ms: number): boolean {
    if (ms > this.options.maxWaitMs) {
      this.refusal ??= {
        reason: 'wait',
        message: `the service asked to wait ${Math.ceil(ms / 1000)} s (Retry-After), longer than the ${Math.round(this.options.maxWaitMs / 1000)} s verify waits`,
      };
      return false;
    }
    this.nextAt = Math.max(this.nextAt, this.clock() + ms);
    return true;
  }
}
