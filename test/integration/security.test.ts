// What a hostile peer must not achieve: freeze the mock with one header, steer credentials to another host, read
// a secret in a log or a report, break a verify run or a terminal with what a service sends, exhaust the proxy's
// memory. Each case is one finding of the security review, reproduced against local servers.
import http from 'node:http';
import net from 'node:net';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleToken } from '../../scripts/lib/sample-requests.js';
import { createServiceClient, exchangeGrantCode, ServiceError } from '../../src/index.js';
import { createMockFetch, type RunningMock, startMock } from '../../src/mock/index.js';
import { formatReport, type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { formatJunit, formatMarkdown, formatSummary, type VerifyReport, verifyService } from '../../src/verify/index.js';
import { type FaultServer, type Reply, startFaultServer } from '../support/fault-server.js';
import { send } from '../support/http-client.js';
import { credentials, grantCode } from '../support/identity-provider.js';

const success = (data: unknown): Reply => ({
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  json: { code: 0, message: 'success', data },
});

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ onAnswer: (method, target, status) => logged.push(`${method} ${target} ${status}`) });
});
afterAll(() => mock?.stop());
const logged: string[] = [];

describe('the Prefer header cannot freeze the mock', () => {
  const crafted = `code=${' '.repeat(8000)}"x"y`;

  it('a Prefer header over 1,024 characters answers 431, naming the limit', async () => {
    const reply = await send(mock.authUrl, '/api/monitors', { headers: { Authorization: sampleToken, Prefer: crafted } });
    expect(reply.status).toBe(431);
    expect(reply.json.message).toMatch(/Prefer.*1024/);
  });

  it('a crafted Prefer header under the limit is read in linear time and refused, while other requests answer', async () => {
    const near = `code=${' '.repeat(1000)}"x"y`;
    const [crafted, ordinary] = await Promise.all([
      send(mock.authUrl, '/api/monitors', { headers: { Authorization: sampleToken, Prefer: near } }),
      send(mock.authUrl, '/api/monitors', { headers: { Authorization: sampleToken } }),
    ]);
    expect(crafted.status).toBe(400);
    expect(crafted.json.message).toMatch(/Prefer/);
    expect(ordinary.status).toBe(200);
  });

  it('createMockFetch answers the same header with 431', async () => {
    const mockFetch = createMockFetch();
    const response = await mockFetch(`${mockFetch.baseUrl}/monitors`, { headers: { Authorization: sampleToken, Prefer: crafted } });
    expect(response.status).toBe(431);
  });
});

describe('no client keeps a connection it does not use', () => {
  /** A client of the mock that never reads: it sends `first`, then `next` every half second; resolves when the mock has closed it. */
  const unreadClient = (first: string, next: string) =>
    new Promise<void>((resolve) => {
      const socket = net.connect(mock.port, '127.0.0.1', () => socket.write(first));
      socket.pause();
      // A write on a connection the mock has closed fails: that is how a client that never reads learns it.
      const timer = setInterval(() => socket.write(next), 500);
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve();
      });
    });

  it('a client that sends its headers a line at a time, or nothing at all, is closed within seconds, read or not', async () => {
    const silent = new Promise<string>((resolve) => {
      const socket = net.connect(mock.port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('close', () => resolve(answer));
    });
    const [answer] = await Promise.all([silent, unreadClient('GET /api/monitors HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n')]);
    expect(answer).toMatch(/^HTTP\/1.1 408 Request Timeout\r\n/);
    expect((await send(mock.authUrl, '/api/monitors', { headers: { Authorization: sampleToken } })).status).toBe(200);
  }, 20_000);
});

