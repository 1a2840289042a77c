// The mock's simulation of the service's state (mode: 'simulate'), as a user's test suite meets it through the
// package's client: its accounts (a customer, a stranger's zaaid refused), its monitors (a known one, an unknown one
// answering 404 with code 1002), a group created and seen in the state, scripted faults (a 429 with Retry-After that
// the client waits out), reset, and the test API over HTTP. Every answer passes through the validating proxy, which
// checks it against the description with Prism's engine: a simulated answer that broke the contract would fail here.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, ServiceError } from '../../src/index.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { startProxy, type RunningProxy } from '../../src/proxy/index.js';
import { send } from '../support/http-client.js';

let mock: RunningMock;
let proxy: RunningProxy;
beforeAll(async () => {
  mock = await startMock({ mode: 'simulate' });
  proxy = await startProxy({ upstream: mock.authUrl });
});
afterAll(() => Promise.all([proxy?.stop(), mock?.stop()]));
afterEach(() => mock.simulation!.reset());

const waits: number[] = [];
const client = () =>
  createServiceClient({
    baseUrl: `${proxy.url}/api`,
    auth: { accessToken: '1000.any-token' },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });

describe('the simulation, through the client and the validating proxy', () => {
  it('lists the main account and its customers; acts on a customer; refuses a zaaid that is none of them', async () => {
    const monitors = await client().GET('/monitors');
    expect(monitors.map((monitor) => monitor.monitor_id)).toEqual(['169863000000025001', '169863000000025017']);
    const customers = await client().GET('/short/msp/customers');
    expect(customers.map((customer) => customer.zaaid)).toEqual(['700000123', '700000456']);
    expect(await client().forAccount('700000123').GET('/monitors')).toHaveLength(2);
    const refused = await client()
      .forAccount('999')
      .GET('/monitors')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({
      status: 403,
      code: 403,
      message: expect.stringContaining('You are not authorized to perform this operation.'),
    });
  });

  it('answers a known monitor, and 404 with code 1002 for one that does not exist', async () => {
    expect(await client().GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000025017' } } })).toEqual({
      monitor_id: '169863000000025017',
    });
    const missing = await client()
      .GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '123' } } })
      .catch((error: unknown) => error);
    expect(missing).toMatchObject({ kind: 'http', status: 404, code: 1002, message: expect.stringContaining('Monitor does not exist.') });
  });

  it('keeps a created group in the account, seen in the state; reset forgets it', async () => {
    await client()
      .forAccount('800000111')
      .POST('/monitor_groups', { body: { display_name: 'Payments' } });
    const unit = mock.simulation!.state().accounts.find((account) => account.id === '800000111')!;
    expect(unit).toMatchObject({ kind: 'business unit', name: 'Europe Operations', groups: [{ group_id: '1', display_name: 'Payments' }] });
    mock.simulation!.reset();
    expect(mock.simulation!.state().accounts.every((account) => account.groups.length === 0)).toBe(true);
  });

  it('plays a scripted 429 with Retry-After, which the client waits out before it succeeds', async () => {
    waits.length = 0;
    mock.simulation!.fault({ operation: 'listMonitors', status: 429, retry_after_s: 2, count: 1 });
    expect(await client().GET('/monitors')).toHaveLength(2);
    expect(waits).toEqual([2000]);
    expect(mock.simulation!.state().faults).toEqual([]);
  });

  it('no answer of the simulation broke the contract (the proxy judged each)', () => {
    const broken = proxy.reports.filter((report) => report.violations.some((violation) => violation.severity === 'Error'));
    expect(
      broken.map(
        (report) =>
          `${report.method} ${report.url} ${report.status}: ${report.violations.map((violation) => violation.message).join('; ')}`,
      ),
    ).toEqual([]);
    expect(proxy.reports.length).toBeGreaterThan(8);
  });
});

describe('the test API over HTTP (/__mock/)', () => {
  it('state, faults and reset, for suites in any language', async () => {
    const state = await send(mock.authUrl, '/__mock/state');
    expect(state.status).toBe(200);
    expect(state.json.accounts.map((account: { id: string }) => account.id)).toEqual([
      'main',
      '700000123',
      '700000456',
      '800000111',
      '800000222',
    ]);
    const fault = await send(mock.authUrl, '/__mock/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operation: 'getDeviceKey', status: 500, count: 1 }),
    });
    expect(fault.status).toBe(201);
    const failed = await send(mock.authUrl, '/api/device_key', { headers: { Authorization: 'Service-oauthtoken any' } });
    expect(failed.status).toBe(500);
    expect((await send(mock.authUrl, '/api/device_key', { headers: { Authorization: 'Service-oauthtoken any' } })).status).toBe(200);
    expect((await send(mock.authUrl, '/__mock/reset', { method: 'POST' })).status).toBe(204);
  });

  it('names what is wrong in a bad control request', async () => {
    const bad = await send(mock.authUrl, '/__mock/faults', {
      method: 'POST',
      body: JSON.stringify({ operation: 'noSuchOperation', status: 500 }),
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/operation must be an operationId of the description/);
    expect((await send(mock.authUrl, '/__mock/nothing')).status).toBe(404);
  });

  it('examples mode stays the default: any monitor id answers the example', async () => {
    const examples = await startMock();
    try {
      expect(examples.simulation).toBeUndefined();
      const answer = await send(examples.authUrl, '/api/monitors/123', { headers: { Authorization: 'Service-oauthtoken any' } });
      expect(answer.status).toBe(200);
    } finally {
      await examples.stop();
    }
  });
});
