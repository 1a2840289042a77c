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
// The API's answers (all but the identity provider's) hold account data, not credentials: such an answer is kept as
// its bytes with the secrets its request carried, and read, redacted by name and by value, only when the entry is
// read (`answerOf`). Recording stays cheap, and answers nobody reads are never parsed.
import type { Answer, Call, Violation } from '../http/exchange.js';
import { headerText, isJson, splitTarget } from '../http/exchange.js';
import { Redactor, redacted, redactParameters, secretParameters, secretParametersOf } from '../output/redact.js';
import type { JournalEntry, JournalViolation } from './types.js';

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
  /** The answer of an API call, redacted only when the entry is read (see answerOf). */
  answerLater?: LaterAnswer;
}

/** An answer kept as it was sent, with what its redaction needs when the entry is read. */
export interface LaterAnswer {
  /** The answer as the mock gave it (its headers and body are kept, not copied: nothing changes them once sent). */
  answer: Answer;
  /** The secrets the exchange's request carried (found by name, or issued by the simulator). */
  secrets: string[];
}

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
  return read;
}

/** Adds the secrets of a body: its secret attributes' or parameters' values, and each string the simulator issued. */
function bodySecrets(body: ReadBody | undefined, redactor: Redactor, isSecret: (value: string) => boolean): void {
  if (!body) return;
  if (body.form) {
    for (const value of secretParametersOf(body.raw)) redactor.add(value);
    for (const [, value] of new URLSearchParams(body.raw)) if (isSecret(value)) redactor.add(value);
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
function keptHeaders(call: Call, redactor: Redactor): { headers: Record<string, string>; bytes: number } {
  const headers: Record<string, string> = {};
  let bytes = 0;
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
    bytes += name.length + kept.length;
  }
  return { headers, bytes };
}

/** The secrets of the request's headers: the Authorization credential, secret cookies, values the simulator issued. */
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

/** Whether an answer can be read when its entry is: an API answer (not the identity provider's) within the bound. */
const answerWaits = (call: Call, answer: Answer): boolean => !call.path.startsWith('/oauth/') && answer.body.length <= maxBodyBytes;

/** A kept answer as the entry shows it: redacted by name, by value and for what the simulator issued. */
export function answerOf(later: LaterAnswer, isSecret: (value: string) => boolean = () => false): unknown {
  const redactor = new Redactor(later.secrets);
  const body = readBody(later.answer.body, answerMediaType(later.answer));
  bodySecrets(body, redactor, isSecret);
  return keptBody(body, redactor);
}

/** The answer's media type, lower case, without parameters (the mock writes the name `Content-Type`). */
function answerMediaType(answer: Answer): string | undefined {
  let value = answer.headers['Content-Type'];
  if (value === undefined)
    for (const name in answer.headers) if (name.length === 12 && name.toLowerCase() === 'content-type') value = answer.headers[name];
  const text = headerText(value);
  return text === undefined ? undefined : text.split(';')[0]!.trim().toLowerCase();
}

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
  if (query) {
    for (const value of secretParametersOf(query)) redactor.add(value);
    for (const [, value] of new URLSearchParams(query)) if (isSecret(value)) redactor.add(value);
  }
  const body = readBody(call.body, call.mediaType?.type);
  const waiting = answerWaits(call, answer);
  const answerBody = waiting ? undefined : readBody(answer.body, answerMediaType(answer));
  bodySecrets(body, redactor, isSecret);
  bodySecrets(answerBody, redactor, isSecret);
  const { headers, bytes: headerBytes } = keptHeaders(call, redactor);
  const keptPath = redactor.text(path);
  const entry: KeptEntry['entry'] = {
    id: 0,
    method: call.method,
    path: keptPath,
    query: keptQuery(query, redactor),
    operation,
    account: facts.account,
    client_id: facts.client_id,
    headers,
    body: keptBody(body, redactor),
    status: answer.status,
    answer: waiting ? null : keptBody(answerBody, redactor),
    violations: violationsOf(answer, redactor),
    fault: facts.fault,
    near_miss: null,
  };
  const bodyBytes = Math.min(body?.bytes ?? 0, maxBodyBytes) + Math.min(answer.body.length, maxBodyBytes);
  const kept: KeptEntry = { entry, at: facts.at, bytes: 256 + headerBytes + keptPath.length + (query?.length ?? 0) + bodyBytes };
  if (waiting) kept.answerLater = { answer, secrets: redactor.values() };
  return kept;
}
