// The simulator's test API over HTTP, one for every language: the controls of control.ts (`mock.control`) under a
// reserved prefix beside `/api` and `/oauth`, JSON in and out:
//
//   POST /__mock/clients       -> 201 {"client_id", "client_secret"}
//   POST /__mock/grant-codes   {"client_id", "scope": "Service.Admin.Read,...", "validity_minutes": 3..10} -> 201 {"code"}
//   POST /__mock/clock         {"advance_ms": N} -> 200 {"now": "2026-11-21T10:00:00+0000"}   (GET: the time)
//   POST /__mock/faults        {"operation", "status", "retry_after_s", "delay_ms", "count"} -> 201 (the script)
//                              {"seed", "rate", "statuses", "latency_ms"} -> 201 (random faults)
//   GET  /__mock/state         -> 200 (accounts with their monitors and groups; token counts, never token values)
//   PUT  /__mock/state         a seed (or what GET gave) -> 200 the state; 400 naming each JSON pointer and fault
//   GET  /__mock/requests      ?operation=&method=&path=&status=&account=&since=&limit= -> 200 {"requests", "dropped"}
//   GET  /__mock/requests/{id} -> 200 one entry;  DELETE /__mock/requests -> 204   (src/journal/http.ts)
//   GET  /__mock/coverage      -> 200 the coverage report;  DELETE /__mock/coverage -> 204   (src/coverage/http.ts)
//   POST /__mock/reset         -> 204

import { coverageAnswer, coverageEndpoints, coveragePath } from '../coverage/http.js';
import type { Coverage } from '../coverage/index.js';
import { isRecord } from '../description/openapi.js';
import { type Answer, type Call, errorAnswer, quote } from '../http/exchange.js';
import { notJsonBody } from '../http/json-fault.js';
import { isJournalPath, journalAnswer, journalEndpoints } from '../journal/http.js';
import type { Journal } from '../journal/index.js';
import { refuseUnknownKeys } from '../options.js';
import { SeedError } from './seed.js';
import type { FaultScript, GrantCodeRequest, MockControl, RandomFaults } from './types.js';

export const controlPrefix = '/__mock';

/** Whether a path is the test API's. */
export const isControlPath = (path: string): boolean => path === controlPrefix || path.startsWith(`${controlPrefix}/`);

/** A JSON answer of the test API. */
export const jsonAnswer = (status: number, value: unknown): Answer => ({
  status,
  headers: { 'Content-Type': 'application/json' },
  body: Buffer.from(JSON.stringify(value)),
});

type Handler = (control: MockControl, body: Record<string, unknown>) => Answer;

/** A handler of an endpoint that takes no body keys: `{}` or nothing. */
const takesNothing =
  (what: string, handle: (control: MockControl) => Answer): Handler =>
  (control, body) => {
    refuseUnknownKeys(body, [], what);
    return handle(control);
  };

const endpoints: Record<string, Record<string, Handler>> = {
  '/__mock/clients': { POST: takesNothing('POST /__mock/clients', (control) => jsonAnswer(201, control.registerClient())) },
  '/__mock/grant-codes': { POST: (control, body) => jsonAnswer(201, control.grantCode(body as unknown as GrantCodeRequest)) },
  '/__mock/clock': {
    GET: takesNothing('GET /__mock/clock', (control) => jsonAnswer(200, { now: control.state().now })),
    POST: (control, body) => {
      refuseUnknownKeys(body, ['advance_ms'], 'POST /__mock/clock');
      if (!('advance_ms' in body)) throw new TypeError('the body must be {"advance_ms": N}, N whole milliseconds >= 0');
      return jsonAnswer(200, control.advanceClock(body.advance_ms as number));
    },
  },
  '/__mock/faults': {
    POST: (control, body) => {
      if ('seed' in body) return jsonAnswer(201, control.randomFaults(body as unknown as RandomFaults));
      return jsonAnswer(201, control.fault(body as unknown as FaultScript));
    },
  },
  '/__mock/state': {
    GET: takesNothing('GET /__mock/state', (control) => jsonAnswer(200, control.state())),
    PUT: (control, body) => jsonAnswer(200, control.setState(body)),
  },
  '/__mock/reset': {
    POST: takesNothing('POST /__mock/reset', (control) => {
      control.reset();
      return { status: 204, headers: {}, body: Buffer.alloc(0) };
    }),
  },
};

/** Every endpoint of the test API with its methods (`GET, PUT /__mock/state`): its own, then the journal's and the coverage's. */
export const testApiEndpoints: readonly string[] = [
  ...Object.entries(endpoints).map(([path, methods]) => `${Object.keys(methods).join(', ')} ${path}`),
  ...Object.entries({ ...journalEndpoints, ...coverageEndpoints }).map(([path, methods]) => `${methods.join(', ')} ${path}`),
];

/** The rooms of the test API that keep their own record of the exchanges: the journal, and the coverage (when counted). */
export interface Records {
  journal: Journal;
  coverage: Coverage | undefined;
}

/**
 * The test API's answers carry no CORS headers: a page of another origin must not read them (the mock's own
 * checks refuse its requests too, see src/mock/test-api-access.ts).
 */
export function withoutCors(answer: Answer): Answer {
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !name.toLowerCase().startsWith('access-control-')));
  return { ...answer, headers };
}

const refused = (status: number, detail: string) => ({ refused: errorAnswer(status, detail) });

/** The body of a test API call: JSON (415 for another media type), an object, or `{}` when there is none. */
export function readBody(call: Call): { body: Record<string, unknown> } | { refused: Answer } {
  if (call.body.length === 0) return { body: {} };
  const type = call.mediaType?.type;
  if (type !== 'application/json')
    return refused(415, `the test API takes JSON bodies: send Content-Type: application/json (not ${quote(type ?? '(none)', 60)})`);
  const text = call.body.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refused(400, notJsonBody(text));
  }
  return isRecord(body) ? { body } : refused(400, 'the body must be a JSON object');
}

/** The answer of the endpoint of a call: 404 and 405 for what is not one, an OPTIONS answer without CORS. */
function endpointAnswer(control: MockControl, call: Call, records: Records): Answer {
  let end = call.path.length;
  while (end > 1 && call.path[end - 1] === '/') end--;
  const path = call.path.slice(0, end);
  if (isJournalPath(path)) return journalAnswer(records.journal, call, path);
  if (path === coveragePath) return coverageAnswer(records.coverage, call);
  const endpoint = endpoints[path];
  if (!endpoint)
    return errorAnswer(404, `${quote(call.path, 80)} is not an endpoint of the mock's test API (${testApiEndpoints.join('; ')})`);
  const allowed = Object.keys(endpoint).join(', ');
  if (call.method === 'OPTIONS') return { status: 204, headers: { Allow: allowed }, body: Buffer.alloc(0) };
  const handle = endpoint[call.method];
  if (!handle)
    return errorAnswer(405, `${call.method} is not supported for ${call.path}; it supports ${allowed}`, { headers: { Allow: allowed } });
  const read = readBody(call);
  if ('refused' in read) return read.refused;
  try {
    return handle(control, read.body);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) return errorAnswer(400, error.message);
    // The faults as the error shows them: the first 10, then how many more (a wrong body of 1 MiB has many).
    if (error instanceof SeedError)
      return errorAnswer(400, `the state is not a valid seed, so it did not change: ${error.shown.join('; ')}`);
    throw error;
  }
}

/** The answer of the test API to a call under `/__mock`. */
export function controlAnswer(control: MockControl, call: Call, records: Records): Answer {
  return withoutCors(endpointAnswer(control, call, records));
}
