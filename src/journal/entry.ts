// One exchange as the journal keeps it, and as it is read: bounded in bytes, and without a secret.
//
// Recording keeps the exchange's text as it came, bounded (a body within 64 KiB, a header value within 8 KiB) and
// counted by what is kept, with the secrets found in the request: by name, and each word the simulator holds as a
// credential (it may forget one before the entry is read). A text over its bound is redacted whole when recorded,
// then cut and marked, so that no secret survives half cut. Reading redacts the rest with the package's one
// redaction (src/output/redact.ts): by name, by value (each secret found, in every form), and each word the simulator
// holds; a JSON body is shown as JSON when it parses and is shallow enough. Both cost time linear in the exchange.
//
// An exchange that carries more secrets than one redaction holds (a hostile body: thousands of values under
// credential names) keeps none of its text: its entry says so, and shows the method, the operation, the status, the
// facts and the names of its headers.
import type { Answer, Call, Violation } from '../http/exchange.js';
import { bodyText, headerText, isForm, isJson, splitTarget } from '../http/exchange.js';
import { tooDeepAt } from '../http/json-depth.js';
import {
  authorizationCredential,
  eachWord,
  exchangeLimit,
  hiddenWhole,
  isSecretName,
  Redactor,
  redacted,
  redactHeader,
  redactJson,
  redactParameters,
  redactPath,
  secretHint,
  secretParametersOf,
  secretsOfJson,
} from '../output/redact.js';
import type { JournalEntry, JournalViolation } from './types.js';

/** Values shorter than this are never credentials the simulator issued (its tokens and secrets are long). */
export const shortestIssued = 16;

/** The most bytes of a request or answer body an entry keeps. */
export const maxBodyBytes = 64 * 1024;
/** The most characters of one header value an entry keeps (an in-process call has no header limit of its own). */
export const maxHeaderLength = 8 * 1024;
/** The deepest JSON an entry shows as JSON; a deeper body is shown as (redacted) text. */
const maxDepth = 64;
/** The most characters of a fact the simulator read from a request (its account) that an entry keeps. */
const maxFactLength = 256;

/** The facts of an exchange that the mock knows and a request does not say. */
export interface ExchangeFacts {
  /** The simulated time of the call, epoch ms (written in the service's form when the entry is read). */
  at: number;
  /** The operationId the call reached, or null when none matched. */
  operation: string | null;
  account: string | null;
  client_id: string | null;
  fault: JournalEntry['fault'];
  /** The behaviours the simulator played (names of src/simulator/behaviours.ts). */
  behaviours: readonly string[];
}

/** A body as an entry keeps it: within the bound, as sent; past it, redacted when recorded, cut and marked. */
interface KeptBody {
  bytes: Buffer;
  mediaType: string | undefined;
  cut: boolean;
}

/** An entry as the ring keeps it: the exchange's text, bounded, read and redacted when the entry is read. */
export interface KeptEntry {
  /** Set by the journal when it keeps the entry. */
  id: number;
  /** The simulated time, epoch ms (written out when read). */
  at: number;
  /** What the entry holds, counted as it is kept. */
  bytes: number;
  method: string;
  /** The request target as sent (path and query). */
  target: string;
  /** The path as an entry shows it (made when first needed: a filter by path, or a read). */
  shownPath?: string;
  operation: string | null;
  /** The facts, as shown (bounded, and without a secret). */
  account: string | null;
  clientId: string | null;
  /** Header values as sent, each within maxHeaderLength (a longer one redacted, cut and marked). */
  headers: Record<string, string>;
  body: KeptBody | undefined;
  status: number;
  answer: KeptBody | undefined;
  /** The answer's `sl-violations` header. */
  violations: string | undefined;
  fault: JournalEntry['fault'];
  behaviours: readonly string[];
  /** The secrets found by name in the request, at most exchangeLimit. */
  secrets: string[];
  /** The words the simulator held as credentials when the exchange was recorded. */
  issued: string[];
  /** The request carried more secrets than a redaction holds: the entry keeps none of its text. */
  flooded: boolean;
  /** The method and path segments of a call that matched no operation: its near miss is searched for when read. */
  unmatched?: { method: string; segments: readonly string[] };
}

