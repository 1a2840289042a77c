// The checks the simulator's controls share: what they take is checked whole before anything changes, and a key they
// do not take is named rather than ignored (a misspelt `validity_minute` would otherwise pass silently).

/** Throws a TypeError naming the keys of `value` that are not among `allowed`. */
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
