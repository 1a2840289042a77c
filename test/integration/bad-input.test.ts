// More than a thousand bad requests, generated from the operations of the bundled description (see
// support/bad-requests.ts): every one gets a 4xx (405 for a method) whose body names the fault, none a 5xx, and
// the mock still answers every operation correctly afterwards. Loopback only, 8 at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleRequests } from '../../scripts/lib/sample-requests.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { type BadCase, generateBadRequests } from '../support/bad-requests.js';
import { loadBundle } from '../support/bundle.js';
import { pool, type Reply, send, sendRaw } from '../support/http-client.js';
import { schemaValidator } from '../support/validator.js';

const bundle = loadBundle();
const validate = schemaValidator(bundle);
const cases = generateBadRequests(bundle, validate);
const concurrency = 8;
const timeLimitMs = 90_000;

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

function verdict(entry: BadCase, reply: Reply): string | undefined {
  if (reply.status < 400 || reply.status > 499) return `status ${reply.status}`;
  if (entry.status !== undefined && reply.status !== entry.status) return `status ${reply.status}, expected ${entry.status}`;
  if (entry.method === 'HEAD') {
    return entry.names.test(String(reply.headers['sl-violations'] ?? ''))
      ? undefined
      : `sl-violations ${reply.headers['sl-violations']} does not name ${entry.names}`;
  }
  if (validate('Error', reply.json).length > 0) return `body is not {code, message}: ${reply.text.slice(0, 200)}`;
  if (!entry.names.test(reply.json.message)) return `message does not name ${entry.names}: ${reply.json.message.slice(0, 300)}`;
  return undefined;
}

describe('bad input', () => {
  it(`at least a thousand generated bad requests: each a 4xx naming its fault, no 5xx`, async () => {
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    const started = performance.now();
    const deadline = Date.now() + timeLimitMs;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await pool(cases, concurrency, async (entry) => {
      if (Date.now() > deadline) {
        failures.push(`${entry.category} | ${entry.name}: not sent, the ${timeLimitMs} ms limit was reached`);
        return;
      }
      let reply: Reply;
      try {
        reply =
          entry.raw !== undefined
            ? await sendRaw(mock.authUrl, entry.raw)
            : await send(mock.authUrl, entry.target!, { method: entry.method, headers: entry.headers, body: entry.body });
      } catch (error) {
        failures.push(`${entry.category} | ${entry.name}: ${(error as Error).message}`);
        return;
      }
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      const problem = verdict(entry, reply);
      if (problem) failures.push(`${entry.category} | ${entry.name}: ${problem}`);
    });
    const seconds = (performance.now() - started) / 1000;

    const byCategory = new Map<string, number>();
    for (const entry of cases) byCategory.set(entry.category, (byCategory.get(entry.category) ?? 0) + 1);
    console.log(
      [
        `bad input: ${cases.length} generated bad requests in ${seconds.toFixed(1)} s (${concurrency} at a time), ${failures.length} failed`,
        ...[...byCategory].map(([category, count]) => `  ${String(count).padStart(5)}  ${category}`),
        `  answers: ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status} x${count}`)
          .join(', ')}`,
      ].join('\n'),
    );
    expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
  }, 150_000);

  it('every operation still answers as documented afterwards', async () => {
    for (const request of sampleRequests(bundle)) {
      const reply = await send(mock.authUrl, request.path, { method: request.method, headers: request.headers, body: request.body });
      expect(reply.status, `${request.method} ${request.path}: ${reply.text}`).toBe(request.status);
    }
  });
});

describe('deeply nested bodies, up to the body limit', () => {
  it('POST /api/monitor_groups nested deep in arrays and objects, valid around it or not: every depth a 4xx naming it', async () => {
    const limit = 1024 * 1024;
    const nest = (open: string, close: string, depth: number) => `${open.repeat(depth)}1${close.repeat(depth)}`;
    const failures: string[] = [];
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
    ] as const) {
      const deepest = Math.floor((limit - 40) / (open.length + close.length));
      for (const depth of [255, 256, 257, 1_000, 10_000, 100_000, deepest]) {
        for (const wrap of [(inner: string) => inner, (inner: string) => `{"display_name":"x","extra":${inner}}`]) {
          const body = wrap(nest(open, close, depth));
          if (body.length > limit) continue;
          const reply = await send(mock.authUrl, '/api/monitor_groups', {
            method: 'POST',
            headers: { Authorization: 'Service-oauthtoken x', 'Content-Type': 'application/json;charset=UTF-8' },
            body,
          });
          const valid = body.startsWith('{"display');
          const deep = depth + (valid ? 1 : 0) > 256;
          // Within the bound a valid group is created; past it, or invalid, a 4xx.
          const expected = deep ? /^4\d\d more than 256 deep/ : valid ? /^200 success/ : /^400 /;
          if (!expected.test(`${reply.status} ${reply.json?.message ?? ''}`.replace('Bad Request: the body nests arrays and objects ', '')))
            failures.push(`${open} ${depth} (${body.length} bytes): ${reply.status} ${reply.text.slice(0, 160)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
