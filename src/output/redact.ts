// One redaction for every log, report, journal and file of the package (the mock's request log and journal, the
// proxy's lines and report file, verify's output, reports and errors, the MCP server's answers, record's seed):
// credentials never reach them, whatever form they take there. The rule, written once:
//
// - What is a credential: an access, refresh or grant token, a client secret and a client ID (the core document,
//   section 5, item 2: the client ID and secret "are secret and must not be shared"), the value of the
//   `Authorization` header, and whatever else a caller names as one (a token it was given or obtained).
// - By name: the values of the identity provider's parameters (`client_id`, `client_secret`, `code`,
//   `refresh_token`, `token`, `access_token`) in a query string, a form, a JSON text at any depth (every string under
//   such a name, or in an array under it, and every other value but true, false, null and a number of fewer than 6
//   characters), and in a cookie; the credential of the `Authorization` header (its scheme stays).
// - By value: a Redactor knows the secrets of a run or an exchange and replaces each in every form an echo can take
//   (as sent, URL-encoded, form-encoded, JSON-escaped, JSON-pointer-escaped, and the combinations of these), in one
//   pass over each text whatever their number (patterns.ts); given a test of words (the credentials the mock issued),
//   it replaces each such word wherever it stands.
// - Bounded: a Redactor given a limit holds at most that many secrets (an exchange's: 64, and 64 KiB of their
//   forms); past it, every text it is asked to redact is hidden whole, and says so.
// - A field that must say which credential it is (the journal's `client_id`) shows its last four characters only.

import { pointerToken } from '../description/openapi.js';
import { isSecretName } from '../http/authorization.js';
import { splitTarget } from '../http/exchange.js';
import { decodeJsonString, isJsonNumber, scanJson } from './json-text.js';
import { Patterns } from './patterns.js';

export { isSecretName, secretParameters } from '../http/authorization.js';

export const redacted = '[redacted]';

/** Request headers whose values are credentials. */
export const secretHeaders: readonly string[] = ['authorization', 'cookie', 'proxy-authorization'];

/** Shorter values cannot be real credentials (they are stand-ins, e.g. for the mock), and would mangle text. */
const shortest = 6;

/** How many secrets a Redactor with a limit holds: the values, and the characters of their forms. */
export interface RedactionLimit {
  values: number;
  characters: number;
}

/**
 * The most secrets one exchange gives the journal's or the proxy's redaction: far more than any call carries (a
 * token request has four), far fewer than a hostile body can hold.
 */
export const exchangeLimit: RedactionLimit = { values: 64, characters: 64 * 1024 };

/** What a Redactor past its limit gives for every text. */
export const hiddenWhole = (limit: RedactionLimit) =>
  `[hidden: more than ${limit.values} secrets (or ${limit.characters} characters of them) in one exchange]`;

/** Words made of the characters a credential is made of, of at least `shortest` characters, that are secrets. */
export interface SecretWords {
  shortest: number;
  isSecret(word: string): boolean;
}

export interface RedactorOptions {
  /** At most this many secrets; past it, every text is hidden whole (hiddenWhole). Default: no limit. */
  limit?: RedactionLimit | undefined;
  /** Words that are secrets wherever they stand (the credentials the mock issued), whether added or not. */
  words?: SecretWords | undefined;
}

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

/**
 * The automata of the sets of forms used last: the journal reads the secrets of many exchanges, and most carry the
 * same token. Bounded like recentForms: at most 64 sets, of at most 16 KiB of forms each; emptied when full.
 */
const recentPatterns = new Map<string, Patterns>();
const recentPatternsLimit = 64;
const recentPatternsLongest = 16 * 1024;

function patternsOf(forms: Set<string>, characters: number): Patterns {
  if (characters > recentPatternsLongest) return new Patterns(forms);
  const key = [...forms].join('\u0000');
  let patterns = recentPatterns.get(key);
  if (!patterns) {
    if (recentPatterns.size >= recentPatternsLimit) recentPatterns.clear();
    patterns = new Patterns(forms);
    recentPatterns.set(key, patterns);
  }
  return patterns;
}