/** Whether a body is JSON, or meant as JSON: a JSON media type, or (not a form) a text that opens an object or array. */
function isJsonish(text: string, mediaType: string | undefined): boolean {
  if (mediaType !== undefined && isJson(mediaType)) return true;
  if (mediaType !== undefined && isForm(mediaType)) return false;
  let index = 0;
  while (index < text.length && ' \t\r\n'.includes(text[index]!)) index++;
  return text[index] === '{' || text[index] === '[';
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * Adds the secrets a body holds by name: a JSON text's values under credential names (at any depth, even when it
 * does not parse), a form's credential parameters (a token request sent as text/plain, or without Content-Type,
 * is read as a form too). Stops once the redactor is full.
 */
function bodySecrets(text: string, mediaType: string | undefined, redactor: Redactor): void {
  const add = (value: string) => redactor.add(value);
  const jsonish = isJsonish(text, mediaType);
  secretsOfJson(text, add);
  if (redactor.full || (jsonish && (!text.includes('=') || parses(text)))) return;
  for (const value of secretParametersOf(text)) if (!add(value)) return;
}

/** A body's text with every secret replaced: a JSON text by name and by value; a form (or any text) as a form too. */
const redactBody = (text: string, mediaType: string | undefined, redactor: Redactor): string =>
  redactJson(isJsonish(text, mediaType) ? text : redactParameters(text), redactor);

/** A copy of a text that shares nothing with a larger one (a slice of a string can keep the whole alive). */
const flat = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** A body as the entry keeps it: as sent within maxBodyBytes; else redacted whole, then cut and marked. */
function keptBody(bytes: Buffer, mediaType: string | undefined, redactor: Redactor, text?: string): KeptBody | undefined {
  if (bytes.length === 0) return undefined;
  if (bytes.length <= maxBodyBytes) return { bytes, mediaType, cut: false };
  const shown = redactBody(text ?? bytes.toString('utf8'), mediaType, redactor);
  const mark = `...[cut: the body has ${bytes.length} bytes; the journal keeps ${maxBodyBytes}]`;
  return { bytes: Buffer.concat([Buffer.from(shown).subarray(0, maxBodyBytes), Buffer.from(mark)]), mediaType, cut: true };
}

/** The answer's media type, lower case, without parameters (the mock writes the name `Content-Type`). */
function answerMediaType(answer: Answer): string | undefined {
  let value = answer.headers['Content-Type'];
  if (value === undefined)
    for (const name in answer.headers) if (name.length === 12 && name.toLowerCase() === 'content-type') value = answer.headers[name];
  const text = headerText(value);
  return text === undefined ? undefined : text.split(';')[0]!.trim().toLowerCase();
}

/**
 * Adds the secrets of the request's head: the Authorization credential, the values of cookies of a credential's
 * name, the query's credential parameters.
 */
function headSecrets(call: Call, redactor: Redactor): void {
  for (const name of ['authorization', 'proxy-authorization']) {
    const value = headerText(call.headers[name]);
    if (value?.trim()) redactor.add(authorizationCredential(value));
  }
  for (const pair of headerText(call.headers.cookie)?.split(';') ?? []) {
    const equals = pair.indexOf('=');
    if (equals !== -1 && isSecretName(pair.slice(0, equals).trim())) redactor.add(pair.slice(equals + 1).trim());
  }
  const [, query] = splitTarget(call.url);
  if (query) for (const value of secretParametersOf(query)) redactor.add(value);
}

/**
 * The words of the request that the simulator holds as credentials, wherever a client put them: any header, the
 * path (decoded), the query (decoded), the body (as sent). Kept with the entry: the simulator may forget them before
 * it is read.
 */
