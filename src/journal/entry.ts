// One exchange as the journal keeps it: the request and the answer read once, bounded, and without a secret.
//
// Secrets are found by name and by value, then replaced by the package's one redaction (src/output/redact.ts):
// - by name: the token of the Authorization header, the identity provider's credential parameters (`client_secret`,
//   `code`, `refresh_token`, `token`, `access_token`, `client_id`) in the query string, a form body, a JSON body or
//   answer (at any depth) and a cookie;
// - by value: each secret found by name, and each value the simulator knows as a credential it issued
//   (`isSecret`), is replaced wherever else it appears (a header of any name, the path, a cookie, any text).
// A body over 64 KiB is redacted whole first, then cut, so that no secret survives half cut.
//
// An API call (all but the identity provider's, whose answers hold credentials) is kept as it was, with the secrets
// found when it was recorded: its headers, query, body, violations and answer are read and redacted, by name and by
// value, only when the entry is read (`laterParts`). Recording stays cheap: of an API call, only the request's body is
// read when it is recorded (the simulator's credentials in it can change before the entry is read), its answer and
// the rest only when read. The identity provider's exchanges, and a request body over 64 KiB, are read and redacted
// at once.
import type { Answer, Call, Violation } from '../http/exchange.js';
import { headerText, isJson, splitTarget } from '../http/exchange.js';
import { Redactor, redacted, redactParameters, secretParameters, secretParametersOf } from '../output/redact.js';
import type { JournalEntry, JournalViolation } from './types.js';

/** Values shorter than this are never credentials the simulator issued (its tokens and secrets are long). */
export const shortestIssued = 16;

/** The most bytes of a request or answer body an entry keeps. */
export const maxBodyBytes = 64 * 1024;
/** The most characters of one header value an entry keeps (an in-process call has no header limit of its own). */
const maxHeaderLength = 8 * 1024;
/** The deepest JSON an entry keeps as JSON; a deeper body is kept as (redacted) text. */
const maxDepth = 64;

/** The facts of an exchange that the simulator knows and a request does not say. */
export interface ExchangeFacts {
  /** The simulated time of the call, epoch ms (written in the service's form when the entry is read). */
  at: number;
  account: string | null;
  client_id: string | null;
  fault: JournalEntry['fault'];
}

/** An entry as the ring keeps it: its time as a number (written out when read), and the bytes it holds (an estimate). */
export interface KeptEntry {
  /** The entry without its time; `id` and `near_miss` are the journal's to set. */
  entry: Omit<JournalEntry, 'at'>;
  at: number;
  bytes: number;
  /** An API call's request and answer, read and redacted only when the entry is read (see laterParts). */
  later?: LaterExchange;
  /** The method and path segments of a call that matched no operation: its near miss is searched for when read. */
  unmatched?: { method: string; segments: readonly string[] };
}

/** An exchange kept as it was, with what its redaction needs when the entry is read. */
export interface LaterExchange {
  /** The call and the answer as the mock had them (kept, not copied: nothing changes them once answered). */
  call: Call;
  answer: Answer;
  /** The secrets found when the exchange was recorded (by name, or issued by the simulator then). */
  secrets: string[];
}

/** The parts of an entry that a later exchange reads when the entry is read. */
type LaterParts = Pick<JournalEntry, 'path' | 'query' | 'headers' | 'body' | 'answer' | 'violations'>;

const isSecretName = (name: string) => secretParameters.includes(name.toLowerCase());

/** Visits every string of a JSON value with the name of its attribute; false when it is deeper than maxDepth. */
function walkJson(value: unknown, visit: (text: string, name: string | undefined) => void): boolean {
  let deep = false;
  const walk = (node: unknown, name: string | undefined, depth: number): void => {
    if (depth > maxDepth) {
      deep = true;
      return;
    }
    if (typeof node === 'string') visit(node, name);
    else if (Array.isArray(node)) for (const item of node) walk(item, name, depth + 1);
    else if (node !== null && typeof node === 'object')
      for (const [key, item] of Object.entries(node)) {
        visit(key, undefined);
        walk(item, key, depth + 1);
      }
  };
  walk(value, undefined, 0);
  return !deep;
}

