// The simulator's clock: the time of a source (Date.now, or one a test injects) plus what a test has advanced it
// by, so that token expiry and the identity provider's 10-minute windows are tested without waiting. It never moves
// past the last second the service's timestamp format can write (year 9999): every answer writes the time.
import { formatTimestamp } from '../client/timestamps.js';

/** The last time the service's format writes in UTC: 9999-12-31T23:59:59+0000. */
export const latestServiceTime = Date.UTC(9999, 11, 31, 23, 59, 59);

export interface SimulatedClock {
  /** The simulated time, epoch milliseconds. */
  now(): number;
  /**
   * Moves the simulated time forward by `ms` (a whole number >= 0); gives the new time. Throws a RangeError, and
   * moves nothing, for any other value or one that would pass `latestServiceTime`.
   */
  advance(ms: number): number;
  /** Back to the time it started at (the mock's reset): the source's, or ahead of it by `startOffset`. */
  reset(): void;
}

/** A clock on a source, `startOffset` ms ahead of it from the start (a world made as a copy starts at its source's time). */
export function createClock(source: () => number = Date.now, startOffset = 0): SimulatedClock {
  let offset = startOffset;
  return {
    now: () => source() + offset,
    advance(ms) {
      if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0)
        throw new RangeError(`advance_ms must be a whole number of milliseconds >= 0, not ${JSON.stringify(ms)}`);
      const now = source() + offset;
      if (ms > latestServiceTime - now)
        throw new RangeError(
          `advance_ms ${ms} would move the clock past ${serviceTime(latestServiceTime)}, the last time the service's timestamp format writes: at most ${Math.max(0, latestServiceTime - now)} from ${serviceTime(now)}`,
        );
      offset += ms;
      return now + ms;
    },
    reset() {
      offset = startOffset;
    },
  };
}

/** A time as the service writes it (core document, section 2.2), in UTC: `2026-11-21T10:00:00+0000`. */
export const serviceTime = (time: number): string => formatTimestamp(time, '+0000');
