// The mock's simulator, scenario by scenario as the documents tell them: the accounts of an MSP and BU portal
// account (core document, section 5, items 8 and 9), monitors and the documented 404 (section 7), monitor groups,
// the life of tokens with every limit of section 8 on a simulated clock, the documented scopes, faults on demand,
// and the state. Every answer of the mock is judged against the description by Prism's engine (verify's judge):
// a simulated answer that breaks the contract fails the test that got it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { headersRecord } from '../../src/http/exchange.js';
import {
  createServiceClient,
  exchangeGrantCode,
  type GrantTokens,
  refreshAccessToken,
  revokeRefreshToken,
  ServiceError,
} from '../../src/index.js';
import { createMockFetch, type MockFetch, type MockFetchOptions, type RunningMock, SeedError, startMock } from '../../src/mock/index.js';
import { type ContractViolation, createJudge, type Judge } from '../../src/verify/judge.js';
import { loadBundle } from '../support/bundle.js';
import { send } from '../support/http-client.js';

const bundle = loadBundle();
let judge: Judge;
beforeAll(async () => {
  judge = await createJudge(bundle);
});

/** The start of the simulated time in these tests: 2026-11-21T10:00:00+0000. */
const start = Date.UTC(2026, 10, 21, 10, 0, 0);
const minute = 60_000;

/** Every answer of a mock, with the contract's judgement of it. */
interface Judged {
  operation: string;
  status: number;
  violations: ContractViolation[];
}

/**
 * A mock in this process whose every answer is judged: `fetch` for clients, `elapsed` the simulated time advanced,
 * `answers` each judged answer (the test API's own answers are not part of the contract and are not judged).
 */