/** A JSON value with the values of secret attributes (at any depth) replaced, the rest redacted by value. */
function redactJson(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redactor));
  if (value === null || typeof value !== 'object') return value;
  // Pairs, then one object: an attribute named __proto__ stays an attribute.
  const pairs: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value))
    pairs.push([redactor.text(key), isSecretName(key) && typeof item === 'string' ? redacted : redactJson(item, redactor)]);
  return Object.fromEntries(pairs);
}

/** A body read once: JSON when it parses (and is not too deep), a form's text, or text. */
interface ReadBody {
  raw: string;
  bytes: number;
  json?: unknown;
  form?: boolean;
  /** An attribute named as a credential, or a value the simulator issued, is in it. */
  holdsSecret?: boolean;
}

function readBody(body: Buffer, mediaType: string | undefined): ReadBody | undefined {
  if (body.length === 0) return undefined;
  const raw = body.toString('utf8');
  const read: ReadBody = { raw, bytes: body.length };
  if (mediaType === 'application/x-www-form-urlencoded') read.form = true;
  else if (mediaType === undefined || isJson(mediaType) || raw.startsWith('{') || raw.startsWith('[')) {
    try {
      read.json = JSON.parse(raw);
    } catch {
      // text
    }
  }
  // A body that is not JSON is read as a form too: a credential parameter in it (a token request sent as text/plain,
  // or with no Content-Type) is found by its name.
  if (read.json === undefined) read.form = true;
  return read;
}

/**
 * Adds each word of a text (a run of the characters a credential is made of) that the simulator issued: a client can
 * put a token anywhere (a misspelt header, a header of its own, the path, a body that does not parse).
 */
function issuedWords(text: string, redactor: Redactor, isSecret: (value: string) => boolean): void {
  for (const word of text.split(/[^0-9A-Za-z._~-]+/)) if (word.length >= shortestIssued && isSecret(word)) redactor.add(word);
}

/**
 * The values a text that is meant as JSON but does not parse gives to attributes named as credentials
 * (`{"client_secret": "x",}`), read in one pass per name.
 */
function namedStringsOf(text: string): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  const skipSpace = (at: number) => {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
    return at;
  };
  for (const name of secretParameters) {
    for (let at = lower.indexOf(`"${name}"`); at !== -1; at = lower.indexOf(`"${name}"`, at + 1)) {
      let next = skipSpace(at + name.length + 2);
      if (text[next] !== ':') continue;
      next = skipSpace(next + 1);
      if (text[next] !== '"') continue;
      const end = text.indexOf('"', next + 1);
      if (end !== -1) found.push(text.slice(next + 1, end));
    }
  }
  return found;
}

/** Adds the secrets of a body: its secret attributes' or parameters' values, and each string the simulator issued. */
function bodySecrets(body: ReadBody | undefined, redactor: Redactor, isSecret: (value: string) => boolean): void {
  if (!body) return;
  if (body.form) {
    for (const value of [...secretParametersOf(body.raw), ...namedStringsOf(body.raw)]) redactor.add(value);
    for (const [, value] of new URLSearchParams(body.raw)) if (isSecret(value)) redactor.add(value);
    issuedWords(body.raw, redactor, isSecret);
    return;
  }
  if (body.json !== undefined) {
    const shallow = walkJson(body.json, (text, name) => {
      if ((name !== undefined && isSecretName(name)) || isSecret(text)) {
        body.holdsSecret = true;
        redactor.add(text);
      }
    });
    if (!shallow) body.json = undefined; // too deep to keep as JSON: kept as redacted text
  }
}

/** A body as the entry keeps it: redacted whole, then cut and marked above maxBodyBytes. */
function keptBody(body: ReadBody | undefined, redactor: Redactor): unknown {
  if (!body) return null;
  if (body.bytes <= maxBodyBytes && body.json !== undefined) {
    // Most bodies hold no secret: kept as parsed when no secret is in the text as sent (and no escape could hide one).
    const clean = !body.holdsSecret && !body.raw.includes('\\') && redactor.text(body.raw) === body.raw;
    return clean ? body.json : redactJson(body.json, redactor);
  }
  const text = redactor.text(body.form ? redactParameters(body.raw) : body.raw);
  if (body.bytes <= maxBodyBytes) return text;
  return `${text.slice(0, maxBodyBytes)}...[cut: the body has ${body.bytes} bytes; the journal keeps ${maxBodyBytes}]`;
}

