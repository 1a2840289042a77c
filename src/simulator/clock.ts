// The simulator's clock: the time of a source (Date.now, or one a test injects) plus what a test has advanced it
// by, so that token expiry and the identity provider's 10-minute windows are tested without waiting.
import { formatTimestamp } from '../client/timestamps.js';

export interface SimulatedClock {
  /** The simulated time, epoch milliseconds. */
  now(): number;
  /** Moves the simulated time forward by `ms` (a whole number >= 0); gives the new time. */
  advance(ms: number): number;
  /** Back to the source's time (the mock's reset). */
  reset(): void;
}

export function createClock(source: () => number = Date.now): SimulatedClock {
  let offset = 0;
  return {
    now: () => source() + offset,
    advance(ms) {
      offset += ms;
      return source() + offset;
    },
    reset() {
      offset = 0;
    },
  };
}

/** A time as the service writes it (core document, section 2.2), in UTC: `2026-11-21T10:00:00+0000`. */
export const serviceTime = (time: number): string => formatTimestamp(time, '+0000');
