// The service's timestamps: an offset without a colon.
import { describe, expect, it } from 'vitest';
import { formatTimestamp, parseTimestamp } from '../../src/index.js';

describe('parseTimestamp', () => {
  it('reads the service form, offset without a colon', () => {
    expect(parseTimestamp('2026-11-21T10:00:00+0530').toISOString()).toBe('2026-11-21T04:30:00.000Z');
    expect(parseTimestamp('2026-11-21T10:00:00-0800').toISOString()).toBe('2026-11-21T18:00:00.000Z');
    expect(parseTimestamp('2026-11-21T10:00:00+0000').toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(parseTimestamp('2026-01-01T02:00:00+0545').toISOString()).toBe('2025-12-31T20:15:00.000Z');
  });

  it('also takes RFC 3339 offsets and fractions of a second', () => {
    expect(parseTimestamp('2026-11-21T10:00:00+05:30').getTime()).toBe(parseTimestamp('2026-11-21T10:00:00+0530').getTime());
    expect(parseTimestamp('2026-11-21T10:00:00Z').toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(parseTimestamp('2026-11-21T10:00:00.25+0000').toISOString()).toBe('2026-11-21T10:00:00.250Z');
  });

  it('handles leap days and early years exactly', () => {
    expect(parseTimestamp('2024-02-29T00:00:00+0000').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseTimestamp('0099-01-01T00:00:00+0000').getUTCFullYear()).toBe(99);
  });

  it('refuses anything else with a RangeError', () => {
    for (const bad of [
      '2026-11-21 10:00:00+0530',
      '2026-11-21T10:00:00',
      '2026-11-21T10:00+0530',
      '2026-13-01T00:00:00+0000',
      '2025-02-29T00:00:00+0000',
      '2026-11-31T00:00:00+0000',
      '2026-11-21T24:00:00+0000',
      '2026-11-21T10:60:00+0000',
      '2026-11-21T10:00:00+2400',
      '2026-11-21T10:00:00+053',
      '',
    ]) {
      expect(() => parseTimestamp(bad), bad).toThrow(RangeError);
    }
  });
});

describe('formatTimestamp', () => {
  const instant = new Date('2026-11-21T04:30:00.789Z');

  it('writes the service form at an offset', () => {
    expect(formatTimestamp(instant, '+0530')).toBe('2026-11-21T10:00:00+0530');
    expect(formatTimestamp(instant, '-0800')).toBe('2026-11-20T20:30:00-0800');
    expect(formatTimestamp(instant)).toBe('2026-11-21T04:30:00+0000');
    expect(formatTimestamp(instant, '+05:30')).toBe('2026-11-21T10:00:00+0530');
    expect(formatTimestamp(instant, 330)).toBe('2026-11-21T10:00:00+0530');
    expect(formatTimestamp(instant.getTime(), 'Z')).toBe('2026-11-21T04:30:00+0000');
  });

  it('round-trips with parseTimestamp', () => {
    for (const text of ['2026-11-21T10:00:00+0530', '1999-12-31T23:59:59-0930', '2024-02-29T12:00:00+1400']) {
      expect(formatTimestamp(parseTimestamp(text), text.slice(-5))).toBe(text);
    }
  });

  it('refuses an invalid date or offset', () => {
    expect(() => formatTimestamp(new Date('nope'))).toThrow(RangeError);
    expect(() => formatTimestamp(instant, '+5')).toThrow(RangeError);
    expect(() => formatTimestamp(instant, 24 * 60)).toThrow(RangeError);
    expect(() => formatTimestamp(instant, 'IST')).toThrow(RangeError);
  });

  it('refuses a time whose year the format cannot write, beyond the range of Date too', () => {
    expect(formatTimestamp(Date.UTC(9999, 11, 31, 23, 59, 59))).toBe('9999-12-31T23:59:59+0000');
    for (const time of [Date.UTC(9999, 11, 31, 23, 59, 59) + 1000, 9_000_000_000_000_000, -9_000_000_000_000_000, 300_000_000_000_000])
      expect(() => formatTimestamp(time), String(time)).toThrow(/does not fit the format/);
  });
});