function simulated(options: MockFetchOptions = {}) {
  const mock = createMockFetch({ clock: () => start, ...options });
  const answers: Judged[] = [];
  const sim = {
    mock,
    answers,
    elapsed: 0,
    /** Advances the mock's clock (what a test waits for, without waiting). */
    advance(ms: number) {
      mock.control.advanceClock(ms);
      sim.elapsed += ms;
    },
    /** The simulated time, for the client's clock. */
    now: () => start + sim.elapsed,
    fetch: Object.assign(
      async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const request = new Request(input, init);
        const sent = await request.clone().text();
        const response = await mock(request);
        const url = new URL(request.url);
        if (judge.operation(request.method, url.pathname)) {
          const type = request.headers.get('content-type') ?? '';
          const body = !sent ? undefined : type.includes('json') ? JSON.parse(sent) : Object.fromEntries(new URLSearchParams(sent));
          const judgement = await judge.judge(
            {
              method: request.method,
              path: url.pathname,
              query: Object.fromEntries(url.searchParams),
              headers: headersRecord(request.headers),
              body,
            },
            { status: response.status, headers: headersRecord(response.headers), text: await response.clone().text() },
          );
          answers.push({
            operation: judge.operation(request.method, url.pathname)!.operationId,
            status: response.status,
            // A scripted status the operation does not document (429, 503) is outside the contract on purpose.
            violations: judgement.violations.filter((violation) => !(response.headers.has('x-mock-fault') && violation.rule === 'status')),
          });
        }
        return response;
      },
      { baseUrl: mock.baseUrl, authUrl: mock.authUrl },
    ),
    /** A plain call of the API root with an access token (or a made-up one). */
    async call(
      pathname: string,
      { token = 'made-up', zaaid, method = 'GET', body }: { token?: string; zaaid?: string; method?: string; body?: unknown } = {},
    ) {
      const response = await sim.fetch(`${mock.baseUrl}${pathname}`, {
        method,
        headers: {
          Authorization: `Service-oauthtoken ${token}`,
          Accept: 'application/json; version=2.0',
          ...(zaaid === undefined ? {} : { Cookie: `zaaid=${zaaid}` }),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json;charset=UTF-8' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, headers: response.headers, body: await response.json() };
    },
    /** The identity provider's options for the package's own functions. */
    identity: { authUrl: mock.authUrl, fetch: undefined as unknown as MockFetch },
    /** A registered client and a grant token of `scope` (validity in minutes). */
    console(scope = 'Service.Admin.Read', validity = 10) {
      const client = mock.control.registerClient();
      const { code } = mock.control.grantCode({ client_id: client.client_id, scope, validity_minutes: validity });
      return { clientId: client.client_id, clientSecret: client.client_secret, code };
    },
    /** Exchanges a fresh grant token of a new client: its tokens and the client's credentials. */
    async tokens(scope = 'Service.Admin.Read'): Promise<GrantTokens & { clientId: string; clientSecret: string }> {
      const credentials = sim.console(scope);
      return {
        ...(await exchangeGrantCode({ ...sim.identity, ...credentials })),
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
      };
    },
  };
  sim.identity.fetch = sim.fetch as unknown as MockFetch;
  return sim;
}

/** The ServiceError a call rejects with. */
async function refusal(call: Promise<unknown>): Promise<ServiceError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

/** Each test's mock: every one of its answers must agree with the description. */
let sim: ReturnType<typeof simulated>;
beforeEach(() => {
  sim = simulated();
  return () => {
    const broken = sim.answers.filter((answer) => answer.violations.length > 0);
    expect(broken, 'answers that break the contract').toEqual([]);
  };
});

describe('accounts: an MSP account with customers and a BU portal with business units (section 5, items 8 and 9)', () => {
  it("the own account lists its customers and business units, the description's examples", async () => {
    const customers = await sim.call('/short/msp/customers');
    expect(customers.status).toBe(200);
    expect(customers.body).toEqual({
      code: 0,
      message: 'success',
      data: [
        { name: 'Acme Retail', zaaid: '700000123' },
        { name: 'Globex Logistics', zaaid: '700000456' },
      ],
    });
    const units = await sim.call('/short/bu/business_units');
    expect(units.body.data).toEqual([
      { name: 'Europe Operations', zaaid: '800000111' },
      { name: 'Asia Operations', zaaid: '800000222' },
    ]);
  });

  it('Cookie: zaaid={zaaid} acts on that customer or business unit: its monitors, its device key', async () => {
    const own = await sim.call('/monitors');
    const customer = await sim.call('/monitors', { zaaid: '700000123' });
    const unit = await sim.call('/monitors', { zaaid: '800000222' });
    expect(own.body.data.map((monitor: { monitor_id: string }) => monitor.monitor_id)).toEqual([
      '169863000000025001',
      '169863000000025017',
    ]);
    expect(customer.body.data).toEqual([{ monitor_id: '700000123000025001' }]);
    expect(unit.body.data).toEqual([{ monitor_id: '800000222000025001' }]);
    const ownKey = (await sim.call('/device_key')).body.data.device_key;
    const customerKey = (await sim.call('/device_key', { zaaid: '700000123' })).body.data.device_key;
    expect(ownKey).toBe('us_8d3c2f0e4b1a9c7d6e5f4a3b2c1d0e9f');
    expect(customerKey).toMatch(/^us_[0-9a-f]{32}$/);
    expect(customerKey).not.toBe(ownKey);
  });

  it("a stranger's zaaid is refused with the documented message, and nothing is done on its behalf", async () => {
    for (const [pathname, method, body] of [
      ['/monitors', 'GET', undefined],
      ['/device_key', 'GET', undefined],
      ['/monitors/169863000000025001', 'GET', undefined],
      ['/monitor_groups', 'POST', { display_name: 'Not mine' }],
    ] as const) {
      const reply = await sim.call(pathname, { zaaid: '999', method, body });
      expect(reply.status, pathname).toBe(403);
      expect(reply.body).toEqual({ code: 403, message: 'You are not authorized to perform this operation.' });
    }
    expect(sim.mock.control.state().account.groups).toEqual([]);
  });

  it('a customer has no customers: listing them while acting on one is refused', async () => {
    const reply = await sim.call('/short/msp/customers', { zaaid: '700000123' });
    expect(reply.status).toBe(403);
    expect(reply.body.message).toBe('You are not authorized to perform this operation.');
  });

  it("the package's client acts on a customer with forAccount()", async () => {
    const client = createServiceClient({ ...sim.identity, baseUrl: sim.mock.baseUrl, fetch: sim.fetch, auth: { accessToken: 'made-up' } });
    expect(await client.forAccount('700000456').GET('/monitors')).toEqual([{ monitor_id: '700000456000025001' }]);
    const error = await refusal(client.forAccount('700000999').GET('/monitors'));
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/You are not authorized to perform this operation\./);
  });
});

describe('monitors (sections 4.1 and 7)', () => {
  it('a monitor of the account is answered with its record', async () => {
    const reply = await sim.call('/monitors/169863000000025017');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: 'success', data: { monitor_id: '169863000000025017' } });
  });

  it('a monitor that does not exist: 404, code 1002, "Monitor does not exist."', async () => {
    const reply = await sim.call('/monitors/123');
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(reply.body).toEqual({ code: 1002, message: 'Monitor does not exist.' });
  });

  it("another account's monitor does not exist in this one", async () => {
    expect((await sim.call('/monitors/700000123000025001')).status).toBe(404);
    expect((await sim.call('/monitors/700000123000025001', { zaaid: '700000123' })).status).toBe(200);
  });

  it("each named example of monitor_id is answered with the operation's answer of the same name (tools pair them)", async () => {
    const parameter = bundle.components.parameters.MonitorId;
    const operation = bundle.paths['/monitors/{monitor_id}'].get;
    const answers: Record<string, { status: string; value: unknown }> = {};
    for (const [status, response] of Object.entries<any>(operation.responses)) {
      const resolved = response.$ref ? bundle.components.responses[response.$ref.split('/').at(-1)] : response;
      for (const [name, example] of Object.entries<any>(Object.values<any>(resolved.content ?? {})[0]?.examples ?? {}))
        answers[name] = { status, value: bundle.components.examples[example.$ref.split('/').at(-1)].value };
    }
    expect(Object.keys(parameter.examples)).toEqual(['Monitor', 'MonitorNotFound']);
    for (const [name, example] of Object.entries<any>(parameter.examples)) {
      const reply = await sim.call(`/monitors/${example.value}`);
      expect([String(reply.status), reply.body], name).toEqual([answers[name]!.status, answers[name]!.value]);
    }
  });

  it('a malformed monitor_id is a 400 naming the fault, a status the operation lists', async () => {
    const reply = await sim.call('/monitors/abc');
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/monitor_id/);
    expect(Object.keys(bundle.paths['/monitors/{monitor_id}'].get.responses)).toContain('400');
  });

  it('Prefer still plays a documented example, state or no state', async () => {
    const response = await sim.fetch(`${sim.mock.baseUrl}/monitors/123`, {
      headers: { Authorization: 'Service-oauthtoken made-up', Prefer: 'code=200' },
    });
    expect(response.status).toBe(200);
    expect((await response.json()).data.monitor_id).toBe('169863000000025001');
  });
});