/** A cookie header with the values of secret cookies replaced (by name, or known by value); the zaaid stays. */
function redactCookie(value: string, redactor: Redactor): string {
  return value
    .split(';')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return redactor.text(pair);
      return isSecretName(pair.slice(0, equals).trim()) ? `${pair.slice(0, equals + 1)}${redacted}` : redactor.text(pair);
    })
    .join(';');
}

/** The request's headers for the entry: the Authorization scheme kept and its credential replaced, values bounded. */
function keptHeaders(call: Call, redactor: Redactor): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(call.headers)) {
    const value = headerText(raw);
    if (value === undefined) continue;
    let kept: string;
    if (name === 'authorization' || name === 'proxy-authorization') {
      const space = value.trim().indexOf(' ');
      kept = space === -1 ? redacted : `${value.trim().slice(0, space)} ${redacted}`;
    } else if (name === 'cookie') kept = redactCookie(value, redactor);
    else kept = redactor.text(value);
    if (kept.length > maxHeaderLength) kept = `${kept.slice(0, maxHeaderLength)}...[cut: ${value.length} characters]`;
    headers[name] = kept;
  }
  return headers;
}

/** The secrets of the request's headers: the Authorization credential, secret cookies, values the simulator issued in any. */
function headerSecrets(call: Call, redactor: Redactor, isSecret: (value: string) => boolean): void {
  for (const name of ['authorization', 'proxy-authorization']) {
    const value = headerText(call.headers[name])?.trim();
    if (!value) continue;
    // The credential after the scheme (the whole value when there is no scheme); the header itself is kept by name.
    const space = value.indexOf(' ');
    redactor.add(space === -1 ? value : value.slice(space + 1).trim());
  }
  const cookie = headerText(call.headers.cookie);
  for (const pair of cookie?.split(';') ?? []) {
    const equals = pair.indexOf('=');
    const value = pair.slice(equals + 1).trim();
    if (equals !== -1 && (isSecretName(pair.slice(0, equals).trim()) || isSecret(value))) redactor.add(value);
  }
  // Any other header: a credential the simulator issued, put where a client should not (`Authorisation`, `X-Token`).
  for (const name in call.headers) {
    if (name === 'authorization' || name === 'proxy-authorization' || name === 'cookie') continue;
    const value = headerText(call.headers[name]);
    if (value !== undefined && value.length >= shortestIssued) issuedWords(value.slice(0, maxHeaderLength), redactor, isSecret);
  }
}

/** The query for the entry: secret parameters replaced, the rest redacted by value; a repeated one a list. */
function keptQuery(query: string | undefined, redactor: Redactor): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  if (!query) return kept;
  for (const [rawName, rawValue] of new URLSearchParams(query)) {
    const name = redactor.text(rawName);
    const value = isSecretName(rawName) ? redacted : redactor.text(rawValue);
    const earlier = kept[name];
    kept[name] = earlier === undefined ? value : [earlier, value].flat();
  }
  return kept;
}

/** The violations of an answer's `sl-violations` header (the engine's findings and the mock's own), redacted. */
function violationsOf(answer: Answer, redactor: Redactor): JournalViolation[] {
  const header = answer.headers['sl-violations'];
  if (typeof header !== 'string') return [];
  try {
    const list = JSON.parse(header) as Violation[];
    return Array.isArray(list)
      ? list.map((violation) => ({
          location: redactor.text((violation.location ?? []).join('.')),
          message: redactor.text(String(violation.message ?? '')),
        }))
      : [];
  } catch {
    return [];
  }
}

/** Whether an exchange can be read when its entry is: an API call (not the identity provider's) within the bounds. */
const readLater = (call: Call, answer: Answer): boolean =>
  !call.path.startsWith('/oauth/') && call.body.length <= maxBodyBytes && answer.body.length <= maxBodyBytes;

/** The answer's media type, lower case, without parameters (the mock writes the name `Content-Type`). */
function answerMediaType(answer: Answer): string | undefined {
  let value = answer.headers['Content-Type'];
  if (value === undefined)
    for (const name in answer.headers) if (name.length === 12 && name.toLowerCase() === 'content-type') value = answer.headers[name];
  const text = headerText(value);
  return text === undefined ? undefined : text.split(';')[0]!.trim().toLowerCase();
}

/** The secrets of a query string: its credential parameters' values, and each value the simulator issued. */
function querySecrets(query: string | undefined, redactor: Redactor, isSecret: (value: string) => boolean): void {
  if (!query) return;
  for (const value of secretParametersOf(query)) redactor.add(value);
  for (const [, value] of new URLSearchParams(query)) if (isSecret(value)) redactor.add(value);
}