export class Redactor {
  /** The values added, as given. */
  private readonly added = new Set<string>();
  /** Their forms. */
  private readonly forms = new Set<string>();
  private formCharacters = 0;
  /** The automaton of the forms; made again after add(). */
  private patterns: Patterns | undefined;
  private overflowed = false;

  constructor(
    values: Iterable<string | undefined> = [],
    private readonly options: RedactorOptions = {},
  ) {
    for (const value of values) this.add(value);
  }

  /** Adds a secret; false once the limit is passed (the Redactor is then full, and hides every text whole). */
  add(value: string | undefined): boolean {
    if (this.overflowed) return false;
    if (typeof value !== 'string' || value.length < shortest || this.added.has(value)) return true;
    const forms = echoedForms(value).filter((form) => !this.forms.has(form));
    const characters = forms.reduce((sum, form) => sum + form.length, 0);
    const limit = this.options.limit;
    if (limit && (this.added.size >= limit.values || this.formCharacters + characters > limit.characters)) {
      this.overflowed = true;
      return false;
    }
    this.added.add(value);
    for (const form of forms) this.forms.add(form);
    this.formCharacters += characters;
    this.patterns = undefined;
    return true;
  }

  /** Whether more secrets were given than the limit holds. */
  get full(): boolean {
    return this.overflowed;
  }

  /** The values added, as given (a new Redactor of them, with the same options, redacts the same). */
  values(): string[] {
    return [...this.added];
  }