describe('roles, kinds of account and monitor types, each answer judged by the contract', () => {
  it('a Read Only user reads and is refused a creation; a normal account is refused its managed accounts; every monitor type', async () => {
    const client = sim.mock.control.registerClient();
    const { code } = sim.mock.control.grantCode({ client_id: client.client_id, scope: 'Service.Admin.All', role: 10 });
    const tokens = await exchangeGrantCode({ ...sim.identity, clientId: client.client_id, clientSecret: client.client_secret, code });
    expect(tokens.apiDomain).toBe(sim.mock.baseUrl);
    expect((await sim.call('/monitors', { token: tokens.accessToken })).status).toBe(200);
    const refused = await sim.call('/monitor_groups', { token: tokens.accessToken, method: 'POST', body: { display_name: 'P' } });
    expect([refused.status, refused.body.code]).toEqual([403, 403]);
    expect(refused.body.message).toMatch(/Read Only \(10\), reads but does not create/);
    const types = await sim.call('/monitor_type_constants');
    expect(types.body.data).toHaveLength(172);

    const normal = simulated({ seed: { account: { type: 'normal' } } });
    const listed = await normal.call('/short/msp/customers');
    expect([listed.status, listed.body.message]).toEqual([403, 'You are not authorized to perform this operation.']);
    expect(normal.answers.filter((answer) => answer.violations.length > 0)).toEqual([]);
  });
});

