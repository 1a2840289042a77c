// One mock, many isolated worlds (src/mock/worlds/): workers that share one mock process each take a world by its
// base URLs alone, and none sees another's state, clock, faults, tokens or journal; the rules of the test API and of
// the API hold at every world's addresses; the in-process fetch has worlds too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleToken } from '../../scripts/lib/sample-requests.js';
import { createServiceClient, exchangeGrantCode } from '../../src/index.js';
import { type CoverageReport, createMockFetch, type RunningMock, startMock } from '../../src/mock/index.js';
import { send } from '../support/http-client.js';
import { type Command, compiledBin, signalTree, startCommand } from '../support/processes.js';

const json = { 'Content-Type': 'application/json' };
const hour = 3_600_000;

/** A barrier of `count` workers: each step starts once every worker has finished the one before, so that they interleave. */
function barrier(count: number) {
  let waiting: (() => void)[] = [];
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length === count) {
        for (const release of waiting) release();
        waiting = [];
      }
    });
}

describe('one mock process, eight workers in parallel, each in its own world by its base URLs alone', () => {
  let command: Command;
  let origin: string;
  beforeAll(async () => {
    command = startCommand(process.execPath, [compiledBin, 'mock', '--port', '0', '--max-worlds', '8']);
    const [, baseUrl] = await command.waitFor(/API root \(\{base_url\}\): +(\S+)/);
    await command.waitFor(/Process: pid/);
    origin = baseUrl!.replace(/\/api$/, '');
  });
  afterAll(() => command && signalTree(command.child.pid!, 'SIGTERM'));

  it('each moves its clock, sets its state, injects its faults, signs in and reads its journal, and sees only its own', async () => {
    const step = barrier(8);
    const start = Date.parse((await (await fetch(`${origin}/__mock/clock`)).json()).now.replace(/(\d\d)(\d\d)$/, '$1:$2'));
    const worker = async (index: number) => {
      // What a worker is given: its world's addresses (a worker id in a path), nothing else.
      const authUrl = `${origin}/worlds/gw${index}`;
      const baseUrl = `${authUrl}/api`;
      const testApi = `${authUrl}/__mock`;
      const post = async (path: string, body: unknown) =>
        (await fetch(`${testApi}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) })).json();
      const monitor = `${index + 1}00`;
      await fetch(`${testApi}/state`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ account: { monitors: [{ monitor_id: monitor }] } }),
      });
      await step();
      await post('/clock', { advance_ms: (index + 1) * hour });
      await step();
      await post('/faults', { operation: 'listMonitors', status: 503, count: 1 });
      const client = await post('/clients', {});
      const { code } = await post('/grant-codes', { client_id: client.client_id, scope: 'Service.Admin.Read' });
      await step();
      const auth = { authUrl, clientId: client.client_id, clientSecret: client.client_secret };
      const { refreshToken } = await exchangeGrantCode({ ...auth, code });
      const api = createServiceClient({ baseUrl, authUrl, auth: { ...auth, refreshToken }, sleep: async () => {} });
      const monitors = await api.GET('/monitors');
      await step();
      const journal = await (await fetch(`${testApi}/requests`)).json();
      const state = await (await fetch(`${testApi}/state`)).json();
      return { index, monitor, monitors, journal, state, clientId: client.client_id as string };
    };
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => worker(index)));
    for (const { index, monitor, monitors, journal, state } of results) {
      expect(monitors, `worker ${index}`).toEqual([{ monitor_id: monitor }]);
      expect(journal.requests.map((entry: { operation: string; status: number }) => `${entry.operation} ${entry.status}`)).toEqual([
        'requestToken 200',
        'requestToken 200',
        'listMonitors 503',
        'listMonitors 200',
      ]);
      // The world sees its calls at its own root: the same paths as the default world's.
      expect(journal.requests.map((entry: { path: string }) => entry.path)).toEqual([
        '/oauth/v2/token',
        '/oauth/v2/token',
        '/api/monitors',
        '/api/monitors',
      ]);
      expect(Date.parse(state.now.replace(/(\d\d)(\d\d)$/, '$1:$2')) - start).toBeGreaterThanOrEqual((index + 1) * hour);
      expect(Date.parse(state.now.replace(/(\d\d)(\d\d)$/, '$1:$2')) - start).toBeLessThan((index + 2) * hour);
      expect(state).toMatchObject({ faults: [], tokens: { clients: 1, refresh_tokens: { active: 1 } } });
    }
    // A client of one world is none of another's: its grant tokens are refused there.
    const foreign = await fetch(`${origin}/worlds/gw1/__mock/grant-codes`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ client_id: results[0]!.clientId, scope: 'Service.Admin.Read' }),
    });
    expect(foreign.status).toBe(400);
    // The default world saw nothing of it.
    expect((await (await fetch(`${origin}/__mock/requests`)).json()).requests).toEqual([]);
    const list = await (await fetch(`${origin}/__mock/worlds`)).json();
    expect(list.worlds.map((world: { id: string }) => world.id).sort()).toEqual(
      ['default', ...Array.from({ length: 8 }, (_, i) => `gw${i}`)].sort(),
    );
    expect(list.worlds.filter((world: { requests: number }) => world.requests === 4)).toHaveLength(8);
  });

  it('a ninth world, past --max-worlds 8: the world idle longest is forgotten, and its calls say so until it is made again', async () => {
    const list = await (await fetch(`${origin}/__mock/worlds`)).json();
    const idleLongest = list.worlds[1].id as string;
    const made = await fetch(`${origin}/__mock/worlds`, { method: 'POST', headers: json, body: JSON.stringify({ id: 'late' }) });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({ id: 'late', base_url: `${origin}/worlds/late/api` });
    const gone = await fetch(`${origin}/worlds/${idleLongest}/api/monitors`, { headers: { Authorization: sampleToken } });
    expect(gone.status).toBe(410);
    expect((await gone.json()).message).toMatch(new RegExp(`the world "${idleLongest}" was forgotten: the mock keeps at most 8 worlds`));
    const again = await fetch(`${origin}/__mock/worlds`, { method: 'POST', headers: json, body: JSON.stringify({ id: idleLongest }) });
    expect(again.status).toBe(201);
    expect((await fetch(`${origin}/worlds/${idleLongest}/api/monitors`, { headers: { Authorization: sampleToken } })).status).toBe(200);
  });
});

describe("the rules of the test API and of the API hold at every world's addresses", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.stop());

  it("a world's test API: a page of another origin 403, a foreign Host 421, no CORS headers", async () => {
    const state = (headers: Record<string, string>) => send(mock.authUrl, '/worlds/w/__mock/state', { headers });
    const page = await state({ Origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    expect(Object.keys(page.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect((await state({ Host: 'rebound.example' })).status).toBe(421);
    const made = await send(mock.authUrl, '/__mock/worlds', { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(made.status).toBe(403);
    // A refused request made no world.
    expect(mock.control.worlds().worlds.map((world) => world.id)).toEqual(['default']);
    const own = await state({});
    expect(own.status).toBe(200);
    expect(Object.keys(own.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it("the worlds' endpoints check a call as every call is checked: a body in another charset is a 400, and makes no world", async () => {
    const made = await send(mock.authUrl, '/__mock/worlds', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=latin1' },
      body: '{"id":"w-latin"}',
    });
    expect(made.status).toBe(400);
    expect(mock.control.worlds().worlds.map((world) => world.id)).not.toContain('w-latin');
  });

  it("a world's API and identity provider: CORS for a page, its preflight, a foreign Host 421", async () => {
    const page = 'http://localhost:5173';
    const list = await send(mock.authUrl, '/worlds/w/api/monitors', { headers: { Origin: page, Authorization: sampleToken } });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe(page);
    expect(list.headers.vary).toMatch(/Origin/);
    const preflight = await send(mock.authUrl, '/worlds/w/oauth/v2/token', {
      method: 'OPTIONS',
      headers: { Origin: page, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(
      (await send(mock.authUrl, '/worlds/w/api/monitors', { headers: { Host: 'rebound.example', Authorization: sampleToken } })).status,
    ).toBe(421);
  });

  it("beyond loopback, a world's test API answers only with the token, and tells each world's addresses by the Host it was reached by", async () => {
    const shared = await startMock({ host: '0.0.0.0', testApiToken: 'worlds-token-0123456789', allowedHosts: ['mock'] });
    try {
      const local = `http://127.0.0.1:${shared.port}`;
      expect((await send(local, '/worlds/w/__mock/state')).status).toBe(401);
      const bearer = { Authorization: 'Bearer worlds-token-0123456789' };
      expect((await send(local, '/worlds/w/__mock/state', { headers: bearer })).status).toBe(200);
      // A compose file's service reaches the mock as mock:PORT: the addresses it reads are the ones it can call.
      const made = await send(local, '/__mock/worlds', { method: 'POST', headers: { ...bearer, Host: `mock:${shared.port}` } });
      expect(made.json).toMatchObject({
        base_url: `http://mock:${shared.port}/worlds/world-1/api`,
        auth_url: `http://mock:${shared.port}/worlds/world-1`,
      });
    } finally {
      await shared.stop();
    }
  });

  it("allowedOrigins narrows a world's API to the pages named", async () => {
    const narrow = await startMock({ allowedOrigins: ['https://app.example.com'] });
    try {
      const call = (origin: string) =>
        send(narrow.authUrl, '/worlds/w/api/monitors', { headers: { Origin: origin, Authorization: sampleToken } });
      expect((await call('https://app.example.com')).status).toBe(200);
      expect((await call('https://other.example.com')).status).toBe(403);
    } finally {
      await narrow.stop();
    }
  });

  it("a token answer gives the world's own API root as api_domain, and control.createWorld() its addresses", async () => {
    const world = mock.control.createWorld();
    expect(world.baseUrl).toBe(`${mock.authUrl}/worlds/${world.id}/api`);
    const reply = await send(mock.authUrl, `/worlds/${world.id}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_id=c&client_secret=s&refresh_token=r',
    });
    expect(reply.json.api_domain).toBe(world.baseUrl);
    expect(world.control.requests().requests.map((entry) => entry.operation)).toEqual(['requestToken']);
  });
});

describe('createMockFetch: worlds in-process', () => {
  it('a world by its addresses under https://mock.invalid/worlds/, with a client of its own, sees only its own', async () => {
    const mockFetch = createMockFetch();
    const world = mockFetch.control.world('worker-1');
    expect(world).toMatchObject({ baseUrl: 'https://mock.invalid/worlds/worker-1/api', authUrl: 'https://mock.invalid/worlds/worker-1' });
    world.control.setState({ account: { monitors: [{ monitor_id: '9' }] } });
    const auth = { clientId: 'id', clientSecret: 'secret', refreshToken: 'refresh' };
    const client = createServiceClient({ baseUrl: world.baseUrl, authUrl: world.authUrl, fetch: mockFetch, auth });
    expect(await client.GET('/monitors')).toEqual([{ monitor_id: '9' }]);
    const main = createServiceClient({ baseUrl: mockFetch.baseUrl, authUrl: mockFetch.authUrl, fetch: mockFetch, auth });
    expect((await main.GET('/monitors')).map((monitor) => monitor.monitor_id)).not.toContain('9');
    expect(world.control.requests().requests.map((entry) => entry.operation)).toEqual(['requestToken', 'listMonitors']);
    expect(mockFetch.control.requests().requests.map((entry) => entry.operation)).toEqual(['requestToken', 'listMonitors']);
  });

  it("each world counts its own coverage; the run's is their union, a world ended or forgotten included", async () => {
    const mockFetch = createMockFetch({ maxWorlds: 1 });
    const headers = { Authorization: sampleToken };
    const calls = (report: CoverageReport, operation: string) => report.operations.find((each) => each.operation === operation)?.calls;
    await mockFetch('https://mock.invalid/worlds/gw0/api/monitors', { headers });
    await mockFetch('https://mock.invalid/worlds/gw1/api/monitors/1', { headers }); // gw0 forgotten: one world at most
    await mockFetch(`${mockFetch.baseUrl}/device_key`, { headers });
    const gw1 = mockFetch.control.world('gw1').control.coverage();
    expect([calls(gw1, 'listMonitors'), calls(gw1, 'getMonitor'), calls(gw1, 'getDeviceKey')]).toEqual([0, 1, 0]);
    const run = mockFetch.control.runCoverage();
    expect([calls(run, 'listMonitors'), calls(run, 'getMonitor'), calls(run, 'getDeviceKey')]).toEqual([1, 1, 1]);
    expect(run.exchanges).toBe(3);
    const overHttp = await mockFetch('https://mock.invalid/__mock/coverage/all');
    expect(await overHttp.json()).toEqual(run);
    mockFetch.control.deleteWorld('gw1');
    expect(calls(mockFetch.control.runCoverage(), 'getMonitor')).toBe(1);
    expect((await mockFetch('https://mock.invalid/__mock/coverage/all', { method: 'DELETE' })).status).toBe(204);
    expect(mockFetch.control.runCoverage().exchanges).toBe(0);
    expect(() => createMockFetch({ coverage: false }).control.runCoverage()).toThrow(/counts no coverage/);
  });

  it("in mode 'examples' there are no worlds: their addresses answer 404 saying why, and the methods throw", async () => {
    const mockFetch = createMockFetch({ mode: 'examples' });
    const reply = await mockFetch('https://mock.invalid/worlds/w/api/monitors', { headers: { Authorization: sampleToken } });
    expect(reply.status).toBe(404);
    expect((await reply.json()).message).toMatch(/a world \(\/worlds\/w\/api\/monitors\) is the simulator's/);
    expect(() => mockFetch.control.createWorld()).toThrow(/needs the simulator/);
  });
});
