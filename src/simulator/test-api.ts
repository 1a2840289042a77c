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
//   POST /__mock/reset         -> 204
import { corsHeaders, errorAnswer, quote, type Answer, type Call } from '../http/exchange.js';
import { isRecord } from '../description/openapi.js';
import type { Journal } from '../journal/index.js';
import { isJournalPath, journalAnswer } from '../journal/http.js';
import { SeedError } from './seed.js';
import type { FaultScript, GrantCodeRequest, MockControl, RandomFaults } from './types.js';

export const controlPrefix = '/__mock';

/** Whether a path is the test API's. */
export const isControlPath = (path: string): boolean => path === controlPrefix || path.startsWith(`${controlPrefix}/`);

const json = (status: number, value: unknown): Answer => ({
  status,
  headers: { ...corsHeaders(), 'Content-Type': 'application/json' },
  body: Buffer.from(JSON.stringify(value)),
});

const endpoints: Record<string, Record<string, (control: MockControl, body: Record<string, unknown>) => Answer>> = {
  '/__mock/clients': { POST: (control) => json(201, control.registerClient()) },
  '/__mock/grant-codes': { POST: (control, body) => json(201, control.grantCode(body as unknown as GrantCodeRequest)) },
  '/__mock/clock': {
    GET: (control) => json(200, { now: control.state().now }),
    POST: (control, body) => {
      if (!('advance_ms' in body)) throw new TypeError('the body must be {"advance_ms": N}, N whole milliseconds >= 0');
      return json(200, control.advanceClock(body.advance_ms as number));
    },
  },
  '/__mock/faults': {
    POST: (control, body) => {
      if ('seed' in body) {
        control.randomFaults(body as unknown as RandomFaults);
        return json(201, control.state().random_faults);
      }
      return json(201, control.fault(body as unknown as FaultScript));
    },
  },
  '/__mock/state': { GET: (control) => json(200, control.state()), PUT: (control, body) => json(200, control.setState(body)) },
  '/__mock/reset': {
    POST: (control) => {
      control.reset();
      return { status: 204, headers: corsHeaders(), body: Buffer.alloc(0) };
    },
  },
};

const listing = Object.entries(endpoints)
  .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
  .join(', ');

/** The answer of the test API to a call under `/__mock`. */
export function controlAnswer(control: MockControl, call: Call, journal: Journal): Answer {
  let end = call.path.length;
  while (end > 1 && call.path[end - 1] === '/') end--;
  const path = call.path.slice(0, end);
  if (isJournalPath(path)) return journalAnswer(journal, call, path);
  const endpoint = endpoints[path];
  if (!endpoint) return errorAnswer(404, `${quote(call.path, 80)} is not an endpoint of the mock's test API (${listing})`);
  if (call.method === 'OPTIONS')
    return {
      status: 204,
      headers: { ...corsHeaders(call.headers), 'Access-Control-Allow-Methods': Object.keys(endpoint).join(',') },
      body: Buffer.alloc(0),
    };
  const handle = endpoint[call.method];
  if (!handle)
    return errorAnswer(405, `${call.method} is not supported for ${call.path}; it supports ${Object.keys(endpoint).join(', ')}`, {
      headers: { Allow: Object.keys(endpoint).join(', ') },
    });
  let body: unknown = {};
  if (call.body.length > 0) {
    try {
      body = JSON.parse(call.body.toString('utf8'));
    } catch (error) {
      return errorAnswer(400, `the body is not valid JSON (${(error as Error).message})`);
    }
  }
  if (!isRecord(body)) return errorAnswer(400, 'the body must be a JSON object');
  try {
    return handle(control, body);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) return errorAnswer(400, error.message);
    if (error instanceof SeedError)
      return errorAnswer(
        400,
        `the state is not a valid seed, so it did not change: ${error.faults.map((fault) => `${fault.pointer || '(the whole body)'}: ${fault.message}`).join('; ')}`,
      );
    throw error;
  }
}
