// The client's auth: tokens from a refresh token, cached and renewed ahead of expiry, one renewal for many calls,
// a renewal and one retry after a 401, the identity provider's limit, and the secrets kept where they belong.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createServiceClient,
  type DataCenterId,
  dataCenters,
  exchangeGrantCode,
  revokeRefreshToken,
  type ServiceClientOptions,
  ServiceError,
  tokenLimits,
} from '../../src/index.js';
import { envelope, type FaultServer, type RecordedRequest, startFaultServer } from '../support/fault-server.js';
import {
  credentials,
  form,
  grantCode,
  type IdentityProvider,
  startIdentityProvider,
  tokenOf,
  unauthorized,
} from '../support/identity-provider.js';

let idp: IdentityProvider;
let api: FaultServer;

/** Tokens the resource server refuses from now on (as if revoked or expired early). */
let refused: Set<string>;

const monitors = [{ monitor_id: '169863000000025001', display_name: 'Checkout', not_in_the_description: { nested: [1, 2] } }];

beforeEach(async () => {
  idp = await startIdentityProvider();
  refused = new Set();
  api = await startFaultServer((request) => {
    const token = tokenOf(request);
    if (!token || !idp.issued.includes(token) || refused.has(token)) return unauthorized;
    if (request.method === 'POST') return { status: 201, json: envelope({ group_id: '7', echo: JSON.parse(request.body) }) };
    return { json: envelope(monitors) };
  });
});
afterEach(async () => {
  await Promise.all([idp.stop(), api.stop()]);
});

function client(extra: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({ baseUrl: `${api.origin}/api`, authUrl: idp.origin, auth: { ...credentials }, ...extra });
}

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-11-21T10:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms), set: (ms: number) => (now = ms) };
}

const resourceRequests = () => api.requests;

describe('access tokens from a refresh token', () => {
  it('50 concurrent calls without a token make exactly one token request, and all of them use its token', async () => {
    idp.delayMs = 40; // the renewal is still running while every call starts
    const c = client();
    const results = await Promise.all(Array.from({ length: 50 }, () => c.GET('/monitors')));
    expect(results).toHaveLength(50);
    for (const data of results) expect(data).toEqual(monitors);
    expect(idp.refreshRequests()).toHaveLength(1);
    expect(resourceRequests()).toHaveLength(50);
    expect(new Set(resourceRequests().map(tokenOf))).toEqual(new Set(['access-1']));
  });

  it('sends the refresh-token grant as form fields with the client ID, secret and refresh token', async () => {
    await client().GET('/monitors');
    const [request] = idp.refreshRequests();
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/oauth/v2/token');
    expect(request!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(form(request!))).toEqual({
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      refresh_token: credentials.refreshToken,
      grant_type: 'refresh_token',
    });
  });

  it('caches the token: later calls make no token request while it is valid', async () => {
    const clock = manualClock();
    const c = client({ clock: clock.now });
    await c.GET('/monitors');
    clock.advance((3600 - 61) * 1000); // still more than the 60 s margin left
    await c.GET('/monitors');
    await c.GET('/monitors');
    expect(idp.refreshRequests()).toHaveLength(1);
    expect(resourceRequests().map(tokenOf)).toEqual(['access-1', 'access-1', 'access-1']);
  });

  it('renews a token about to expire before using it (no call goes out with it, no 401 round trip)', async () => {
    const clock = manualClock();
    const renewed: number[] = [];
    const c = client({ clock: clock.now, onTokenRenewed: (token) => renewed.push(token.expiresAt) });
    await c.GET('/monitors');
    clock.advance((3600 - 59) * 1000); // 59 s left: inside the 60 s margin
    await c.GET('/monitors');
    expect(idp.refreshRequests()).toHaveLength(2);
    expect(resourceRequests().map(tokenOf)).toEqual(['access-1', 'access-2']);
    expect(resourceRequests()).toHaveLength(2);
    const start = Date.parse('2026-11-21T10:00:00Z');
    expect(renewed).toEqual([start + 3600_000, start + (3600 - 59) * 1000 + 3600_000]);
  });

  it('the renewal margin is configurable', async () => {
    const clock = manualClock();
    const c = client({ clock: clock.now, renewalMarginMs: 10 * 60_000 });
    await c.GET('/monitors');
    clock.advance(50 * 60_000 + 1); // 10 minutes minus 1 ms left
    await c.GET('/monitors');
    expect(idp.refreshRequests()).toHaveLength(2);
  });

  it('starts with a saved access token and renews only when it is about to expire', async () => {
    idp.issued.push('saved-token');
    const clock = manualClock();
    const c = client({
      clock: clock.now,
      auth: { ...credentials, accessToken: 'saved-token', accessTokenExpiresAt: clock.now() + 120_000 },
    });
    await c.GET('/monitors');
    expect(idp.refreshRequests()).toHaveLength(0);
    clock.advance(61_000);
    await c.GET('/monitors');
    expect(idp.refreshRequests()).toHaveLength(1);
    expect(resourceRequests().map(tokenOf)).toEqual(['saved-token', 'access-2']);
  });
});