/** The exchange's parts as the entry shows them, every secret the redactor knows (and each found on the way) replaced. */
function exchangeParts(call: Call, answer: Answer, redactor: Redactor, isSecret: (value: string) => boolean): LaterParts {
  const body = readBody(call.body, call.mediaType?.type);
  const answerBody = readBody(answer.body, answerMediaType(answer));
  bodySecrets(body, redactor, isSecret);
  bodySecrets(answerBody, redactor, isSecret);
  const [path, query] = splitTarget(call.url);
  return {
    path: redactor.text(path),
    query: keptQuery(query, redactor),
    headers: keptHeaders(call, redactor),
    body: keptBody(body, redactor),
    answer: keptBody(answerBody, redactor),
    violations: violationsOf(answer, redactor),
  };
}

/**
 * The parts of a later exchange, read now: redacted by the secrets found when it was recorded, and by those the
 * simulator knows now, by name and by value.
 */
export function laterParts(later: LaterExchange, isSecret: (value: string) => boolean = () => false): LaterParts {
  const recorded = new Set(later.secrets);
  return exchangeParts(later.call, later.answer, new Redactor(later.secrets), (value) => recorded.has(value) || isSecret(value));
}

/** About the bytes an entry holds of a request's headers, each value up to the bound. */
function headerBytes(call: Call): number {
  let bytes = 0;
  for (const name in call.headers) bytes += name.length + Math.min(headerText(call.headers[name])?.length ?? 0, maxHeaderLength);
  return bytes;
}

/** The most characters of a fact the simulator read from a request (its account, its client) that an entry keeps. */
const maxFactLength = 256;

/**
 * A fact read from the request (the zaaid cookie, a client_id parameter), as the entry keeps it: hidden when it is a
 * credential the simulator issued (a client can send one there; a client ID is shown, as the entry's own field), and
 * bounded.
 */
function keptFact(value: string | null, isSecret: (value: string) => boolean): string | null {
  if (value === null) return null;
  if (isSecret(value)) return redacted;
  return value.length > maxFactLength ? `${value.slice(0, maxFactLength)}...[cut: ${value.length} characters]` : value;
}

/** The parts of a later exchange until its entry is read. */
const notReadYet = (path: string): LaterParts => ({ path, query: {}, headers: {}, body: null, answer: null, violations: [] });

/** Makes the entry of one exchange. `isSecret` says whether a value is a credential the simulator issued. */
export function makeEntry(
  call: Call,
  answer: Answer,
  operation: string | null,
  facts: ExchangeFacts,
  isSecret: (value: string) => boolean = () => false,
): KeptEntry {
  const [path, query] = splitTarget(call.url);
  const redactor = new Redactor();
  headerSecrets(call, redactor, isSecret);
  querySecrets(query, redactor, isSecret);
  issuedWords(path, redactor, isSecret);
  const later = readLater(call, answer);
  // What a later exchange's body holds of the simulator's credentials can change before it is read: found now.
  if (later) bodySecrets(readBody(call.body, call.mediaType?.type), redactor, isSecret);
  // A later entry is found by its path as redacted now (the filter reads it); its parts are read when it is.
  const parts = later ? notReadYet(redactor.text(path)) : exchangeParts(call, answer, redactor, isSecret);
  // In the order a reader reads an exchange: the request, then the answer.
  const entry: KeptEntry['entry'] = {
    id: 0,
    method: call.method,
    path: parts.path,
    query: parts.query,
    operation,
    account: keptFact(facts.account, isSecret),
    client_id: keptFact(facts.client_id, isSecret),
    headers: parts.headers,
    body: parts.body,
    status: answer.status,
    answer: parts.answer,
    violations: parts.violations,
    fault: facts.fault,
    near_miss: null,
  };
  const bodyBytes = Math.min(call.body.length, maxBodyBytes) + Math.min(answer.body.length, maxBodyBytes);
  const bytes = 256 + headerBytes(call) + path.length + (query?.length ?? 0) + bodyBytes + 2 * maxFactLength;
  const kept: KeptEntry = { entry, at: facts.at, bytes };
  if (later) kept.later = { call, answer, secrets: redactor.values() };
  return kept;
}
