// More than a thousand bad requests, generated from the operations of the bundled description (see
// support/bad-requests.ts): every one gets a 4xx (405 for a method) whose body names the fault, none a 5xx, and
// the mock still answers every operation correctly afterwards. Loopback only, 8 at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { sampleRequests } from '../../scripts/lib/sample-requests.js';
import { loadBundle } from '../support/bundle.js';
import { schemaValidator } from '../support/validator.js';
import { generateBadRequests, type BadCase } from '../support/bad-requests.js';
import { pool, send, sendRaw, type Reply } from '../support/http-client.js';

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
