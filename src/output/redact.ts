// One redaction for every log and report of the package (the mock's request log, the proxy's lines and report file,
// verify's output, reports and errors): credentials never reach them, whatever form they take there.
//
// - By name: the values of the identity provider's parameters (`client_id`, `client_secret`, `code`,
//   `refresh_token`, `token`, `access_token`) in a query string, and the values of the `Authorization` and `Cookie`
//   headers, are replaced wherever a request target is shown (`redactTarget`).
// - By value: a Redactor knows the secrets of a run or an exchange and replaces each in every form an echo can take:
//   as sent, URL-encoded, form-encoded, JSON-escaped, JSON-pointer-escaped (an attribute name in a pointer), and the
//   combinations of these.

import { pointerToken } from '../description/openapi.js';
import { splitTarget } from '../http/exchange.js';

export const redacted = '[redacted]';

/** Parameters of the identity provider's endpoints that carry credentials (core document, section 4.3). */
export const secretParameters: readonly string[] = ['client_id', 'client_secret', 'code', 'refresh_token', 'token', 'access_token'];

/** Request headers whose values are credentials. */
export const secretHeaders: readonly string[] = ['authorization', 'cookie', 'proxy-authorization'];

/** Shorter values cannot be real credentials (they are stand-ins, e.g. for the mock), and would mangle text. */
const shortest = 6;

/**
 * The forms of the values seen last: the mock's journal redacts every exchange, and the same token comes again and
 * again. Bounded: at most 256 values, each of at most 1,024 characters (a credential is shorter; a longer value a
 * client sent is not kept); emptied when full.
 */
const recentForms = new Map<string, string[]>();
const recentFormsLimit = 256;
const recentFormsLongest = 1024;

/** The forms in which a value can be echoed into text: as itself, URL-, form- and JSON-escaped, pointer-escaped. */
function echoedForms(value: string): string[] {
  if (value.length > recentFormsLongest) return formsOf(value);
  let forms = recentForms.get(value);
  if (!forms) {
    if (recentForms.size >= recentFormsLimit) recentForms.clear();
    forms = formsOf(value);
    recentForms.set(value, forms);
  }
  return forms;
}

function formsOf(value: string): string[] {
  const forms = new Set<string>();
  for (const base of [value, pointerToken(value)]) {
    forms.add(base);
    forms.add(encodeURIComponent(base));
    forms.add(new URLSearchParams({ v: base }).toString().slice(2));
    forms.add(JSON.stringify(base).slice(1, -1));
  }
  return [...forms];
}

export class Redactor {
  /** The values added, as given. */
  private readonly added = new Set<string>();
  /** Their forms. */
  private readonly secrets = new Set<string>();
  /** The secrets, longest first (so that a secret containing another is replaced whole); made again after add(). */
  private ordered: string[] | undefined;

  constructor(values: Iterable<string | undefined> = []) {
    for (const value of values) this.add(value);
  }

  add(value: string | undefined): void {
    if (typeof value !== 'string' || value.length < shortest) return;
    this.added.add(value);
    for (const form of echoedForms(value)) this.secrets.add(form);
    this.ordered = undefined;
  }

  /** The values added, as given (a new Redactor of them redacts the same). */
  values(): string[] {
    return [...this.added];
  }

  text(value: string): string {
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    let result = value;
    for (const secret of this.ordered) if (result.includes(secret)) result = result.split(secret).join(redacted);
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

  /** An error whose message is redacted (its cause is left out), for throwing on. */
  error(error: unknown): Error {
    const message = this.text(error instanceof Error ? error.message : String(error));
    const copy = new Error(message);
    if (error instanceof Error) copy.name = error.name;
    return copy;
  }
}

/** A parameter name as sent, decoded (`+` is a space); the name itself when it is not valid percent-encoding. */
function parameterName(part: string): string {
  const equals = part.indexOf('=');
  const raw = (equals === -1 ? part : part.slice(0, equals)).replaceAll('+', ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A query string or form body with the values of the credential parameters replaced. */
export function redactParameters(text: string): string {
  return text
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals === -1 || !secretParameters.includes(parameterName(part).toLowerCase())) return part;
      return `${part.slice(0, equals + 1)}${redacted}`;
    })
    .join('&');
}

/** A request target (path and query) fit for a log: the values of credential parameters replaced. */
export function redactTarget(target: string): string {
  const [path, query] = splitTarget(target);
  return query === undefined ? path : `${path}?${redactParameters(query)}`;
}

/** The values of the credential parameters of a query string or form body, decoded. */
export function secretParametersOf(text: string): string[] {
  const found: string[] = [];
  for (const [name, value] of new URLSearchParams(text)) if (secretParameters.includes(name.toLowerCase()) && value) found.push(value);
  return found;
}

/**
 * The credentials a request carries: the values of the credential parameters of its query and (form) body, the
 * token of its `Authorization` header and the whole header, every value of its `Cookie` header.
 */
export function secretsOfRequest(request: {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  form?: string | undefined;
}): string[] {
  const found: string[] = [];
  const [, query] = splitTarget(request.url);
  if (query !== undefined) found.push(...secretParametersOf(query));
  if (request.form !== undefined) found.push(...secretParametersOf(request.form));
  for (const name of secretHeaders) {
    const header = request.headers[name];
    for (const value of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
      found.push(value);
      const space = value.indexOf(' ');
      if (name !== 'cookie' && space !== -1) found.push(value.slice(space + 1).trim());
      if (name === 'cookie') {
        for (const pair of value.split(';')) {
          const equals = pair.indexOf('=');
          if (equals !== -1) found.push(pair.slice(equals + 1).trim());
        }
      }
    }
  }
  return found;
}