function issuedWords(call: Call, body: string, isSecret: (value: string) => boolean): string[] {
  const found = new Set<string>();
  const look = (text: string) =>
    eachWord(text, shortestIssued, (word) => {
      if (isSecret(word)) found.add(word);
    });
  for (const name in call.headers) look(headerText(call.headers[name]) ?? '');
  for (const segment of call.segments) look(segment);
  const [, query] = splitTarget(call.url);
  if (query) for (const [name, value] of new URLSearchParams(query)) look(`${name} ${value}`);
  look(body);
  return [...found];
}

/** The request's headers as kept: each value within maxHeaderLength, a longer one redacted whole, then cut. */
function keptHeaders(call: Call, redactor: Redactor): Record<string, string> {
  // Most calls' headers are kept as they are: texts within the bound.
  let asThey = true;
  for (const name in call.headers) {
    const value = call.headers[name];
    if (typeof value !== 'string' || value.length > maxHeaderLength) asThey = false;
  }
  if (asThey) return call.headers as Record<string, string>;
  const headers: [string, string][] = [];
  for (const [name, raw] of Object.entries(call.headers)) {
    const value = headerText(raw);
    if (value === undefined) continue;
    const kept =
      value.length <= maxHeaderLength
        ? value
        : flat(`${redactHeader(name, value, redactor).slice(0, maxHeaderLength)}...[cut: ${value.length} characters]`);
    headers.push([name, kept]);
  }
  return Object.fromEntries(headers);
}

/** A fact read from the request (the zaaid cookie), bounded, hidden when it is a credential the simulator issued. */
function keptFact(value: string | null, isSecret: (value: string) => boolean): string | null {
  if (value === null) return null;
  if (isSecret(value)) return redacted;
  return value.length > maxFactLength ? flat(`${value.slice(0, maxFactLength)}...[cut: ${value.length} characters]`) : value;
}

/** What an entry holds, as kept: its texts, its secrets, and a share for the objects that hold them. */
function keptBytes(entry: KeptEntry): number {
  let bytes = 512 + entry.target.length + (entry.violations?.length ?? 0) + 8 * entry.behaviours.length;
  for (const name in entry.headers) bytes += 48 + name.length + entry.headers[name]!.length;
  // A small Buffer can be a view of a shared pool of 8 KiB: the pool is what it keeps.
  bytes += (entry.body?.bytes.buffer.byteLength ?? 0) + (entry.answer?.bytes.buffer.byteLength ?? 0);
  for (const value of [...entry.secrets, ...entry.issued, entry.account ?? '', entry.clientId ?? '']) bytes += 16 + value.length;
  for (const segment of entry.unmatched?.segments ?? []) bytes += 16 + segment.length;
  return bytes;
}

/**
 * Makes the entry of one exchange. `isSecret` says whether a value is a credential the simulator holds. `unmatched`
 * is given when no operation matched the call.
 */
export function makeEntry(call: Call, answer: Answer, facts: ExchangeFacts, isSecret: (value: string) => boolean = () => false): KeptEntry {
  const { operation } = facts;
  const redactor = new Redactor([], { limit: exchangeLimit, words: { shortest: shortestIssued, isSecret } });
  const body = bodyText(call);
  headSecrets(call, redactor);
  if (body !== '') bodySecrets(body, call.mediaType?.type, redactor);
  const flooded = redactor.full;
  const violations = headerText(answer.headers['sl-violations']);
  const entry: KeptEntry = {
    id: 0,
    at: facts.at,
    bytes: 0,
    method: call.method,
    target: flooded ? '' : call.url,
    operation,
    account: keptFact(facts.account, isSecret),
    clientId: facts.client_id === null ? null : secretHint(facts.client_id),
    headers: flooded ? Object.fromEntries(Object.keys(call.headers).map((name) => [name, ''])) : keptHeaders(call, redactor),
    body: flooded ? undefined : keptBody(call.body, call.mediaType?.type, redactor, body),
    status: answer.status,
    answer: flooded ? undefined : keptBody(answer.body, answerMediaType(answer), redactor),
    violations: flooded ? undefined : violations,
    fault: facts.fault,
    behaviours: facts.behaviours,
    secrets: flooded ? [] : redactor.values(),
    issued: flooded ? [] : issuedWords(call, body, isSecret),
    flooded,
  };
  if (flooded) entry.shownPath = hiddenWhole(exchangeLimit);
  if (operation === null) entry.unmatched = { method: call.method, segments: flooded ? [] : call.segments };
  entry.bytes = keptBytes(entry);
  return entry;
}