describe('401 from a resource call', () => {
  it('401 then success: one renewal, one retry with the new token', async () => {
    const c = client();
    await c.GET('/monitors'); // access-1
    refused.add('access-1'); // revoked behind the client's back
    const data = await c.GET('/monitors');
    expect(data).toEqual(monitors);
    expect(idp.refreshRequests()).toHaveLength(2);
    expect(resourceRequests().map(tokenOf)).toEqual(['access-1', 'access-1', 'access-2']);
  });

  it('401 twice: a typed auth error after exactly one renewal and one retry', async () => {
    api.handle(() => unauthorized);
    const error = await client()
      .GET('/monitors')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      kind: 'auth',
      status: 401,
      code: 401,
      attempts: 2,
      operation: { method: 'GET', path: '/monitors', operationId: 'listMonitors' },
    });
    expect((error as ServiceError).message).toBe('Unauthorized: the access token is invalid or expired.');
    expect(idp.refreshRequests()).toHaveLength(2);
    expect(resourceRequests()).toHaveLength(2);
  });

  it('a POST refused with 401 is renewed and sent again once, with the same body', async () => {
    const c = client();
    await c.GET('/monitors');
    refused.add('access-1');
    const data = await c.POST('/monitor_groups', { body: { display_name: 'Payment services', description: 'Checkout' } });
    expect(data).toEqual({ group_id: '7', echo: { display_name: 'Payment services', description: 'Checkout' } });
    const posts = resourceRequests().filter((request) => request.method === 'POST');
    expect(posts.map(tokenOf)).toEqual(['access-1', 'access-2']);
    expect(posts[0]!.body).toBe(posts[1]!.body);
  });

  it('many calls refused at once share one renewal', async () => {
    const c = client();
    await c.GET('/monitors');
    refused.add('access-1');
    idp.delayMs = 20;
    await Promise.all(Array.from({ length: 20 }, () => c.GET('/monitors')));
    expect(idp.refreshRequests()).toHaveLength(2);
    expect(resourceRequests().filter((request) => tokenOf(request) === 'access-2')).toHaveLength(20);
  });

  it('a ready access token is used as it is; a 401 is an auth error, with no renewal and no retry', async () => {
    idp.issued.push('handed-in');
    const c = createServiceClient({ baseUrl: `${api.origin}/api`, auth: { accessToken: 'handed-in' } });
    expect(await c.GET('/monitors')).toEqual(monitors);
    refused.add('handed-in');
    await expect(c.GET('/monitors')).rejects.toMatchObject({ kind: 'auth', status: 401 });
    expect(resourceRequests()).toHaveLength(2);
    expect(idp.requests()).toHaveLength(0);
  });

  it("a refused refresh token is a typed auth error naming the identity provider's answer", async () => {
    const c = client({ auth: { ...credentials, refreshToken: '1000.wrong' } });
    const error = (await c.GET('/monitors').catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      kind: 'auth',
      status: 400,
      operation: { method: 'POST', path: '/oauth/v2/token', operationId: 'requestToken' },
    });
    expect(error.message).toMatch(/invalid_code/);
    expect(resourceRequests()).toHaveLength(0);
  });

  it('an identity provider that answers 200 without a token is an auth error too', async () => {
    idp.failWith = { json: { error: 'invalid_client' } };
    await expect(client().GET('/monitors')).rejects.toMatchObject({
      kind: 'auth',
      status: 200,
      message: expect.stringMatching(/invalid_client/),
    });
  });
});