describe('the mock names every fault in a header a client can read', () => {
  it('a 200 KB malformed form body answers 400 with a capped, valid sl-violations header', async () => {
    const body = Array.from({ length: 20_000 }, (_, index) => `x${index}=%ZZ`).join('&');
    expect(body.length).toBeGreaterThan(150_000);
    const reply = await send(mock.authUrl, '/oauth/v2/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(reply.status).toBe(400);
    const header = String(reply.headers['sl-violations']);
    expect(header.length).toBeLessThanOrEqual(4096);
    expect(Array.isArray(JSON.parse(header))).toBe(true);
  });
});

describe('no secret reaches a log line', () => {
  it("the mock gives its log the token endpoint's target with the credentials redacted", async () => {
    logged.length = 0;
    await send(
      mock.authUrl,
      `/oauth/v2/token?client_id=${credentials.clientId}&client_secret=${credentials.clientSecret}&refresh_token=${credentials.refreshToken}&grant_type=refresh_token`,
      { method: 'POST' },
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^POST \/oauth\/v2\/token\?client_id=\[redacted\]&client_secret=\[redacted\]&refresh_token=\[redacted\]&grant_type=refresh_token \d{3}$/,
    );
  });
});

describe('credentials go only to the address given', () => {
  let service: FaultServer;
  let elsewhere: FaultServer;
  beforeAll(async () => {
    [service, elsewhere] = await Promise.all([startFaultServer(), startFaultServer(() => success([]))]);
  });
  afterAll(() => Promise.all([service?.stop(), elsewhere?.stop()]));
  afterEach(() => {
    service.clear();
    elsewhere.clear();
  });
  const redirectAll = (status = 307) =>
    service.handle((request) => ({ status, headers: { Location: `${elsewhere.origin}${request.url}` } }));

  it('exchanging a grant code does not follow a redirect', async () => {
    redirectAll();
    const failure = await exchangeGrantCode({
      authUrl: service.origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      code: grantCode,
    }).catch((error) => error);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ kind: 'http', status: 307 });
    expect(failure.message).toContain(`${elsewhere.origin}/oauth/v2/token`);
    expect(elsewhere.requests).toEqual([]);
  });

  it("the client's refresh and its resource calls do not follow a redirect", async () => {
    redirectAll(308);
    const client = createServiceClient({
      baseUrl: `${service.origin}/api`,
      authUrl: service.origin,
      auth: { ...credentials },
      retry: false,
    });
    await expect(client.GET('/monitors')).rejects.toMatchObject({
      kind: 'http',
      status: 308,
      message: expect.stringContaining(`${elsewhere.origin}/oauth/v2/token`),
    });
    const fixed = createServiceClient({ baseUrl: `${service.origin}/api`, auth: { accessToken: 'access-1' }, retry: false });
    await expect(fixed.GET('/monitors')).rejects.toMatchObject({ kind: 'http', status: 308 });
    expect(service.requests.length).toBe(2);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a redirect without a Location header is named as such, not as another address', async () => {
    service.handle(() => ({ status: 302 }));
    const client = createServiceClient({ baseUrl: `${service.origin}/api`, auth: { accessToken: 'access-1' }, retry: false });
    const failure = await client.GET('/monitors').catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'http', status: 302 });
    expect((failure as Error).message).toMatch(
      /^The answer is a redirect \(302\) without a Location header, which the client does not follow/,
    );
    expect((failure as Error).message).not.toContain('another address');
    service.handle(() => ({ status: 307, headers: { Location: 'http://[bad' } }));
    await expect(client.GET('/monitors')).rejects.toThrow(/a redirect \(307\) to a Location that is not a URL/);
  });

  it('verify judges no redirected answer and sends nothing to the other host', async () => {
    redirectAll(302);
    const report = await verifyService({
      baseUrl: `${service.origin}/api`,
      authUrl: service.origin,
      auth: { ...credentials },
      ratePerSecond: 500,
    });
    expect(elsewhere.requests).toEqual([]);
    expect(report.checks[0]!.notes.join(' ')).toContain(`a redirect to ${elsewhere.origin}/oauth/v2/token, not followed`);
    service.handle((request) =>
      request.path.startsWith('/api/') ? { status: 302, headers: { Location: `${elsewhere.origin}/api/x?y=1` } } : { status: 404 },
    );
    const withToken = await verifyService({ baseUrl: `${service.origin}/api`, auth: { accessToken: 'access-1' }, ratePerSecond: 500 });
    expect(elsewhere.requests).toEqual([]);
    const documented = withToken.checks.filter((check) => check.purpose === 'documented-call');
    expect(documented.length).toBeGreaterThan(0);
    for (const check of documented) {
      expect(check.status).toBe(302);
      expect(check.notes.join(' ')).toContain(`a redirect to ${elsewhere.origin}/api/x, not followed`);
    }
  });

  it('plain http to another machine is refused unless the user opts out', async () => {
    const options = { baseUrl: 'http://api.example.com/api', authUrl: 'https://accounts.example.com', auth: { ...credentials } };
    await expect(verifyService(options)).rejects.toThrow(/baseUrl http:\/\/api.example.com is plain http/);
    expect(() => createServiceClient(options)).toThrow(/baseUrl http:\/\/api.example.com is plain http/);
    expect(() =>
      createServiceClient({ ...options, baseUrl: 'https://api.example.com/api', authUrl: 'http://accounts.example.com' }),
    ).toThrow(/authUrl http:\/\/accounts.example.com is plain http/);
    await expect(
      exchangeGrantCode({ authUrl: 'http://accounts.example.com', clientId: 'a', clientSecret: 'b', code: 'c' }),
    ).rejects.toThrow(/authUrl http:\/\/accounts.example.com is plain http/);
    // A *.localhost name may be passed to DNS by a resolver: only names no resolver is asked for count as this machine.
    expect(() => createServiceClient({ ...options, baseUrl: 'http://app.localhost:4010/api' })).toThrow(
      /baseUrl http:\/\/app.localhost:4010 is plain http/,
    );
    for (const baseUrl of ['http://localhost:4010/api', 'http://127.0.0.1:4010/api', 'http://[::1]:4010/api'])
      expect(() => createServiceClient({ baseUrl, auth: { accessToken: 'a' } }), baseUrl).not.toThrow();
    expect(() => createServiceClient({ ...options, insecure: true })).not.toThrow();
    expect(() => createServiceClient({ ...options, baseUrl: 'https://user:pass@api.example.com/api' })).toThrow(/user name or password/);
  });
});

