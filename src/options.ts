// The checks of options that every library entry shares (the client, verify, the mock, the proxy, the simulator's
// controls, the journal's filter). Nothing here imports anything: the mock's and the proxy's entries take these
// without the client's modules.

/**
 * The one check of a number option above zero, for the client, verify, the mock and the proxy: the value, or
 * `fallback` when it is not given; otherwise a TypeError naming the option as the library calls it (`timeoutMs must
 * be a number > 0, not 0`), never a command-line flag. Each caller picks its rule below: any number above zero (the
 * client's times, verify's rate) or a whole one (the mock's and the proxy's limits, verify's budget and times).
 */
function checkPositive(name: string, value: number | undefined, fallback: number, whole: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
    throw new TypeError(`${name} must be a ${whole ? 'whole ' : ''}number > 0, not ${String(value)}`);
  return value;
}

/** An option that may be any number above zero (`timeoutMs: 0.5`), or `fallback` when it is not given. */
export const positiveNumber = (name: string, value: number | undefined, fallback: number): number =>
  checkPositive(name, value, fallback, false);

/** An option that must be a whole number above zero (`maxBodyBytes`), or `fallback` when it is not given. */
export const positiveWholeNumber = (name: string, value: number | undefined, fallback: number): number =>
  checkPositive(name, value, fallback, true);

/**
 * Throws a TypeError naming the keys of `value` that are not among `allowed` (quoted and cut: a key comes from a
 * request): a misspelt `validity_minute` is named rather than ignored.
 */
export function refuseUnknownKeys(value: object, allowed: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  const named = unknown
    .slice(0, 5)
    .map((key) => JSON.stringify(key.slice(0, 60)))
    .join(', ');
  throw new TypeError(`${what} has ${named}${unknown.length > 5 ? ', ...' : ''}: it takes ${allowed.join(', ') || 'nothing'}`);
}

/** Whether a value is a whole number from `min` to `max`. */
export const isWhole = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