describe("the identity provider's limit on access tokens from refresh tokens", () => {
  it(`the client refuses the renewal that would be the ${tokenLimits.accessTokensFromRefreshTokens.count + 1}th in ${tokenLimits.accessTokensFromRefreshTokens.windowMinutes} minutes`, async () => {
    const { count, windowMinutes } = tokenLimits.accessTokensFromRefreshTokens;
    const windowMs = windowMinutes * 60_000;
    const clock = manualClock();
    const start = clock.now();
    idp.expiresIn = 60; // renewed after 30 s (the margin is at most half the lifetime)
    const c = client({ clock: clock.now });
    const step = Math.floor(windowMs / (count + 1)); // count + 1 renewals fit in one window
    for (let i = 0; i < count; i++) {
      await c.GET('/monitors');
      clock.advance(step);
    }
    expect(idp.refreshRequests()).toHaveLength(count);
    const before = resourceRequests().length;

    const error = (await c.GET('/monitors').catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.kind).toBe('rate-limit');
    expect(error.status).toBe(0);
    expect(error.message).toMatch(new RegExp(`${count} were already requested .* last ${windowMinutes} minutes`));
    expect(error.retryAfterMs).toBe(start + windowMs - clock.now());
    expect(idp.refreshRequests()).toHaveLength(count); // the provider was not asked
    expect(resourceRequests()).toHaveLength(before); // and the call did not go out

    // Concurrent calls get the same refusal, still without asking.
    const refusals = await Promise.allSettled([c.GET('/monitors'), c.forAccount('700000123').GET('/monitors')]);
    expect(refusals.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(idp.refreshRequests()).toHaveLength(count);

    // Once the first renewal leaves the window, one more is allowed.
    clock.set(start + windowMs + 1);
    expect(await c.GET('/monitors')).toEqual(monitors);
    expect(idp.refreshRequests()).toHaveLength(count + 1);
  });

  it('401 renewals count too', async () => {
    const { count } = tokenLimits.accessTokensFromRefreshTokens;
    api.handle(() => unauthorized);
    const c = client({ clock: manualClock().now });
    // The first call renews twice (no token yet, then after its 401), each later one once (after its 401).
    for (let i = 0; i < count - 1; i++) await expect(c.GET('/monitors')).rejects.toMatchObject({ kind: 'auth', status: 401 });
    expect(idp.refreshRequests()).toHaveLength(count);
    await expect(c.GET('/monitors')).rejects.toMatchObject({ kind: 'rate-limit', status: 0 });
    expect(idp.refreshRequests()).toHaveLength(count);
  });
});

describe('headers', () => {
  it('every resource call carries Authorization: Service-oauthtoken, Accept with the version, JSON bodies their charset', async () => {
    const c = client();
    await c.GET('/monitors');
    await c.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000025001' } } });
    await c.POST('/monitor_groups', { body: { display_name: 'Payment services' } });
    for (const request of resourceRequests()) {
      expect(request.headers.authorization).toBe('Service-oauthtoken access-1');
      expect(request.headers.accept).toBe('application/json; version=2.0');
      expect(request.headers.cookie).toBeUndefined();
    }
    const [get, one, post] = resourceRequests();
    expect(get!.url).toBe('/api/monitors');
    expect(one!.url).toBe('/api/monitors/169863000000025001');
    expect(get!.headers['content-type']).toBeUndefined();
    expect(post!.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(JSON.parse(post!.body)).toEqual({ display_name: 'Payment services' });
  });

  it('the version is selectable', async () => {
    await client({ version: '2.1' }).GET('/monitors');
    expect(resourceRequests()[0]!.headers.accept).toBe('application/json; version=2.1');
    expect(() => client({ version: 'latest' })).toThrow(TypeError);
  });
});

describe('secrets stay where they belong', () => {
  it('no URL carries a token or a secret; the client secret and refresh token never reach the resource server', async () => {
    const tokens = await exchangeGrantCode({
      authUrl: idp.origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      code: grantCode,
    });
    const c = client();
    await c.GET('/monitors');
    await c.POST('/monitor_groups', { body: { display_name: 'Payment services', description: 'x' } });
    refused.add('access-2');
    await c.forAccount('700000123').GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } });
    await createServiceClient({ baseUrl: `${api.origin}/api`, auth: { accessToken: tokens.accessToken } }).GET('/monitors');
    await revokeRefreshToken({ authUrl: idp.origin, refreshToken: tokens.refreshToken });

    const secrets = [credentials.clientSecret, credentials.refreshToken, grantCode];
    const accessTokens = idp.issued;
    expect(accessTokens.length).toBeGreaterThanOrEqual(3);
    const all: RecordedRequest[] = [...idp.requests(), ...api.requests];
    expect(api.requests.length).toBeGreaterThanOrEqual(5);
    for (const request of all) {
      for (const value of [...secrets, ...accessTokens]) expect(decodeURIComponent(request.url)).not.toContain(value);
    }
    for (const request of api.requests) {
      const everything = JSON.stringify(request.headers) + request.body;
      for (const secret of secrets) expect(everything).not.toContain(secret);
      expect(everything).not.toContain(credentials.clientId);
    }
    // The identity provider got them, in form bodies only.
    expect(idp.requests().every((request) => request.query.size === 0)).toBe(true);
    expect(idp.requests().some((request) => form(request).get('client_secret') === credentials.clientSecret)).toBe(true);
  });

  it('errors do not carry the token or the secret in their message', async () => {
    api.handle(() => unauthorized);
    const error = (await client()
      .GET('/monitors')
      .catch((e: unknown) => e)) as ServiceError;
    const text = `${error.message} ${error.describe()} ${error.stack ?? ''}`;
    for (const value of [credentials.clientSecret, credentials.refreshToken, ...idp.issued]) expect(text).not.toContain(value);
  });
});

