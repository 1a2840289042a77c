// The mock's request journal: every exchange it handles (the API, the identity provider, the refused ones; not the
// test API's own calls), newest last, in a ring bounded in entries (default 1,000; 0 turns it off) and in bytes
// (bodies kept up to 64 KiB each), so that no client can make the mock keep unbounded memory. A test asks it what
// its code sent (`GET /__mock/requests`, `control.requests()`), filtered; entries that left the ring are counted.

import { type OpenApiDocument, perDocument } from '../description/openapi.js';
import { routesOf } from '../description/routes.js';
import type { Answer, Call } from '../http/exchange.js';
import { isWhole, refuseUnknownKeys } from '../options.js';
import { type ExchangeFacts, type KeptEntry, makeEntry, readEntry, shownPath } from './entry.js';
import { nearMiss, nearMissRoutes } from './near-miss.js';
import type { JournalEntry, JournalFilter, JournalPage } from './types.js';

export { type ExchangeFacts, shortestIssued } from './entry.js';
export type { JournalEntry, JournalFilter, JournalPage, JournalViolation, NearMiss } from './types.js';

/** Entries the journal keeps by default. */
export const defaultJournalSize = 1000;
/** The most bytes the entries hold together (an estimate: bodies, headers, path), whatever their number. */
export const defaultJournalBytes = 32 * 1024 * 1024;

export interface JournalOptions {
  /** Entries kept (the newest); 0 keeps none. Default 1,000. */
  size?: number | undefined;
  /** Bytes the entries may hold together. Default 32 MiB. */
  maxBytes?: number | undefined;
  /** Writes the time of an entry (epoch ms) in the service's form, when it is read. */
  formatTime: (time: number) => string;
  /** Whether a value is a credential the mock issued (it is then redacted wherever it appears). */
  isSecret?: ((value: string) => boolean) | undefined;
}

export interface Journal {
  /** Entries kept at most; 0 when the journal is off. */
  readonly size: number;
  /**
   * Records one exchange: the call, its answer, and the facts the request does not say (the operation it reached, the
   * simulated time, the account, the client, a fault, the behaviours played).
   */
  record(call: Call, answer: Answer, facts: ExchangeFacts): void;
  /** The entries a filter keeps, oldest first. Throws a TypeError or RangeError naming a wrong filter field. */
  requests(filter?: JournalFilter): JournalPage;
  /** One entry by its id, or undefined when it has left the ring (or never was). */
  request(id: number): JournalEntry | undefined;
  /** Empties the ring; ids go on growing. */
  clear(): void;
  /** How many entries it keeps, and the bytes they hold (what its bound counts). */
  held(): { entries: number; bytes: number };
}

/** Checks the journal's size option: a whole number >= 0 (0 turns it off). */
export function journalSize(value: unknown): number {
  if (value === undefined) return defaultJournalSize;
  if (!isWhole(value, 0)) throw new TypeError(`journalSize must be a whole number >= 0 (0 turns the journal off), not ${String(value)}`);
  return value;
}

/** A filter checked once: each field of the right kind, else a TypeError or RangeError naming it. */
interface CheckedFilter {
  operation?: string;
  method?: string;
  path?: string;
  status?: { from: number; to: number };
  account?: string;
  since: number;
  limit: number;
}

const filterFields = ['operation', 'method', 'path', 'status', 'account', 'since', 'limit'];

/** Whether a text is 1 to `max` digits, read in one pass. */
export const isDigits = (text: string, max: number): boolean =>
  text.length > 0 && text.length <= max && [...text].every((char) => char >= '0' && char <= '9');

/** A value a filter was given, as its error shows it: JSON, cut (it comes from a request). */
const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 80) ?? String(value);

function wholeNumber(name: string, value: unknown, min: number): number {
  const number = typeof value === 'string' && isDigits(value, 15) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < min)
    throw new RangeError(`${name} must be a whole number >= ${min}, not ${shown(value)}`);
  return number;
}

function statusRange(value: unknown): { from: number; to: number } {
  if (typeof value === 'string' && value.length === 3 && '12345'.includes(value[0]!) && value.slice(1).toLowerCase() === 'xx') {
    const from = Number(value[0]) * 100;
    return { from, to: from + 99 };
  }
  const status = typeof value === 'string' && isDigits(value, 3) ? Number(value) : value;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    throw new RangeError(`status must be a status from 100 to 599 (404) or a class of them (4xx), not ${shown(value)}`);
  return { from: status, to: status };
}

function text(name: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max)
    throw new TypeError(`${name} must be a non-empty string of at most ${max} characters, not ${shown(value)}`);
  return value;
}

