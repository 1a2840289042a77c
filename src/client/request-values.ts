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
 * Whether a value can fill a path parameter: empty, `.` and `..` would address another path once the URL is read
 * (`/monitors/..` is `/`). Any other value is percent-encoded into its segment.
 */
export function isPathValue(value: unknown): boolean {
  const text = String(value);
  return text !== '' && text !== '.' && text !== '..';
}

/** Checks the path parameters of a call; a TypeError names the first that would address another path. */
export function checkPathValues(path: unknown): void {
  if (typeof path !== 'object' || path === null) return;
  for (const [name, value] of Object.entries(path)) {
    if (!isPathValue(value)) {
      throw new TypeError(
        `The path parameter ${name} must not be ${JSON.stringify(String(value))}: it would address another path than the operation's.`,
      );
    }
  }
}