describe('the client refuses path values that would address another path', () => {
  /** A client whose fetch notes each URL it is asked for and answers one monitor. */
  const recordingClient = () => {
    const sent: string[] = [];
    const client = createServiceClient({
      baseUrl: 'https://api.example.com/api',
      auth: { accessToken: 'access-1' },
      fetch: async (request) => {
        sent.push(request.url);
        return new Response('{"message":"success","data":{"monitor_id":"7"}}', { headers: { 'Content-Type': 'application/json' } });
      },
    });
    return { sent, client };
  };

  it.each<unknown>(['.', '..', '', {}, [], null, undefined, true, Number.NaN])('monitor_id %j: a TypeError, no request', async (value) => {
    const { sent, client } = recordingClient();
    await expect(client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: value as string } } })).rejects.toThrow(
      /^The path parameter monitor_id must/,
    );
    expect(sent).toEqual([]);
  });

  it('a number fills its segment as its digits', async () => {
    const { sent, client } = recordingClient();
    await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: 7 as unknown as string } } });
    expect(sent).toEqual(['https://api.example.com/api/monitors/7']);
  });
});

describe('a hostile service cannot steer or break a verify run', () => {
  let service: FaultServer;
  // A token with the characters JSON pointers and URLs escape (`/` is `~1` in a pointer, `~` is `~0`).
  const token = 'tok/en~secret-0123456789';
  const control = '\u001b]0;TITLE\u0007';
  const html = '<img src=x onerror=alert(1)>';
  let report: VerifyReport;

  beforeAll(async () => {
    service = await startFaultServer((request) => {
      switch (request.path) {
        case '/api/short/msp/customers':
          return success([{ name: 'Zylker', zaaid: '700000123\r\nX-Injected: 1' }]);
        case '/api/short/bu/business_units':
          return success([{ name: 'Unit', zaaid: '123; x=1' }]);
        case '/api/monitors':
          return success([{ monitor_id: '..', display_name: 'Up', [token]: 1, [control]: 2, [html]: 3 }]);
        default:
          return { status: 404, json: { code: 404, message: `URL Not found ${control}` } };
      }
    });
    report = await verifyService({ baseUrl: `${service.origin}/api`, auth: { accessToken: token }, accounts: true, ratePerSecond: 500 });
  });
  afterAll(() => service?.stop());

  it('completes, and uses no learned value that is not a plain value', () => {
    expect(report.exitCode).toBeTypeOf('number');
    for (const request of service.requests) {
      expect(request.path).not.toBe('/api/');
      expect(request.url).not.toContain('..');
      expect(request.headers['x-injected']).toBeUndefined();
      expect(request.headers.cookie ?? '').not.toContain('x=1');
    }
    const notes = report.notes.join('\n');
    expect(notes).toContain('which is not a cookie value');
    expect(
      report.checks
        .flatMap((check) => check.notes)
        .concat(report.notes)
        .join('\n'),
    ).toContain('would address another path');
  });

  it('the token appears in no form, pointer-escaped included', () => {
    const everything = [JSON.stringify(report), formatSummary(report), formatMarkdown(report)].join('\n');
    expect(report.undescribed.some((entry) => entry.pointer.includes('[redacted]'))).toBe(true);
    for (const form of [token, encodeURIComponent(token), 'tok~1en~0secret', 'tok~1en', 'en~0secret'])
      expect(everything).not.toContain(form);
  });

  it('escape sequences reach neither the terminal nor the Markdown report; HTML shows as text', () => {
    const terminal = formatSummary(report);
    const markdown = formatMarkdown(report);
    for (const text of [terminal, markdown]) {
      expect(text).not.toContain('\u001b');
      expect(text).not.toContain('\u0007');
    }
    expect(terminal).toContain('\\e]0;TITLE\\u0007');
    // Outside inline code, HTML is written as entities; inside it, Markdown shows it literally.
    const outsideCode = markdown.replace(/`[^`\n]*`/g, '');
    expect(outsideCode).not.toContain('<img');
    // The JUnit report stays well-formed XML, control characters written visibly.
    const xml = formatJunit(report);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('\u001b');
  });
});

describe('the proxy', () => {
  let upstream: http.Server;
  let upstreamOrigin: string;
  let proxy: RunningProxy;
  let upstreamClosedEarly = false;
  beforeAll(async () => {
    upstream = http.createServer((request, response) => {
      if (request.url?.startsWith('/api/monitors')) {
        // 20 MB, sent in pieces: the proxy must stop reading at its cap.
        response.writeHead(200, { 'Content-Type': 'application/json' });
        const piece = Buffer.alloc(1024 * 1024, 'a');
        let sent = 0;
        const more = () => {
          while (sent < 20 && response.write(piece)) sent++;
          if (sent >= 20) response.end();
          else response.once('drain', more);
        };
        response.on('close', () => (upstreamClosedEarly = sent < 20));
        more();
        return;
      }
      response.setHeader('Content-Type', 'application/json; version=2.0');
      response.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
      response.setHeader('Access-Control-Allow-Origin', 'https://app.example.com');
      response.setHeader('Connection', 'keep-alive, X-Hop');
      response.setHeader('X-Hop', 'secret-hop');
      response.end(JSON.stringify({ code: 0, message: 'success', data: { device_key: 'k' } }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamOrigin = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    proxy = await startProxy({ upstream: upstreamOrigin });
  });
  afterAll(async () => {
    await proxy?.stop();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it('an answer over its cap is a 502 naming the cap, and the upstream read stops', async () => {
    const reply = await send(proxy.url, '/api/monitors', { headers: { Authorization: sampleToken } });
    expect(reply.status).toBe(502);
    expect(reply.json.message).toMatch(/8388608 bytes/);
    await expect.poll(() => upstreamClosedEarly).toBe(true);
  });

  it('keeps every Set-Cookie, one Access-Control-Allow-Origin, drops the headers named in Connection', async () => {
    const reply = await send(proxy.url, '/api/device_key', { headers: { Authorization: sampleToken, Origin: 'https://app.example.com' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(reply.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(reply.headers['x-hop']).toBeUndefined();
  });

  it("reports the token endpoint's target with the credentials redacted", async () => {
    await send(
      proxy.url,
      `/oauth/v2/token?client_id=${credentials.clientId}&client_secret=${credentials.clientSecret}&code=${grantCode}&grant_type=authorization_code`,
      { method: 'POST' },
    );
    const line = formatReport(proxy.reports.at(-1)!);
    for (const secret of [credentials.clientId, credentials.clientSecret, grantCode]) expect(line).not.toContain(secret);
    expect(line).toContain('client_secret=[redacted]');
  });

  it('refuses an upstream with a user name or password', async () => {
    await expect(startProxy({ upstream: 'http://user:hunter2@127.0.0.1:9/' })).rejects.toThrow(/user name or password/);
  });
});