/** Checks a filter against the operations of the description. */
export function checkFilter(filter: unknown, operations: readonly string[]): CheckedFilter {
  if (filter === undefined) return { since: 0, limit: Number.MAX_SAFE_INTEGER };
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter))
    throw new TypeError('the filter must be an object: { operation, method, path, status, account, since, limit }');
  const given = filter as Record<string, unknown>;
  refuseUnknownKeys(given, filterFields, 'the filter of the journal');
  const checked: CheckedFilter = {
    since: given.since === undefined ? 0 : wholeNumber('since', given.since, 0),
    limit: given.limit === undefined ? Number.MAX_SAFE_INTEGER : wholeNumber('limit', given.limit, 1),
  };
  if (given.operation !== undefined) {
    const operation = text('operation', given.operation, 100);
    if (!operations.includes(operation))
      throw new RangeError(
        `operation must be an operationId of the description (${operations.join(', ')}), not ${JSON.stringify(operation)}`,
      );
    checked.operation = operation;
  }
  if (given.method !== undefined) {
    const method = text('method', given.method, 20);
    if (![...method].every((char) => (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z')))
      throw new TypeError(`method must be an HTTP method (GET, POST...), not ${JSON.stringify(method)}`);
    checked.method = method.toUpperCase();
  }
  if (given.path !== undefined) {
    checked.path = text('path', given.path, 2048);
    if (!checked.path.startsWith('/')) throw new TypeError(`path must start with / (/api/monitors), not ${shown(checked.path)}`);
  }
  if (given.status !== undefined) checked.status = statusRange(given.status);
  if (given.account !== undefined) checked.account = text('account', given.account, 100);
  return checked;
}

const matches = (entry: KeptEntry, filter: CheckedFilter, isSecret: ((value: string) => boolean) | undefined): boolean =>
  entry.id > filter.since &&
  (filter.operation === undefined || entry.operation === filter.operation) &&
  (filter.method === undefined || entry.method.toUpperCase() === filter.method) &&
  (filter.status === undefined || (entry.status >= filter.status.from && entry.status <= filter.status.to)) &&
  (filter.account === undefined || entry.account === filter.account) &&
  (filter.path === undefined || shownPath(entry, isSecret) === filter.path);

/** What every journal of a document reads of its routes: the near misses and the filter's operation ids. */
const journalRoutes = perDocument((document) => {
  const routes = routesOf(document);
  return {
    missRoutes: nearMissRoutes(routes),
    operations: routes.flatMap((route) => [...route.operations.values()].map((operation) => operation.operationId)),
  };
});

/** The journal of a (mock) document, whose routes give the near misses and whose operations the filter checks. */
export function createJournal(document: OpenApiDocument, options: JournalOptions): Journal {
  const size = journalSize(options.size);
  const maxBytes = options.maxBytes ?? defaultJournalBytes;
  const { missRoutes, operations } = journalRoutes(document);
  // A ring: `entries` holds the newest, oldest first; `head` is the index of the oldest, so that dropping one is O(1).
  let entries: KeptEntry[] = [];
  let head = 0;
  let bytes = 0;
  let dropped = 0;
  let lastId = 0;
  const dropOldest = () => {
    bytes -= entries[head]!.bytes;
    entries[head] = undefined as never;
    head++;
    dropped++;
    // Compact now and then, so that the array does not grow with the dropped ones.
    if (head > 1024 && head * 2 > entries.length) {
      entries = entries.slice(head);
      head = 0;
    }
  };
  const live = () => (head === 0 ? entries : entries.slice(head));
  /** An entry as it is read: a copy, its time written out, the parts of an API call read and redacted now. */
  const readOut = (kept: KeptEntry): JournalEntry => ({
    id: kept.id,
    at: options.formatTime(kept.at),
    ...readEntry(kept, options.isSecret),
    near_miss: kept.unmatched ? nearMiss(missRoutes, kept.unmatched.method, kept.unmatched.segments) : null,
  });
  return {
    size,
    record(call, answer, facts) {
      if (size === 0) return;
      const kept = makeEntry(call, answer, facts, options.isSecret);
      kept.id = ++lastId;
      entries.push(kept);
      bytes += kept.bytes;
      while (entries.length - head > size || (bytes > maxBytes && entries.length - head > 1)) dropOldest();
    },
    requests(filter) {
      const checked = checkFilter(filter, operations);
      const found: JournalEntry[] = [];
      for (const kept of live()) {
        if (found.length >= checked.limit) break;
        if (matches(kept, checked, options.isSecret)) found.push(readOut(kept));
      }
      return { requests: found, dropped };
    },
    request(id) {
      const first = entries[head]?.id;
      if (first === undefined || !Number.isSafeInteger(id) || id < first || id > lastId) return undefined;
      // Ids are consecutive in the ring: the entry of an id is at its distance from the oldest.
      const kept = entries[head + (id - first)];
      return kept ? readOut(kept) : undefined;
    },
    clear() {
      entries = [];
      head = 0;
      bytes = 0;
      dropped = 0;
    },
    held: () => ({ entries: entries.length - head, bytes }),
  };
}