describe('identity-provider helpers', () => {
  it('exchangeGrantCode: the authorization-code grant as form fields, the tokens in camelCase', async () => {
    const tokens = await exchangeGrantCode({
      authUrl: idp.origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      code: grantCode,
    });
    expect(tokens).toEqual({
      accessToken: 'access-1',
      refreshToken: credentials.refreshToken,
      expiresIn: 3600,
      apiDomain: 'https://api.test.invalid',
      tokenType: 'Bearer',
    });
    const [request] = idp.requests();
    expect(request!.url).toBe('/oauth/v2/token');
    expect(request!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(form(request!))).toEqual({
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      code: grantCode,
      grant_type: 'authorization_code',
    });
  });

  it('exchangeGrantCode with a used or expired code: a typed auth error', async () => {
    const error = await exchangeGrantCode({
      authUrl: idp.origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      code: 'stale',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'auth', status: 400, body: { error: 'invalid_code' }, operation: { operationId: 'requestToken' } });
  });

  it('revokeRefreshToken: the token as a form field', async () => {
    await expect(revokeRefreshToken({ authUrl: idp.origin, refreshToken: credentials.refreshToken })).resolves.toBeUndefined();
    expect(idp.revoked).toEqual([credentials.refreshToken]);
    expect(idp.requests()[0]!.url).toBe('/oauth/v2/token/revoke');
    // A revoked refresh token gives no more access tokens.
    await expect(client().GET('/monitors')).rejects.toMatchObject({ kind: 'auth', status: 400 });
  });
});

