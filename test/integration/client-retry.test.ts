// Retries, Retry-After, timeouts, network failures and the ServiceError of every failed call.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  backoffDelay,
  createServiceClient,
  parseRetryAfter,
  type RetryOptions,
  type ServiceClientOptions,
  ServiceError,
} from '../../src/index.js';
import { envelope, type FaultServer, type Reply, startFaultServer } from '../support/fault-server.js';
import { freePort } from '../support/processes.js';

let api: FaultServer;
/** The delays the client asked to sleep, in ms. */
let slept: number[];

beforeEach(async () => {
  api = await startFaultServer();
  slept = [];
});
afterEach(() => api.stop());

const recordSleep = async (ms: number) => {
  slept.push(ms);
};

const fast: Partial<RetryOptions> = { retries: 2, baseDelayMs: 10, maxDelayMs: 40 };

function client(extra: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({ baseUrl: `${api.origin}/api`, auth: { accessToken: 'token' }, retry: fast, sleep: recordSleep, ...extra });
}

/** Answers the given replies in turn, then the last one again. */
function script(...replies: Reply[]) {
  api.handle((request) => replies[Math.min(request.index, replies.length - 1)]!);
}

const unavailable: Reply = { status: 503, json: { code: 503, message: 'Service unavailable' } };
const ok: Reply = { json: envelope([{ monitor_id: '1' }]) };

describe('retries of idempotent calls', () => {
  it('GET: 503 twice then 200 succeeds after two retries, with capped exponential jittered delays', async () => {
    script(unavailable, unavailable, ok);
    const result = await client().request('GET', '/monitors');
    expect(result.data).toEqual([{ monitor_id: '1' }]);
    expect(result.attempts).toBe(3);
    expect(api.requests).toHaveLength(3);
    expect(slept).toHaveLength(2);
    expect(slept[0]).toBeGreaterThanOrEqual(5);
    expect(slept[0]).toBeLessThanOrEqual(10);
    expect(slept[1]).toBeGreaterThanOrEqual(10);
    expect(slept[1]).toBeLessThanOrEqual(20);
  });

  it('POST: the same 503 is not retried (one request, a typed error)', async () => {
    script(unavailable, unavailable, ok);
    const error = await client()
      .POST('/monitor_groups', { body: { display_name: 'Payment services' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 503,
      code: 503,
      message: 'Service unavailable',
      attempts: 1,
      operation: { method: 'POST', path: '/monitor_groups', operationId: 'createMonitorGroup' },
    });
    expect(api.requests).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it('gives up after the configured retries with the last answer as the error', async () => {
    script(unavailable);
    const error = (await client()
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'http', status: 503, attempts: 3 });
    expect(api.requests).toHaveLength(3);
  });

  it('retries are configurable per client and per call, and can be turned off', async () => {
    script(unavailable);
    await expect(client({ retry: { ...fast, retries: 4 } }).GET('/monitors')).rejects.toMatchObject({ attempts: 5 });
    api.clear();
    await expect(client({ retry: false }).GET('/monitors')).rejects.toMatchObject({ attempts: 1 });
    api.clear();
    await expect(client().GET('/monitors', { retry: { retries: 0 } })).rejects.toMatchObject({ attempts: 1 });
    expect(() => client({ retry: { retries: -1 } })).toThrow(TypeError);
  });

  it('429 on a GET is retried; its final answer is a rate-limit error', async () => {
    script({ status: 429, json: { code: 429, message: 'Too many requests' } }, ok);
    await expect(client().GET('/monitors')).resolves.toEqual([{ monitor_id: '1' }]);
    api.clear();
    script({ status: 429, json: { code: 429, message: 'Too many requests' } });
    await expect(client().GET('/monitors')).rejects.toMatchObject({ kind: 'rate-limit', status: 429, attempts: 3 });
  });

  it('4xx answers other than 401 and 429 are not retried', async () => {
    script({ status: 404, json: { code: 1002, message: 'Monitor does not exist.' } }, ok);
    await expect(client().GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '9' } } })).rejects.toMatchObject({
      status: 404,
      code: 1002,
    });
    expect(api.requests).toHaveLength(1);
  });

  it('waits for real between retries with the default sleep', async () => {
    script(unavailable, ok);
    const started = performance.now();
    const c = createServiceClient({
      baseUrl: `${api.origin}/api`,
      auth: { accessToken: 't' },
      retry: { retries: 1, baseDelayMs: 60, maxDelayMs: 60 },
    });
    await c.GET('/monitors');
    expect(performance.now() - started).toBeGreaterThanOrEqual(29); // at least half the delay (jitter)
  });
});

