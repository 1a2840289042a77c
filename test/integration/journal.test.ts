// The simulator as a tester's instrument: the request journal (what a client sent, refused calls and near misses
// included, no secret anywhere) and the state a test sets in one call, in-process and over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/index.js';
import { createMockFetch, type RunningMock, SeedError, startMock } from '../../src/mock/index.js';
import { compiledBin, signalTree, startCommand } from '../support/processes.js';

/** A fixed start of the simulated time: only the test moves it. */
const clock = () => Date.UTC(2026, 10, 21, 10);

describe('the journal, in-process', () => {
  it('tells that the client refreshed its token exactly once and sent the customer cookie', async () => {
    const mockFetch = createMockFetch();
    const { client_id, client_secret } = mockFetch.control.registerClient();
    const { code } = mockFetch.control.grantCode({ client_id, scope: 'Service.Admin.All' });
    const exchanged = await mockFetch(`${mockFetch.authUrl}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id, client_secret, code }),
    });
    const { refresh_token } = (await exchanged.json()) as { refresh_token: string };
    mockFetch.control.clearRequests();

    const client = createServiceClient({
      baseUrl: mockFetch.baseUrl,
      authUrl: mockFetch.authUrl,
      fetch: mockFetch,
      auth: { clientId: client_id, clientSecret: client_secret, refreshToken: refresh_token },
    });
    const acme = client.forAccount('700000123');
    await acme.GET('/monitors');
    await acme.GET('/monitors');

    // A client ID is a secret: the entry names the client by the last four characters of its ID.
    const clientHint = `...${client_id.slice(-4)}`;
    const refreshes = mockFetch.control.requests({ operation: 'requestToken' }).requests;
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toMatchObject({
      client_id: clientHint,
      status: 200,
      account: null,
      body: expect.stringContaining('refresh_token=[redacted]'),
    });
    const calls = mockFetch.control.requests({ operation: 'listMonitors' }).requests;
    expect(calls.map((entry) => [entry.account, entry.headers.cookie, entry.client_id, entry.status])).toEqual([
      ['700000123', 'zaaid=700000123', clientHint, 200],
      ['700000123', 'zaaid=700000123', clientHint, 200],
    ]);
    expect(calls[0]?.headers.authorization).toBe('Service-oauthtoken [redacted]');
    const everything = JSON.stringify(mockFetch.control.requests());
    for (const secret of [client_id, client_secret, refresh_token]) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/"access_token":"1000\./);
  });

  it("records the engine's refusals with their violations, near misses and injected faults; not the test API's calls", async () => {
    const mockFetch = createMockFetch({ clock });
    const headers = { Authorization: 'Service-oauthtoken any-token', 'Content-Type': 'application/json' };
    await mockFetch(`${mockFetch.baseUrl}/monitor_groups`, { method: 'POST', headers, body: JSON.stringify({ description: 'no name' }) });
    await mockFetch(`${mockFetch.baseUrl}/monitor`, { headers });
    mockFetch.control.fault({ operation: 'listMonitors', status: 503, retry_after_s: 1 });
    await mockFetch(`${mockFetch.baseUrl}/monitors`, { headers });
    mockFetch.control.advanceClock(60_000);
    await mockFetch(`${mockFetch.baseUrl}/monitors`, { headers });

    const [refused, missed, faulted, plain] = mockFetch.control.requests().requests;
    expect(refused).toMatchObject({ operation: 'createMonitorGroup', status: 400, body: { description: 'no name' } });
    expect(refused?.violations.map((violation) => violation.message).join(' ')).toMatch(/display_name/);
    expect(missed).toMatchObject({
      operation: null,
      status: 404,
      near_miss: { operation: 'listMonitors', method: 'GET', path: '/api/monitors', differs: ['path'] },
    });
    expect(faulted).toMatchObject({ status: 503, fault: { status: 503, delay_ms: 0 } });
    expect(plain).toMatchObject({ status: 200, fault: null });
    expect([faulted?.at, plain?.at]).toEqual(['2026-11-21T10:00:00+0000', '2026-11-21T10:01:00+0000']);
    expect(mockFetch.control.requests().requests).toHaveLength(4);
  });

  it('journalSize 0 keeps nothing; a wrong one is refused before anything starts', async () => {
    const off = createMockFetch({ journalSize: 0 });
    await off(`${off.baseUrl}/monitors`, { headers: { Authorization: 'Service-oauthtoken any-token' } });
    expect(off.control.requests()).toEqual({ requests: [], dropped: 0 });
    expect(() => createMockFetch({ journalSize: -1 })).toThrow(/journalSize must be a whole number >= 0/);
  });
});

describe('state a test sets', () => {
  it('setState replaces the accounts and keeps clients, tokens and the clock; a wrong seed changes nothing', async () => {
    const mockFetch = createMockFetch({ clock });
    mockFetch.control.registerClient();
    mockFetch.control.advanceClock(3_600_000);
    const before = mockFetch.control.state();
    const after = mockFetch.control.setState({
      account: { device_key: 'eu_1', monitors: [{ monitor_id: '42', display_name: 'Shop' }] },
      customers: [{ name: 'Initech', zaaid: '9', monitors: [{ monitor_id: '91' }] }],
    });
    expect(after.account.monitors).toEqual([{ monitor_id: '42', display_name: 'Shop' }]);
    expect(after.customers.map((customer) => customer.zaaid)).toEqual(['9']);
    expect(after.tokens.clients).toBe(1);
    expect(after.now).toBe(before.now);
    const answer = await mockFetch(`${mockFetch.baseUrl}/monitors`, {
      headers: { Authorization: 'Service-oauthtoken any-token', Cookie: 'zaaid=9' },
    });
    expect(((await answer.json()) as { data: unknown }).data).toEqual([{ monitor_id: '91' }]);

    const error = (() => {
      try {
        mockFetch.control.setState({ account: { monitors: [{ monitor_id: 'x' }] } });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SeedError);
    expect((error as SeedError).message).toMatch(
      /^The state is not a valid seed, so it did not change:\n {2}\/account\/monitors\/0\/monitor_id: must match/,
    );
    expect(mockFetch.control.state()).toEqual(after);
    mockFetch.control.reset();
    expect(mockFetch.control.state().account.monitors).toEqual(before.account.monitors);
  });
});

describe('the journal and the state over HTTP', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ clock });
  });
  afterAll(() => mock.stop());
  const origin = () => mock.authUrl;
  const json = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${origin()}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  it('GET /__mock/requests filters, GET /__mock/requests/{id} gives one, DELETE empties; wrong filters are 400 naming them', async () => {
    await json('/__mock/requests', { method: 'DELETE' });
    await fetch(`${mock.baseUrl}/monitors?client_secret=leaked-secret-123456`, {
      headers: { Authorization: 'Service-oauthtoken secret-token-123456', Cookie: 'zaaid=700000456' },
    });
    await fetch(`${mock.baseUrl}/device_key`, { headers: { Authorization: 'Service-oauthtoken secret-token-123456' } });
    const listed = await json('/__mock/requests?account=700000456');
    expect(listed.status).toBe(200);
    expect(listed.body.dropped).toBe(0);
    expect(listed.body.requests).toHaveLength(1);
    const [entry] = listed.body.requests;
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/api/monitors',
      query: { client_secret: '[redacted]' },
      operation: 'listMonitors',
    });
    expect(JSON.stringify(listed.body)).not.toMatch(/leaked-secret|secret-token/);
    expect((await json(`/__mock/requests/${entry.id}`)).body).toEqual(entry);
    expect((await json(`/__mock/requests?since=${entry.id}`)).body.requests.map((found: { operation: string }) => found.operation)).toEqual(
      ['getDeviceKey'],
    );
    expect(await json('/__mock/requests?status=9')).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/status must be/) },
    });
    expect(await json('/__mock/requests?colour=red')).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/the filter of the journal has "colour"/) },
    });
    expect((await json('/__mock/requests', { method: 'DELETE' })).status).toBe(204);
    expect((await json(`/__mock/requests/${entry.id}`)).status).toBe(404);
    expect((await json('/__mock/requests')).body).toEqual({ requests: [], dropped: 0 });
  });

  it('PUT /__mock/state takes what GET gives (read, edit, set); a wrong seed is a 400 naming the pointer, the state unchanged', async () => {
    const state = (await json('/__mock/state')).body;
    state.customers[0].monitors.push({ monitor_id: '123456' });
    const put = await json('/__mock/state', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(state),
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual(state);
    const wrong = await json('/__mock/state', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ customers: [{ name: 'No zaaid' }] }),
    });
    expect(wrong).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('/customers/0: must have the attribute "zaaid"') },
    });
    expect((await json('/__mock/state')).body).toEqual(state);
  });
});

describe('--journal-size on the command line', () => {
  it('0 keeps nothing; a value that is not a whole number is a usage error naming it', async () => {
    const off = startCommand(process.execPath, [compiledBin, 'mock', '--port', '0', '--journal-size', '0']);
    const wrong = startCommand(process.execPath, [compiledBin, 'mock', '--port', '0', '--journal-size', 'many']);
    try {
      const [, baseUrl] = await off.waitFor(/API root \(\{base_url\}\): +(\S+)/);
      await fetch(`${baseUrl}/monitors`, { headers: { Authorization: 'Service-oauthtoken any-token' } });
      const journal = await fetch(`${baseUrl!.replace(/\/api$/, '')}/__mock/requests`);
      expect(await journal.json()).toEqual({ requests: [], dropped: 0 });
      expect((await wrong.exited).code).toBe(2);
      expect(wrong.output()).toMatch(/--journal-size must be a number from 0 to 1000000, not "many"/);
    } finally {
      signalTree(off.child.pid!, 'SIGTERM');
      await off.exited;
    }
  });
});