describe('monitor groups', () => {
  it('a group created in a customer account is seen in the state, in that account only', async () => {
    const reply = await sim.call('/monitor_groups', {
      method: 'POST',
      zaaid: '700000456',
      body: { display_name: 'Payment services', description: 'Checkout and billing monitors' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 0, message: 'success' });
    const state = sim.mock.control.state();
    expect(state.customers.find((customer) => customer.zaaid === '700000456')!.groups).toEqual([
      { display_name: 'Payment services', description: 'Checkout and billing monitors' },
    ]);
    expect(state.account.groups).toEqual([]);
  });

  it('an invalid group is refused by the contract before it reaches the state', async () => {
    const reply = await sim.call('/monitor_groups', { method: 'POST', body: { description: 'no name' } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/required property 'display_name'/);
    expect(sim.mock.control.state().account.groups).toEqual([]);
  });
});

describe('the life of tokens (sections 4.3, 5 and 8), on the simulated clock', () => {
  it('a grant token is exchanged once for a refresh token and an access token that expires in 3600 s', async () => {
    const credentials = sim.console('Service.Admin.Read,Service.Reports.Read');
    const tokens = await exchangeGrantCode({ ...sim.identity, ...credentials });
    expect(tokens.expiresIn).toBe(3600);
    expect(tokens.refreshToken).toMatch(/^1000\.[0-9a-f]{32}\.[0-9a-f]{32}$/);
    expect((await sim.call('/monitors', { token: tokens.accessToken })).status).toBe(200);
    const again = await refusal(exchangeGrantCode({ ...sim.identity, ...credentials }));
    expect(again.status).toBe(400);
    expect(again.message).toMatch(/the grant token \(code\) was already used at 2026-11-21T10:00:00\+0000: a grant token is used once/);
    expect((again.body as { error: string }).error).toBe('invalid_grant');
  });

  it('a grant token expires after the validity chosen at generation (3 minutes here)', async () => {
    const credentials = sim.console('Service.Admin.Read', 3);
    sim.advance(3 * minute);
    const expired = await refusal(exchangeGrantCode({ ...sim.identity, ...credentials }));
    expect(expired.status).toBe(400);
    expect(expired.message).toMatch(/expired at 2026-11-21T10:03:00\+0000, 3 minutes after it was generated/);
    const fresh = sim.console('Service.Admin.Read', 3);
    sim.advance(3 * minute - 1000);
    await expect(exchangeGrantCode({ ...sim.identity, ...fresh })).resolves.toHaveProperty('refreshToken');
  });

  it('the access token works until expires_in runs out, then 401; the refresh grant gives a new one and no refresh token', async () => {
    const tokens = await sim.tokens();
    sim.advance(3599 * 1000);
    expect((await sim.call('/monitors', { token: tokens.accessToken })).status).toBe(200);
    sim.advance(1000);
    const expired = await sim.call('/monitors', { token: tokens.accessToken });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      code: 401,
      message:
        'Unauthorized: the access token expired at 2026-11-21T11:00:00+0000 (expires_in 3600 s): get a new one with grant_type=refresh_token',
    });
    const response = await sim.fetch(`${sim.mock.authUrl}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: tokens.clientId,
        client_secret: tokens.clientSecret,
        refresh_token: tokens.refreshToken,
        grant_type: 'refresh_token',
      }),
    });
    const renewed = await response.json();
    expect(renewed).not.toHaveProperty('refresh_token');
    expect(renewed).toMatchObject({ expires_in: 3600, token_type: 'Bearer' });
    expect((await sim.call('/monitors', { token: renewed.access_token })).status).toBe(200);
  });

  it("the package's client renews an expired access token from its refresh token by itself", async () => {
    const tokens = await sim.tokens();
    const renewed: string[] = [];
    const client = createServiceClient({
      baseUrl: sim.mock.baseUrl,
      authUrl: sim.mock.authUrl,
      fetch: sim.fetch,
      clock: sim.now,
      auth: { clientId: tokens.clientId, clientSecret: tokens.clientSecret, refreshToken: tokens.refreshToken },
      onTokenRenewed: (token) => renewed.push(token.accessToken),
    });
    await client.GET('/monitors');
    sim.advance(3600 * 1000);
    await client.GET('/monitors');
    expect(renewed).toHaveLength(2);
    expect(sim.mock.control.state().tokens.access_tokens).toEqual({ active: 1, expired: 2, deleted: 0, revoked: 0 });
  });

  it('the 11th active access token of a refresh token deletes the first; the 11th from refresh tokens in 10 minutes is refused until the window ends', async () => {
    const tokens = await sim.tokens(); // access token 1, from the grant token
    const refresh = () => refreshAccessToken({ ...sim.identity, ...tokens });
    const fromRefresh: string[] = [];
    for (let index = 0; index < 9; index++) fromRefresh.push((await refresh()).accessToken); // tokens 2 to 10
    expect((await sim.call('/monitors', { token: tokens.accessToken })).status).toBe(200);
    fromRefresh.push((await refresh()).accessToken); // the 11th: the first is deleted
    const first = await sim.call('/monitors', { token: tokens.accessToken });
    expect(first.status).toBe(401);
    expect(first.body.message).toMatch(/deleted at .* when its refresh token's access tokens exceeded 10 \(the 11th deletes the first\)/);
    expect((await sim.call('/monitors', { token: fromRefresh[0] })).status).toBe(200);

    // Ten access tokens from this refresh token in 10 minutes: the next is refused, and says when to come back.
    sim.advance(5 * minute);
    const limited = await refusal(refresh());
    expect(limited.status).toBe(400);
    expect(limited.message).toMatch(/10 access tokens were generated from this refresh token in the last 10 minutes.*try again in 300 s/);
    expect((limited.body as { error: string }).error).toBe('too_many_requests');
    expect(limited.response?.headers.get('retry-after')).toBe('300');
    sim.advance(5 * minute);
    await expect(refresh()).resolves.toHaveProperty('accessToken');
  });

  it('revoking a refresh token ends it and its access tokens', async () => {
    const tokens = await sim.tokens();
    await revokeRefreshToken({ ...sim.identity, refreshToken: tokens.refreshToken });
    const call = await sim.call('/monitors', { token: tokens.accessToken });
    expect(call.status).toBe(401);
    expect(call.body.message).toMatch(/its refresh token was revoked at 2026-11-21T10:00:00\+0000/);
    const refused = await refusal(refreshAccessToken({ ...sim.identity, ...tokens }));
    expect(refused.message).toMatch(/the refresh_token was revoked/);
    const wrongToken = await refusal(revokeRefreshToken({ ...sim.identity, refreshToken: tokens.accessToken }));
    expect(wrongToken.message).toMatch(/the token is an access token: revoke takes the refresh token/);
  });

  it('20 refresh tokens per client ID in 10 minutes; past 20 per user, the oldest is deleted, in use or not', async () => {
    const client = sim.mock.control.registerClient();
    const exchange = () => {
      const { code } = sim.mock.control.grantCode({ client_id: client.client_id, scope: 'Service.Admin.Read' });
      return exchangeGrantCode({ ...sim.identity, clientId: client.client_id, clientSecret: client.client_secret, code });
    };
    const held: GrantTokens[] = [];
    for (let index = 0; index < 20; index++) held.push(await exchange());
    const limited = await refusal(exchange());
    expect(limited.message).toMatch(/this client_id generated 20 refresh tokens in the last 10 minutes.*\(at most 20 in 10 minutes\)/);
    sim.advance(10 * minute);
    held.push(await exchange()); // the user's 21st: the first is deleted
    const deleted = await refusal(
      refreshAccessToken({
        ...sim.identity,
        clientId: client.client_id,
        clientSecret: client.client_secret,
        refreshToken: held[0]!.refreshToken,
      }),
    );
    expect(deleted.message).toMatch(/was deleted at 2026-11-21T10:10:00\+0000, when the user's refresh tokens exceeded 20/);
    await expect(
      refreshAccessToken({
        ...sim.identity,
        clientId: client.client_id,
        clientSecret: client.client_secret,
        refreshToken: held[1]!.refreshToken,
      }),
    ).resolves.toHaveProperty('accessToken');
    expect(sim.mock.control.state().tokens.refresh_tokens).toEqual({ active: 20, revoked: 0, deleted: 1 });
  });

  it('a wrong client secret, and a grant token of another client, are refused', async () => {
    const credentials = sim.console();
    const other = sim.mock.control.registerClient();
    const secret = await refusal(exchangeGrantCode({ ...sim.identity, ...credentials, clientSecret: 'wrong' }));
    expect(secret.message).toMatch(/the client_secret is not the secret of this client_id/);
    const foreign = await refusal(
      exchangeGrantCode({ ...sim.identity, ...credentials, clientId: other.client_id, clientSecret: other.client_secret }),
    );
    expect(foreign.message).toMatch(/generated for another client_id/);
  });
});

describe('scopes (section 5.1): the two documented ones are enforced for tokens the mock issued', () => {
  it('GET /device_key and /monitor_type_constants need Service.Admin.Read', async () => {
    const reports = await sim.tokens('Service.Reports.Read');
    for (const pathname of ['/device_key', '/monitor_type_constants']) {
      const refused = await sim.call(pathname, { token: reports.accessToken });
      expect(refused.status, pathname).toBe(403);
      expect(refused.body.message).toMatch(/the access token's scopes \(Service.Reports.Read\) do not include Service.Admin.Read/);
    }
    const admin = await sim.tokens('Service.Admin.Read');
    expect((await sim.call('/device_key', { token: admin.accessToken })).status).toBe(200);
    const all = await sim.tokens('Service.Admin.All');
    expect((await sim.call('/device_key', { token: all.accessToken })).status).toBe(200);
  });

  it('an inferred scope is not enforced', async () => {
    const reports = await sim.tokens('Service.Reports.Read');
    expect((await sim.call('/monitors', { token: reports.accessToken })).status).toBe(200);
  });
});

describe('lenient by default, strict on request', () => {
  it("lenient: a made-up access token acts as the own account's; a refresh token sent as an access token is refused", async () => {
    expect((await sim.call('/device_key', { token: 'made-up' })).status).toBe(200);
    const tokens = await sim.tokens();
    const misuse = await sim.call('/monitors', { token: tokens.refreshToken });
    expect(misuse.status).toBe(401);
    expect(misuse.body.message).toMatch(/the token is a refresh token: send an access token/);
  });

  it('strict: only what the mock issued is accepted', async () => {
    sim = simulated({ strictTokens: true });
    const made = await sim.call('/monitors', { token: 'made-up' });
    expect(made.status).toBe(401);
    expect(made.body.message).toMatch(/the access token was not issued by this mock \(strict tokens\)/);
    const refused = await refusal(exchangeGrantCode({ ...sim.identity, clientId: 'id', clientSecret: 'secret', code: 'code' }));
    expect(refused.message).toMatch(/the grant token \(code\) was not generated by this mock/);
    const tokens = await sim.tokens();
    expect((await sim.call('/monitors', { token: tokens.accessToken })).status).toBe(200);
  });
});

describe('faults and latency on demand', () => {
  it("a scripted 429 with Retry-After, then success: the package's client waits Retry-After and retries", async () => {
    sim.mock.control.fault({ operation: 'listMonitors', status: 429, retry_after_s: 2, count: 1 });
    const waits: number[] = [];
    const client = createServiceClient({
      baseUrl: sim.mock.baseUrl,
      fetch: sim.fetch,
      auth: { accessToken: 'made-up' },
      sleep: async (ms) => {
        waits.push(ms);
        sim.advance(ms);
      },
    });
    const result = await client.request('GET', '/monitors');
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([2000]);
    expect(sim.answers.map((answer) => [answer.operation, answer.status])).toEqual([
      ['listMonitors', 429],
      ['listMonitors', 200],
    ]);
  });

  it("a scripted 500 answers the operation's documented example; the script ends after count answers", async () => {
    sim.mock.control.fault({ operation: 'getDeviceKey', status: 500, count: 2 });
    expect(sim.mock.control.state().faults).toEqual([{ operation: 'getDeviceKey', status: 500, delay_ms: 0, remaining: 2 }]);
    for (const expected of [500, 500, 200]) {
      const reply = await sim.call('/device_key');
      expect(reply.status).toBe(expected);
      if (expected === 500) expect(reply.body).toEqual({ code: 500, message: 'Internal Server Error' });
    }
  });

  it("a scripted delay: a client's time limit ends the call", async () => {
    sim.mock.control.fault({ operation: 'listMonitors', delay_ms: 5000 });
    const client = createServiceClient({
      baseUrl: sim.mock.baseUrl,
      fetch: sim.fetch,
      auth: { accessToken: 'made-up' },
      timeoutMs: 50,
      retry: false,
    });
    const error = await refusal(client.GET('/monitors'));
    expect(error.kind).toBe('timeout');
  });

  it('a seeded random fault run is reproduced exactly, after a reset and in another mock', async () => {
    const randomFaults = { seed: 42, rate: 0.3, statuses: [500, 503] };
    const run = async (target: ReturnType<typeof simulated>) => {
      const statuses: number[] = [];
      for (let index = 0; index < 40; index++) statuses.push((await target.call('/monitors')).status);
      return statuses;
    };
    sim = simulated({ randomFaults });
    const first = await run(sim);
    expect(new Set(first)).toEqual(new Set([200, 500, 503]));
    sim.mock.control.reset();
    expect(await run(sim)).toEqual(first);
    expect(await run(simulated({ randomFaults }))).toEqual(first);
    expect(await run(simulated({ randomFaults: { ...randomFaults, seed: 43 } }))).not.toEqual(first);
  });

  it('a script that is not one names its fault', () => {
    expect(() => sim.mock.control.fault({ operation: 'nope', status: 429 })).toThrow(/operation must be an operationId of the description/);
    expect(() => sim.mock.control.fault({ operation: 'listMonitors', status: 200 })).toThrow(
      /status must be an error status from 400 to 599/,
    );
    expect(() => sim.mock.control.fault({ operation: 'listMonitors' })).toThrow(/needs a status, a delay_ms, or both/);
  });
});

describe('the state: a snapshot, a reset, a seed file', () => {
  it('the state counts tokens and never shows one', async () => {
    const tokens = await sim.tokens();
    const text = JSON.stringify(sim.mock.control.state());
    expect(text).not.toContain(tokens.accessToken);
    expect(text).not.toContain(tokens.refreshToken);
    expect(text).not.toContain(tokens.clientSecret);
    expect(text).not.toContain(tokens.clientId);
    expect(sim.mock.control.state().tokens).toEqual({
      clients: 1,
      grant_codes: { unused: 0, used: 1, expired: 0 },
      refresh_tokens: { active: 1, revoked: 0, deleted: 0 },
      access_tokens: { active: 1, expired: 0, deleted: 0, revoked: 0 },
    });
  });

  it('reset gives back the seed: no groups, no tokens, the clock at its start, no faults', async () => {
    sim = simulated({ strictTokens: true });
    const tokens = await sim.tokens();
    await sim.call('/monitor_groups', { method: 'POST', body: { display_name: 'Temporary' } });
    sim.mock.control.fault({ operation: 'listMonitors', status: 503 });
    sim.advance(90 * minute);
    sim.mock.control.reset();
    sim.elapsed = 0;
    const state = sim.mock.control.state();
    expect(state.now).toBe('2026-11-21T10:00:00+0000');
    expect(state.account.groups).toEqual([]);
    expect(state.faults).toEqual([]);
    expect(state.tokens.refresh_tokens.active).toBe(0);
    // The tokens and the client are gone with the reset (strict tokens: what the mock did not issue is refused).
    expect((await sim.call('/monitors', { token: tokens.accessToken })).status).toBe(401);
    const refused = await refusal(refreshAccessToken({ ...sim.identity, ...tokens }));
    expect(refused.message).toMatch(/the refresh_token was not issued by this mock/);
  });

  it('a seed file gives the accounts, monitors and groups', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'seed-')), 'seed.json');
    writeFileSync(
      file,
      JSON.stringify({
        account: { device_key: 'eu_0123', monitors: [{ monitor_id: '1', display_name: 'Checkout' }], groups: [] },
        customers: [{ name: 'Initech', zaaid: '42', monitors: [{ monitor_id: '2' }] }],
      }),
    );
    sim = simulated({ seed: file });
    expect((await sim.call('/monitors/1')).body.data).toEqual({ monitor_id: '1', display_name: 'Checkout' });
    expect((await sim.call('/short/msp/customers')).body.data).toEqual([{ name: 'Initech', zaaid: '42' }]);
    expect((await sim.call('/monitors', { zaaid: '42' })).body.data).toEqual([{ monitor_id: '2' }]);
    // The parts the file leaves out keep the default seed: the business units of the examples.
    expect((await sim.call('/short/bu/business_units')).body.data).toHaveLength(2);
  });

  it('a wrong seed file: an error naming the file, the pointer and the fault, and nothing started', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'seed-')), 'bad.json');
    writeFileSync(file, JSON.stringify({ account: { monitors: [{ monitor_id: 'A-1' }] }, customers: [{ name: 'No zaaid' }] }));
    const error = (() => {
      try {
        createMockFetch({ seed: file });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(SeedError);
    expect((error as SeedError).message).toBe(
      [
        `The seed file ${file} is not valid, so the mock did not start:`,
        '  /account/monitors/0/monitor_id: must match the pattern ^[0-9]+$',
        '  /customers/0: must have the attribute "zaaid"',
      ].join('\n'),
    );
    await expect(startMock({ seed: file })).rejects.toBeInstanceOf(SeedError);
    await expect(startMock({ seed: path.join(path.dirname(file), 'missing.json') })).rejects.toThrow(
      /missing\.json is not valid.*cannot be read \(ENOENT\)/s,
    );
  });

  it('a seed that is a FIFO, a directory or nested too deep: a SeedError naming the file (and the pointer), at once', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'seed-'));
    const fifo = path.join(folder, 'seed.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => createMockFetch({ seed: fifo })).toThrow(/seed\.fifo is not valid.*is not a regular file \(a FIFO\)/s);
    expect(() => createMockFetch({ seed: folder })).toThrow(/is not a regular file \(a directory\)/);
    const deep = path.join(folder, 'deep.json');
    writeFileSync(deep, `{"account":{"monitors":[{"monitor_id":"1","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}]}}`);
    expect(() => createMockFetch({ seed: deep })).toThrow(
      /deep\.json is not valid.*\n {2}\/account\/monitors\/0\/x(\/0)+: nests arrays and objects more than 260 deep/s,
    );
  });
});

describe('the test API over HTTP, for suites in any language', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(() => mock?.stop());
  const post = (pathname: string, body?: unknown) =>
    fetch(`${mock.authUrl}${pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('clients, grant codes, the token endpoint, the clock and the state, as JSON', async () => {
    const registered = await post('/__mock/clients');
    expect(registered.status).toBe(201);
    const client = await registered.json();
    expect(Object.keys(client)).toEqual(['client_id', 'client_secret']);
    const granted = await post('/__mock/grant-codes', {
      client_id: client.client_id,
      scope: 'Service.Admin.Read,Service.Reports.Read',
      validity_minutes: 3,
    });
    expect(granted.status).toBe(201);
    const { code } = await granted.json();
    const tokens = await exchangeGrantCode({ authUrl: mock.authUrl, clientId: client.client_id, clientSecret: client.client_secret, code });
    expect(tokens.apiDomain).toBe(mock.baseUrl);
    const clock = await post('/__mock/clock', { advance_ms: 3600 * 1000 });
    expect(clock.status).toBe(200);
    expect((await clock.json()).now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
    const expired = await fetch(`${mock.baseUrl}/monitors`, { headers: { Authorization: `Service-oauthtoken ${tokens.accessToken}` } });
    expect(expired.status).toBe(401);
    const state = await fetch(`${mock.authUrl}/__mock/state`);
    expect(state.status).toBe(200);
    expect((await state.json()).tokens.access_tokens.expired).toBe(1);
  });

  it('faults and reset', async () => {
    const scripted = await post('/__mock/faults', { operation: 'listMonitors', status: 503, retry_after_s: 1, delay_ms: 0, count: 1 });
    expect(scripted.status).toBe(201);
    const faulted = await fetch(`${mock.baseUrl}/monitors`, { headers: { Authorization: 'Service-oauthtoken x' } });
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get('retry-after')).toBe('1');
    expect(await faulted.json()).toEqual({ code: 503, message: 'Service Unavailable' });
    const reset = await post('/__mock/reset');
    expect(reset.status).toBe(204);
    expect((await (await fetch(`${mock.authUrl}/__mock/state`)).json()).tokens.clients).toBe(0);
  });

  it('a wrong body is a 400 naming the fault; an unknown endpoint 404; a wrong method 405', async () => {
    const grant = await post('/__mock/grant-codes', { client_id: 'nobody', scope: 'Service.Admin.Read' });
    expect(grant.status).toBe(400);
    expect((await grant.json()).message).toMatch(/client_id must be the client_id of a client registered with POST \/__mock\/clients/);
    const client = await (await post('/__mock/clients')).json();
    const validity = await post('/__mock/grant-codes', { client_id: client.client_id, scope: 'Service.Admin.Read', validity_minutes: 11 });
    expect((await validity.json()).message).toMatch(/validity_minutes must be a whole number from 3 to 10/);
    const scope = await post('/__mock/grant-codes', { client_id: client.client_id, scope: 'Service.Admin.Read,Admin.Write' });
    expect((await scope.json()).message).toMatch(/"Admin.Write", not a scope of the documents/);
    expect((await post('/__mock/clock', { advance_ms: -1 })).status).toBe(400);
    expect((await post('/__mock/nope')).status).toBe(404);
    const method = await fetch(`${mock.authUrl}/__mock/state`, { method: 'DELETE' });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, PUT');
  });

  it('no web page drives it: another Origin 403, a rebound Host 421, a text/plain body 415; nothing is done', async () => {
    const { now: _now, ...before } = mock.control.state();
    const page = await fetch(`${mock.authUrl}/__mock/clients`, { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(page.status).toBe(403);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const rebound = await send(mock.authUrl, '/__mock/reset', { method: 'POST', headers: { Host: `rebound.example:${mock.port}` } });
    expect(rebound.status).toBe(421);
    const plain = await fetch(`${mock.authUrl}/__mock/clients`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    expect(plain.status).toBe(415);
    expect(mock.control.state()).toMatchObject(before);
    const own = await fetch(`${mock.authUrl}/__mock/state`, { headers: { Origin: mock.authUrl } });
    expect(own.status).toBe(200);
    // The API and the identity provider keep their CORS: browser apps under test call them.
    const api = await fetch(`${mock.baseUrl}/monitors`, {
      headers: { Authorization: 'Service-oauthtoken x', Origin: 'https://app.example' },
    });
    expect([api.status, api.headers.get('access-control-allow-origin')]).toEqual([200, 'https://app.example']);
  });

  it('beyond loopback: off without a token, and with one only for calls that carry it', async () => {
    const open = await startMock({ host: '0.0.0.0' });
    const guarded = await startMock({ host: '0.0.0.0', testApiToken: 'test-token-0123456789' });
    try {
      const off = await fetch(`http://127.0.0.1:${open.port}/__mock/state`);
      expect(off.status).toBe(403);
      expect((await off.json()).message).toMatch(/MOCK_TEST_API_TOKEN=TOKEN in its environment/);
      const at = `http://127.0.0.1:${guarded.port}/__mock/state`;
      expect((await fetch(at)).status).toBe(401);
      expect((await fetch(at, { headers: { Authorization: 'Bearer test-token-0123456789' } })).status).toBe(200);
      const api = await fetch(`http://127.0.0.1:${open.port}/api/monitors`, { headers: { Authorization: 'Service-oauthtoken x' } });
      expect(api.status).toBe(200);
    } finally {
      await Promise.all([open.stop(), guarded.stop()]);
    }
  });

  it('stop() ends an answer still waiting on a scripted delay', async () => {
    const slow = await startMock();
    slow.control.fault({ operation: 'listMonitors', delay_ms: 60_000 });
    const pending = fetch(`${slow.baseUrl}/monitors`, { headers: { Authorization: 'Service-oauthtoken x' } }).then(
      (response) => response.status,
      () => 'no answer',
    );
    // The fault is taken once the request reached the simulator.
    while (slow.control.state().faults.length > 0) await new Promise((resolve) => setImmediate(resolve));
    await slow.stop();
    expect(String(await pending)).toMatch(/^(500|no answer)$/);
  });

  it("mode 'examples' has no test API, and replays the examples", async () => {
    const examples = await startMock({ mode: 'examples' });
    try {
      const reply = await fetch(`${examples.authUrl}/__mock/state`);
      expect(reply.status).toBe(404);
      expect((await reply.json()).message).toMatch(/the test API .* is the simulator's/);
      const monitor = await fetch(`${examples.baseUrl}/monitors/123`, { headers: { Authorization: 'Service-oauthtoken x' } });
      expect((await monitor.json()).data.monitor_id).toBe('169863000000025001');
      expect(() => examples.control.state()).toThrow(/needs the simulator/);
    } finally {
      await examples.stop();
    }
  });
});