describe('Retry-After', () => {
  it('honours delay-seconds', async () => {
    script({ ...unavailable, headers: { 'Retry-After': '3' } }, ok);
    await client().GET('/monitors');
    expect(slept).toEqual([3000]);
  });

  it('honours an HTTP date, against the client clock', async () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    script({ status: 429, json: { code: 429, message: 'slow down' }, headers: { 'Retry-After': new Date(now + 7000).toUTCString() } }, ok);
    await client({ clock: () => now }).GET('/monitors');
    expect(slept).toEqual([7000]);
  });

  it('a Retry-After longer than maxRetryAfterMs ends the call, with the wait in the error', async () => {
    script({ status: 429, json: { code: 429, message: 'slow down' }, headers: { 'Retry-After': '3600' } }, ok);
    const error = (await client()
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'rate-limit', status: 429, retryAfterMs: 3_600_000, attempts: 1 });
    expect(slept).toEqual([]);
  });

  it('parseRetryAfter reads seconds and dates, and ignores the rest', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('backoffDelay doubles, is capped, and jitters between half and all of the delay', () => {
    const options = { retries: 9, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 0 };
    expect([0, 1, 2, 3, 4, 8].map((n) => backoffDelay(n, options, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([0, 1, 2, 3, 4, 8].map((n) => backoffDelay(n, options, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
  });
});

describe('timeouts, network failures, aborts', () => {
  it('no answer within timeoutMs: a typed timeout error, quickly', async () => {
    script({ ...ok, delayMs: 2000 });
    const started = performance.now();
    const error = (await client({ timeoutMs: 50, retry: false })
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'timeout', status: 0, attempts: 1, operation: { operationId: 'listMonitors' } });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("a GET that timed out is retried; a per-call timeout overrides the client's", async () => {
    // The second attempt has the same limit as the first: half a second leaves a loaded machine room to answer it.
    script({ ...ok, delayMs: 2000 }, ok);
    await expect(client({ timeoutMs: 30_000 }).GET('/monitors', { timeoutMs: 500 })).resolves.toEqual([{ monitor_id: '1' }]);
    expect(api.requests).toHaveLength(2);
  });

  it('the timeout covers a body that never ends', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"code":0,'); // and nothing more
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const c = createServiceClient({ baseUrl: `http://127.0.0.1:${port}/api`, auth: { accessToken: 't' }, timeoutMs: 80, retry: false });
      await expect(c.GET('/monitors')).rejects.toMatchObject({ kind: 'timeout' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a dropped connection is a network error; GET retries it, POST does not', async () => {
    script({ drop: true }, ok);
    await expect(client().GET('/monitors')).resolves.toEqual([{ monitor_id: '1' }]);
    expect(api.requests).toHaveLength(2);
    api.clear();
    script({ drop: true }, ok);
    const error = await client()
      .POST('/monitor_groups', { body: { display_name: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', status: 0, attempts: 1 });
    expect(api.requests).toHaveLength(1);
  });

  it('a refused connection is a network error after the retries', async () => {
    const port = await freePort();
    const c = createServiceClient({ baseUrl: `http://127.0.0.1:${port}/api`, auth: { accessToken: 't' }, retry: fast, sleep: recordSleep });
    const error = (await c.GET('/monitors').catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'network', status: 0, attempts: 3 });
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it("the caller's signal aborts the call (kind aborted), a timeout signal gives kind timeout", async () => {
    script({ ...ok, delayMs: 2000 });
    const controller = new AbortController();
    const pending = client().GET('/monitors', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    await expect(client().GET('/monitors', { signal: AbortSignal.timeout(30) })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('an abort during the wait between retries ends the call', async () => {
    script(unavailable);
    const controller = new AbortController();
    const c = createServiceClient({ baseUrl: `${api.origin}/api`, auth: { accessToken: 't' }, retry: { retries: 3, baseDelayMs: 5000 } });
    const pending = c.GET('/monitors', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect(api.requests).toHaveLength(1);
  });
});

describe('error bodies', () => {
  it('a non-JSON body: status and text in the message, no code', async () => {
    script({ status: 502, text: '<html>Bad gateway</html>' });
    const error = (await client({ retry: false })
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'http', status: 502, code: undefined, body: '<html>Bad gateway</html>' });
    expect(error.message).toBe('HTTP 502 Bad Gateway: <html>Bad gateway</html>');
  });

  it('a problem+json body: title, detail and validation in the message', async () => {
    script({
      status: 422,
      headers: { 'Content-Type': 'application/problem+json' },
      json: {
        type: 'x',
        title: 'Invalid request',
        status: 422,
        detail: 'Your request is not valid.',
        validation: [{ location: ['path', 'monitor_id'], severity: 'Error', code: 'pattern', message: 'must match pattern "^[0-9]+$"' }],
      },
    });
    const error = (await client()
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'http', status: 422, code: undefined });
    expect(error.message).toBe('Invalid request: Your request is not valid.: path.monitor_id must match pattern "^[0-9]+$"');
  });

  it('a 2xx answer whose body is not JSON: an http error with its status, not a network error', async () => {
    script({ status: 200, text: 'not json', headers: { 'Content-Type': 'application/json' } });
    const error = (await client()
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'http', status: 200, attempts: 1 });
    expect(error.message).toMatch(/^The answer could not be read: /);
  });

  it('an empty error body: the status line', async () => {
    script({ status: 500 });
    const error = (await client({ retry: false })
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ status: 500, message: 'HTTP 500 Internal Server Error' });
    expect(error.describe()).toBe('GET /monitors (listMonitors): 500: HTTP 500 Internal Server Error');
    expect(ServiceError.is(error)).toBe(true);
    expect(error.response?.status).toBe(500);
  });
});
