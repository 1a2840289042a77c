// Secrets never leave a verify run: the client ID and secret, the refresh token and every access token are
// replaced in whatever verify reports, prints or throws, wherever a service or a library may have echoed them.

export const redacted = '[redacted]';

/** Shorter values cannot be real credentials (they are stand-ins, e.g. for the mock), and would mangle text. */
const shortest = 6;

export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(values: (string | undefined)[] = []) {
    for (const value of values) this.add(value);
  }

  add(value: string | undefined): void {
    if (typeof value !== 'string' || value.length < shortest) return;
    this.secrets.add(value);
    // The forms a value takes in a URL or a form body, and in JSON.
    this.secrets.add(encodeURIComponent(value));
    this.secrets.add(new URLSearchParams({ v: value }).toString().slice(2));
    this.secrets.add(JSON.stringify(value).slice(1, -1));
  }

  text(value: string): string {
    let result = value;
    // Longest first, so that a secret containing another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) result = result.split(secret).join(redacted);
    return result;
  }

  /** A copy of a JSON value with every string (keys included) redacted. */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.value(item)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.value(item)])) as T;
    }
    return value;
  }

  /** An error whose message and cause are redacted, for throwing on. */
  error(error: unknown): Error {
    const message = this.text(error instanceof Error ? error.message : String(error));
    const copy = new Error(message);
    if (error instanceof Error) copy.name = error.name;
    return copy;
  }
}
