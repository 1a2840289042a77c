// Values that go into a request's path or headers, checked before they do: a value taken from a caller or from a
// service's answer must not change what the request addresses, add a header or a cookie, or break the request.

/** A cookie-octet string (RFC 6265): nothing that could end the cookie or add another (no space, `;`, `,`, quote, `\`). */
const cookieValuePattern = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+$/;

/** Whether a value can be sent as the zaaid cookie (`Cookie: zaaid={zaaid}`) as it is. */
export function isZaaid(value: unknown): value is string {
  return typeof value === 'string' && cookieValuePattern.test(value);
}

export function checkZaaid(zaaid: unknown): string {
  if (!isZaaid(zaaid)) {
    throw new TypeError(
      `Not a zaaid: ${JSON.stringify(zaaid)} (a customer or business-unit account id, as listed by /short/msp/customers or /short/bu/business_units)`,
    );
  }
  return zaaid;
}

/**
 * Why a value cannot fill a path parameter, or undefined when it can: only a string or a finite number goes into a
 * segment (openapi-fetch writes an object or an array in another style, and `{}` as nothing), and empty, `.` and
 * `..` would address another path once the URL is read (`/monitors/..` is `/`). Any other value is percent-encoded.
 */
export function pathValueFault(value: unknown): string | undefined {
  if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string')
    return `must be a string or a finite number, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'number' ? String(value) : `a value of type ${typeof value}`}`;
  const text = String(value);
  if (text === '' || text === '.' || text === '..')
    return `must not be ${JSON.stringify(text)}: it would address another path than the operation's`;
  return undefined;
}

/** Whether a value can fill a path parameter as it is (see pathValueFault). */
export const isPathValue = (value: unknown): boolean => pathValueFault(value) === undefined;

/** Checks the path parameters of a call; a TypeError names the first that would not address the operation's path. */
export function checkPathValues(path: unknown): void {
  if (typeof path !== 'object' || path === null) return;
  for (const [name, value] of Object.entries(path)) {
    const fault = pathValueFault(value);
    if (fault !== undefined) throw new TypeError(`The path parameter ${name} ${fault}.`);
  }
}