describe('data centers', () => {
  const ids = Object.keys(dataCenters) as DataCenterId[];

  it('each of the ten data centers pairs its API root with its identity provider', async () => {
    expect(ids).toHaveLength(10);
    for (const id of ids) {
      const seen: string[] = [];
      const fetch = async (request: Request) => {
        seen.push(request.url);
        if (request.url.includes('/oauth/')) return Response.json({ access_token: 'a', expires_in: 3600 });
        return Response.json(envelope([]));
      };
      const c = createServiceClient({ dataCenter: id, auth: { ...credentials }, fetch });
      expect(c.baseUrl).toBe(dataCenters[id].baseUrl);
      expect(c.authUrl).toBe(dataCenters[id].authUrl);
      await c.GET('/monitors');
      expect(seen).toEqual([`${dataCenters[id].authUrl}/oauth/v2/token`, `${dataCenters[id].baseUrl}/monitors`]);
      await exchangeGrantCode({
        dataCenter: id,
        clientId: 'i',
        clientSecret: 's',
        code: 'c',
        fetch: async () => Response.json({ access_token: 'a', refresh_token: 'r', expires_in: 3600 }),
      });
    }
  });

  it("either address can be overridden; the other stays the data center's", () => {
    const a = createServiceClient({ dataCenter: 'eu', baseUrl: 'http://127.0.0.1:4010/api/', auth: { ...credentials } });
    expect([a.baseUrl, a.authUrl]).toEqual(['http://127.0.0.1:4010/api', dataCenters.eu.authUrl]);
    const b = createServiceClient({ dataCenter: 'eu', authUrl: 'http://127.0.0.1:4010', auth: { ...credentials } });
    expect([b.baseUrl, b.authUrl]).toEqual([dataCenters.eu.baseUrl, 'http://127.0.0.1:4010']);
  });

  it('a network failure on a placeholder host says to give the real addresses', async () => {
    const fetch = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) });
    };
    const error = await exchangeGrantCode({
      authUrl: 'https://accounts.eu.placeholder.invalid',
      clientId: 'i',
      clientSecret: 's',
      code: 'c',
      fetch,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', status: 0, operation: { operationId: 'requestToken' } });
    expect((error as ServiceError).message).toBe(
      `Network error: fetch failed: getaddrinfo ENOTFOUND (ENOTFOUND) (accounts.eu.placeholder.invalid is a placeholder host of the description: give your data center's real baseUrl and authUrl)`,
    );
  });

  it('refuses unknown data centers and a refresh token without an identity provider', () => {
    expect(() => createServiceClient({ dataCenter: 'mars' as DataCenterId, auth: { ...credentials } })).toThrow(
      /dataCenter must be one of us, eu, .*, not "mars"/,
    );
    expect(() => createServiceClient({ baseUrl: 'http://127.0.0.1:1/api', auth: { ...credentials } })).toThrow(/identity provider/);
    expect(() => createServiceClient({ auth: { accessToken: 't' } })).toThrow('Give baseUrl (the API root, ending in /api) or dataCenter.');
    expect(() => createServiceClient({ dataCenter: 'eu', auth: { clientId: 'a', clientSecret: '', refreshToken: 'r' } })).toThrow(
      /clientSecret/,
    );
    // A ready access token needs no identity provider.
    expect(() => createServiceClient({ baseUrl: 'http://127.0.0.1:1/api', auth: { accessToken: 't' } })).not.toThrow();
  });
});