  /** A text with every form of every secret replaced, in one pass; hidden whole once the Redactor is full. */
  text(value: string): string {
    if (this.overflowed) return hiddenWhole(this.options.limit!);
    let result = value;
    if (this.forms.size > 0) {
      this.patterns ??= patternsOf(this.forms, this.formCharacters);
      result = this.patterns.replace(result, redacted);
    }
    const words = this.options.words;
    return words ? redactWords(result, words) : result;
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

/** Whether a UTF-16 code unit is one a credential is made of: letters, digits, `.`, `_`, `~`, `-`. */
const inWord = (unit: number) =>
  (unit >= 0x30 && unit <= 0x39) ||
  (unit >= 0x41 && unit <= 0x5a) ||
  (unit >= 0x61 && unit <= 0x7a) ||
  unit === 0x2e ||
  unit === 0x5f ||
  unit === 0x7e ||
  unit === 0x2d;

/** Calls `visit` with each word of a text (a run of the characters a credential is made of) of `shortest` or more. */
export function eachWord(text: string, shortest: number, visit: (word: string, start: number, end: number) => void): void {
  let index = 0;
  while (index < text.length) {
    if (!inWord(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    while (index < text.length && inWord(text.charCodeAt(index))) index++;
    if (index - start >= shortest) visit(text.slice(start, index), start, index);
  }
}

/** A text with each word that is a secret replaced. */
export function redactWords(text: string, words: SecretWords): string {
  const parts: string[] = [];
  let from = 0;
  eachWord(text, words.shortest, (word, start, end) => {
    if (!words.isSecret(word)) return;
    parts.push(text.slice(from, start), redacted);
    from = end;
  });
  if (parts.length === 0) return text;
  parts.push(text.slice(from));
  return parts.join('');
}

/**
 * Whether a token under a credential name is hidden: a string always; true, false, null and a number of fewer than
 * 6 characters (a code, a count: the answers' envelope has `"code": 0`) never; anything else always.
 */
const hidesNamed = (kind: 'string' | 'bare', token: string) =>
  kind === 'string' || !(token === 'true' || token === 'false' || token === 'null' || (isJsonNumber(token) && token.length < shortest));

/**
 * Gives `add` each value a JSON text holds under a credential name, at any depth, decoded (duplicates and texts
 * that do not parse included); stops when `add` gives false.
 */
export function secretsOfJson(text: string, add: (value: string) => boolean): void {
  scanJson(text, isSecretName, (kind, start, end, named) => {
    if (!named || kind === 'key') return true;
    const token = kind === 'string' ? decodeJsonString(text, start, end) : text.slice(start, end);
    return hidesNamed(kind, token) ? add(token) : true;
  });
}

/**
 * A JSON text (or one meant as JSON) with the values under credential names replaced by `"[redacted]"`, and every
 * other secret the Redactor knows replaced by value: in strings as sent, and as decoded where they hold escapes.
 */
export function redactJson(text: string, redactor: Redactor): string {
  const parts: string[] = [];
  let from = 0;
  scanJson(text, isSecretName, (kind, start, end, named, escaped) => {
    let replacement: string | undefined;
    if (named && kind !== 'key' && hidesNamed(kind, text.slice(start, end))) replacement = `"${redacted}"`;
    else if (escaped) {
      const decoded = decodeJsonString(text, start, end);
      const shown = redactor.text(decoded);
      if (shown !== decoded) replacement = JSON.stringify(shown);
    }
    if (replacement !== undefined) {
      parts.push(text.slice(from, start), replacement);
      from = end;
    }
    return true;
  });
  parts.push(text.slice(from));
  return redactor.text(parts.join(''));
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
      if (equals === -1 || !isSecretName(parameterName(part))) return part;
      return `${part.slice(0, equals + 1)}${redacted}`;
    })
    .join('&');
}

/** A request target (path and query) fit for a log: the values of credential parameters replaced. */
export function redactTarget(target: string): string {
  const [path, query] = splitTarget(target);
  return query === undefined ? path : `${path}?${redactParameters(query)}`;
}

/**
 * A path with every secret the Redactor knows replaced: in the whole path as sent (a secret may hold a `/`), then in
 * each segment as sent or percent-decoded (a segment that held one is shown decoded, the secret replaced).
 */
export function redactPath(path: string, redactor: Redactor): string {
  return redactor
    .text(path)
    .split('/')
    .map((segment) => {
      const shown = redactor.text(segment);
      if (shown !== segment) return shown;
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return segment;
      }
      const decodedShown = decoded === segment ? segment : redactor.text(decoded);
      return decodedShown === decoded ? segment : decodedShown;
    })
    .join('/');
}

/**
 * A request header's value fit for a log: the credential of an `Authorization` header replaced (its scheme stays),
 * the values of a cookie of a credential's name replaced (the others, the zaaid among them, stay), and every secret
 * the Redactor knows replaced by value.
 */
export function redactHeader(name: string, value: string, redactor: Redactor): string {
  if (name === 'authorization' || name === 'proxy-authorization') {
    const space = value.trim().indexOf(' ');
    return space === -1 ? redacted : `${value.trim().slice(0, space)} ${redacted}`;
  }
  if (name !== 'cookie') return redactor.text(value);
  return value
    .split(';')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return redactor.text(pair);
      return isSecretName(pair.slice(0, equals).trim()) ? `${pair.slice(0, equals + 1)}${redacted}` : redactor.text(pair);
    })
    .join(';');
}

/** The values of the credential parameters of a query string or form body, decoded. */
export function secretParametersOf(text: string): string[] {
  const found: string[] = [];
  for (const [name, value] of new URLSearchParams(text)) if (isSecretName(name) && value) found.push(value);
  return found;
}

/** The credential of an `Authorization` header: what follows its scheme (the whole value when it has none). */
export function authorizationCredential(value: string): string {
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  return space === -1 ? trimmed : trimmed.slice(space + 1).trim();
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
      if (name !== 'cookie' && value.includes(' ')) found.push(authorizationCredential(value));
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

/**
 * A credential named where a field must say which one it is (the journal's `client_id`): its last four characters
 * after `...` when it has at least 16 (`...9F2A`), else nothing of it.
 */
export const secretHint = (value: string): string => (value.length >= 16 ? `...${value.slice(-4)}` : redacted);
