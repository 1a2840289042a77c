// The mock's API and identity provider as a web page reaches them (src/mock/api-access.ts): every answer, the mock's
// own errors included, readable by a page of another origin that sends credentials; a preflight for any path; a
// Host header naming neither this machine, an address nor an allowed name refused (DNS rebinding); and, with
// allowedOrigins, pages of other origins refused before anything is done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleToken } from '../../scripts/lib/sample-requests.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { type Reply, send } from '../support/http-client.js';

const page = 'http://localhost:5173';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

/** What a browser needs to hand a credentialed call's answer to the page: its origin, credentials, Vary. */
function expectReadableBy(reply: Reply, origin: string) {
  expect(reply.headers['access-control-allow-origin'], reply.text).toBe(origin);
  expect(reply.headers['access-control-allow-credentials']).toBe('true');
  expect(reply.headers.vary).toMatch(/\bOrigin\b/);
}

describe('every answer of the API and the identity provider, for a page of another origin', () => {
  const fromPage = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    send(mock.authUrl, path, { method, headers: { Origin: page, ...headers } });

  it("the mock's own errors (401, 403, 404 with code 1002, 405, 406, 404 of an unknown path) as its successes", async () => {
    const answers = {
      200: await fromPage('/api/monitors', { Authorization: sampleToken }),
      401: await fromPage('/api/monitors'),
      403: await fromPage('/api/monitors', { Authorization: sampleToken, Cookie: 'zaaid=999' }),
      1002: await fromPage('/api/monitors/123', { Authorization: sampleToken }),
      405: await fromPage('/api/monitors', { Authorization: sampleToken }, 'DELETE'),
      406: await fromPage('/api/monitors', { Authorization: sampleToken, Accept: 'text/html' }),
      unknown: await fromPage('/api/nothing-here', { Authorization: sampleToken }),
      token: await fromPage('/oauth/v2/token?grant_type=refresh_token', {}, 'POST'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, reply]) => [name, reply.status]))).toEqual({
      200: 200,
      401: 401,
      403: 403,
      1002: 404,
      405: 405,
      406: 406,
      unknown: 404,
      token: 400,
    });
    expect(answers[1002].json.code).toBe(1002);
    for (const reply of Object.values(answers)) expectReadableBy(reply, page);
  });

  it('names each header the page may read: a credentialed call reads none through a wildcard', async () => {
    mock.control.fault({ operation: 'createMonitorGroup', status: 503, retry_after_s: 3 });
    const reply = await send(mock.authUrl, '/api/monitor_groups', {
      method: 'POST',
      headers: { Origin: page, Authorization: sampleToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ display_name: 'Web' }),
    });
    expect(reply.status).toBe(503);
    expectReadableBy(reply, page);
    const exposed = String(reply.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['Retry-After', 'X-Mock-Fault']));
    expect(exposed).not.toContain('*');
  });

  it('a 413 the server gives before reading the call is readable too', async () => {
    const reply = await send(mock.authUrl, '/api/monitor_groups', {
      method: 'POST',
      headers: { Origin: page, Authorization: sampleToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ display_name: 'x'.repeat(1024 * 1024) }),
    });
    expect(reply.status).toBe(413);
    expectReadableBy(reply, page);
  });

  it('a page of a file: URL (Origin: null) is served as any page', async () => {
    expectReadableBy(await fromPage('/api/monitors', { Authorization: sampleToken, Origin: 'null' }), 'null');
  });

  it('a program (no Origin) gets no CORS headers, and Vary says the answer depends on Origin', async () => {
    const reply = await send(mock.authUrl, '/api/monitors', { headers: { Authorization: sampleToken } });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    expect(reply.headers.vary).toMatch(/\bOrigin\b/);
  });

  it('answers the preflight of any path and method, so that the call itself gets an answer the page can read', async () => {
    for (const path of ['/api/monitors', '/api/nothing-here', '/oauth/v2/token']) {
      const reply = await send(mock.authUrl, path, {
        method: 'OPTIONS',
        headers: {
          Origin: page,
          'Access-Control-Request-Method': 'DELETE',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      expect(reply.status, path).toBe(204);
      expectReadableBy(reply, page);
      expect(reply.headers['access-control-allow-methods']).toBe('DELETE');
      expect(reply.headers['access-control-allow-headers']).toBe('authorization,content-type');
    }
  });
});

describe('the Host header (DNS rebinding)', () => {
  const withHost = (host: string) => send(mock.authUrl, '/api/monitors', { headers: { Authorization: sampleToken, Host: host } });

  it('a name that is not this machine is refused (421) on the API, the identity provider and unknown paths', async () => {
    const rebound = await withHost(`attacker.example:${mock.port}`);
    expect(rebound.status).toBe(421);
    expect(rebound.json.message).toMatch(/"attacker\.example:\d+" names neither this machine.*--allow-host NAME/);
    for (const path of ['/oauth/v2/token', '/docs', '/']) {
      const reply = await send(mock.authUrl, path, { method: 'POST', headers: { Host: 'attacker.example' } });
      expect(reply.status, path).toBe(421);
    }
  });

  it("this machine's names and IP addresses are served", async () => {
    for (const host of [
      `127.0.0.1:${mock.port}`,
      `localhost:${mock.port}`,
      `[::1]:${mock.port}`,
      `192.0.2.7:${mock.port}`,
      '[2001:db8::7]',
    ])
      expect((await withHost(host)).status, host).toBe(200);
  });

  it('beyond loopback, a name the user allowed is served, and only that one', async () => {
    const shared = await startMock({ host: '0.0.0.0', allowedHosts: ['mock'] });
    try {
      const at = (host: string) =>
        send(`http://127.0.0.1:${shared.port}`, '/api/monitors', { headers: { Authorization: sampleToken, Host: host } });
      expect((await at(`mock:${shared.port}`)).status).toBe(200);
      expect((await at(`other:${shared.port}`)).status).toBe(421);
    } finally {
      await shared.stop();
    }
  });
});

describe('allowedOrigins: pages of the origins the user names, and no other', () => {
  let narrowed: RunningMock;
  beforeAll(async () => {
    narrowed = await startMock({ allowedOrigins: ['https://app.example.com'] });
  });
  afterAll(() => narrowed?.stop());
  const from = (origin: string | undefined, method = 'GET', extra: Record<string, string> = {}) =>
    send(narrowed.authUrl, '/api/monitors', {
      method,
      headers: { Authorization: sampleToken, ...(origin ? { Origin: origin } : {}), ...extra },
    });

  it('serves a named origin, the mock own origin and programs', async () => {
    expectReadableBy(await from('https://app.example.com'), 'https://app.example.com');
    expect((await from(narrowed.authUrl)).status).toBe(200);
    expect((await from(undefined)).status).toBe(200);
  });

  it('refuses any other origin (403, no CORS headers), its preflight and a file: page too', async () => {
    for (const reply of [await from(page), await from('null'), await from(page, 'OPTIONS', { 'Access-Control-Request-Method': 'GET' })]) {
      expect(reply.status).toBe(403);
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await from(page)).json.message).toMatch(/"http:\/\/localhost:5173" may not call the mock.*https:\/\/app\.example\.com/);
  });

  it('refuses a form POST to the identity provider before it is read: no token is issued or spent', async () => {
    const { client_id, client_secret } = narrowed.control.registerClient();
    const { code } = narrowed.control.grantCode({ client_id, scope: 'Service.Admin.Read' });
    const form = new URLSearchParams({ grant_type: 'authorization_code', client_id, client_secret, code, redirect_uri: 'https://x' });
    const refused = await send(narrowed.authUrl, `/oauth/v2/token?${form}`, { method: 'POST', headers: { Origin: page } });
    expect(refused.status).toBe(403);
    const granted = await send(narrowed.authUrl, `/oauth/v2/token?${form}`, { method: 'POST' });
    expect(granted.status, granted.text).toBe(200);
  });

  it('a wrong origin or host name is refused when the mock starts, naming the option', async () => {
    await expect(startMock({ allowedOrigins: ['https://app.example.com/path'] })).rejects.toThrow(
      /^allowedOrigins: "https:\/\/app\.example\.com\/path" is not an origin/,
    );
    await expect(startMock({ allowedOrigins: ['null'] })).rejects.toThrow(/^allowedOrigins: "null" is not an origin/);
    await expect(startMock({ allowedHosts: ['mock:4010'] })).rejects.toThrow(/^allowedHosts: "mock:4010" is not a host name/);
  });
});
