// The service's timestamps: yyyy-MM-dd'T'HH:mm:ssZZZZ, a numeric UTC offset without a colon (2026-11-21T10:00:00+0530).
// Not RFC 3339: `new Date()` of such a string is engine-dependent, so parse it here.

const timestampPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;
const offsetPattern = /^(?:Z|([+-])(\d{2}):?(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Minutes east of UTC of an offset written `+0530`, `+05:30` or `Z`; undefined when it is not one. */
function offsetMinutes(text: string): number | undefined {
  const match = offsetPattern.exec(text);
  if (!match) return undefined;
  if (text === 'Z') return 0;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 23 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * Parses a timestamp of the service (`2026-11-21T10:00:00+0530`) into a Date. Also accepts fractional seconds and
 * the RFC 3339 offsets `+05:30` and `Z`. Throws a RangeError for anything else, or an impossible date or time.
 */
export function parseTimestamp(text: string): Date {
  const match = timestampPattern.exec(text);
  const fail = () => new RangeError(`Not a timestamp of the form yyyy-MM-ddTHH:mm:ss+hhmm: ${JSON.stringify(text)}`);
  if (!match) throw fail();
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const offset = offsetMinutes(match[8]!);
  if (
    offset === undefined ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw fail();
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // not Date.UTC: it maps years 0-99 to 1900-1999
  date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  return new Date(date.getTime() - offset * 60_000);
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * Writes a Date (or epoch milliseconds) the way the service does, at a UTC offset: `formatTimestamp(date, '+0530')`
 * gives `2026-11-21T10:00:00+0530`. The offset is `+hhmm`, `+hh:mm`, `Z`, or minutes east of UTC (330);
 * default UTC (`+0000`). Milliseconds are dropped (the format has whole seconds).
 */
export function formatTimestamp(date: Date | number, offset: string | number = '+0000'): string {
  const time = typeof date === 'number' ? date : date.getTime();
  if (!Number.isFinite(time)) throw new RangeError('formatTimestamp: invalid date');
  const minutes = typeof offset === 'number' ? offset : offsetMinutes(offset);
  if (minutes === undefined || !Number.isInteger(minutes) || Math.abs(minutes) > 23 * 60 + 59) {
    throw new RangeError(`formatTimestamp: not a UTC offset: ${JSON.stringify(offset)}`);
  }
  const local = new Date(Math.floor(time / 1000) * 1000 + minutes * 60_000);
  const year = local.getUTCFullYear();
  // A time beyond the range of Date has no year (NaN): refused like a year of more than four digits.
  if (!(year >= 0 && year <= 9999)) throw new RangeError(`formatTimestamp: the year of ${time} does not fit the format (0000 to 9999)`);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return (
    `${pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  );
}
