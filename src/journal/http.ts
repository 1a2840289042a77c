// The journal over HTTP, a part of the mock's test API:
//
//   GET    /__mock/requests?operation=&method=&path=&status=&account=&since=&limit=  -> 200 {"requests": [...], "dropped": N}
//   GET    /__mock/requests/{id}                                                      -> 200 the entry, 404 once it left the ring
//   DELETE /__mock/requests                                                           -> 204
//
// A filter value that is not valid, a parameter given twice or one the journal does not know is a 400 naming it.
import { type Answer, type Call, errorAnswer, quote, splitTarget } from '../http/exchange.js';
import { isDigits, type Journal } from './index.js';
import type { JournalFilter } from './types.js';

export const journalPath = '/__mock/requests';

/** The journal's endpoints and the methods of each. */
export const journalEndpoints: Readonly<Record<string, readonly string[]>> = {
  [journalPath]: ['GET', 'DELETE'],
  [`${journalPath}/{id}`]: ['GET'],
};

// Like the rest of the test API, no CORS headers: a page of another origin must not read what a test's code sent.
const json = (status: number, value: unknown): Answer => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  body: Buffer.from(JSON.stringify(value)),
});

/** Whether a path (without a trailing slash) is the journal's. */
export const isJournalPath = (path: string): boolean => path === journalPath || path.startsWith(`${journalPath}/`);

/** The filter of a query string: each parameter once; an unknown or repeated one throws a TypeError naming it. */
function filterOf(query: string | undefined): JournalFilter {
  const filter: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(query ?? '')) {
    if (Object.hasOwn(filter, name)) throw new TypeError(`the query parameter ${quote(name, 40)} is given twice`);
    filter[name] = value;
  }
  return filter;
}

/** The answer of the journal's endpoints to a call of the test API on `path` (its trailing slashes removed). */
export function journalAnswer(journal: Journal, call: Call, path: string): Answer {
  const allowed = journalEndpoints[path === journalPath ? journalPath : `${journalPath}/{id}`]!;
  if (call.method === 'OPTIONS') return { status: 204, headers: { Allow: allowed.join(', ') }, body: Buffer.alloc(0) };
  if (!allowed.includes(call.method))
    return errorAnswer(405, `${call.method} is not supported for ${quote(path, 80)}; it supports ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  const [, query] = splitTarget(call.url);
  if (path !== journalPath) {
    const id = path.slice(journalPath.length + 1);
    if (!isDigits(id, 15)) return errorAnswer(400, `the id of a journal entry is a whole number, not ${quote(id, 40)}`);
    if (query) return errorAnswer(400, `${quote(path, 80)} takes no query parameters`);
    const entry = journal.request(Number(id));
    return entry ? json(200, entry) : errorAnswer(404, `the journal holds no entry ${id} (it keeps the newest ${journal.size})`);
  }
  if (call.method === 'DELETE') {
    if (query) return errorAnswer(400, `DELETE ${journalPath} takes no query parameters`);
    journal.clear();
    return { status: 204, headers: {}, body: Buffer.alloc(0) };
  }
  try {
    return json(200, journal.requests(filterOf(query)));
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) return errorAnswer(400, error.message);
    throw error;
  }
}