/** The redaction of an entry when it is read: the secrets found when it was recorded, and those the simulator holds now. */
function redactorOf(entry: KeptEntry, isSecret: (value: string) => boolean): Redactor {
  const issued = new Set(entry.issued);
  return new Redactor(entry.secrets, { words: { shortest: shortestIssued, isSecret: (word) => issued.has(word) || isSecret(word) } });
}

/** The path of an entry as it is shown (and as a filter by path compares it). */
export function shownPath(entry: KeptEntry, isSecret: (value: string) => boolean = () => false): string {
  entry.shownPath ??= redactPath(splitTarget(entry.target)[0], redactorOf(entry, isSecret));
  return entry.shownPath;
}

/** The query for the entry: secret parameters replaced, the rest redacted by value; a repeated one a list. */
function shownQuery(query: string | undefined, redactor: Redactor): Record<string, string | string[]> {
  // A Map, then an object of its entries: a parameter named __proto__ stays a parameter.
  const shown = new Map<string, string | string[]>();
  for (const [rawName, rawValue] of new URLSearchParams(query ?? '')) {
    const name = redactor.text(rawName);
    const value = isSecretName(rawName) ? redacted : redactor.text(rawValue);
    const earlier = shown.get(name);
    shown.set(name, earlier === undefined ? value : [earlier, value].flat());
  }
  return Object.fromEntries(shown);
}

/** A body as the entry shows it: JSON when it parses as sent (and is shallow enough), else its redacted text. */
function shownBody(body: KeptBody | undefined, redactor: Redactor): unknown {
  if (!body) return null;
  const text = body.bytes.toString('utf8');
  if (body.cut) return text;
  const shown = redactBody(text, body.mediaType, redactor);
  if (!isJsonish(text, body.mediaType) || !parses(text)) return shown;
  try {
    const value: unknown = JSON.parse(shown);
    return tooDeepAt(value, maxDepth) === undefined ? value : shown;
  } catch {
    return shown;
  }
}

/** The violations of an answer's `sl-violations` header (the engine's findings and the mock's own), redacted. */
function shownViolations(header: string | undefined, redactor: Redactor): JournalViolation[] {
  if (header === undefined) return [];
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

/** An entry as it is read (without its id and near miss, the journal's to add): every part redacted now. */
export function readEntry(
  entry: KeptEntry,
  isSecret: (value: string) => boolean = () => false,
): Omit<JournalEntry, 'id' | 'at' | 'near_miss'> {
  const facts = { operation: entry.operation, account: entry.account, client_id: entry.clientId };
  if (entry.flooded) {
    const hidden = hiddenWhole(exchangeLimit);
    const headers = Object.fromEntries(Object.keys(entry.headers).map((name) => [name, hidden]));
    return {
      method: entry.method,
      path: hidden,
      query: {},
      ...facts,
      headers,
      body: hidden,
      status: entry.status,
      answer: hidden,
      violations: [],
      fault: entry.fault,
      behaviours: [...entry.behaviours],
    };
  }
  const redactor = redactorOf(entry, isSecret);
  const headers = Object.fromEntries(Object.entries(entry.headers).map(([name, value]) => [name, redactHeader(name, value, redactor)]));
  return {
    method: entry.method,
    path: shownPath(entry, isSecret),
    query: shownQuery(splitTarget(entry.target)[1], redactor),
    ...facts,
    headers,
    body: shownBody(entry.body, redactor),
    status: entry.status,
    answer: shownBody(entry.answer, redactor),
    violations: shownViolations(entry.violations, redactor),
    fault: entry.fault,
    behaviours: [...entry.behaviours],
  };
}
