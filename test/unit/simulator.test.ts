// The simulator's parts that need no engine: the seed's schema check, the zaaid cookie, the seeded random faults,
// the identity provider's limits on an injected clock.
import { describe, expect, it } from 'vitest';
import { compileRoutes, type RouteOperation } from '../../src/description/routes.js';
import { type Answer, createCall } from '../../src/http/exchange.js';
import { createAccounts, createdGroupBounds, keptBytes, zaaidOf } from '../../src/simulator/accounts.js';
import { createClock, serviceTime } from '../../src/simulator/clock.js';
import { createFaults } from '../../src/simulator/faults.js';
import { createSimulator, type Simulator } from '../../src/simulator/index.js';
import { checkSeed, defaultSeed, SeedError } from '../../src/simulator/seed.js';
import {
  type AccessToken,
  BoundedMap,
  ClientMap,
  emptyStore,
  heldBytes,
  maxCredentialLength,
  type RefreshToken,
  recordBytes,
  rememberedRecords,
} from '../../src/simulator/token-store.js';
import { createTokenAuthority } from '../../src/simulator/tokens.js';
import { loadBundle } from '../support/bundle.js';

const bundle = loadBundle();

describe('the seed', () => {
  it("by default, the description's examples", () => {
    const seed = defaultSeed(bundle);
    expect(seed.account.monitors).toEqual([{ monitor_id: '169863000000025001' }, { monitor_id: '169863000000025017' }]);
    expect(seed.customers.map((customer) => customer.zaaid)).toEqual(['700000123', '700000456']);
    expect(seed.business_units.map((unit) => unit.zaaid)).toEqual(['800000111', '800000222']);
  });

  it("a seed's faults, each at its JSON pointer, from the description's schemas", () => {
    const faults = (value: unknown) => {
      try {
        checkSeed(bundle, value, 'seed.json');
        return [];
      } catch (error) {
        return (error as SeedError).faults;
      }
    };
    expect(faults({ account: { device_key: 7 } })).toEqual([{ pointer: '/account/device_key', message: 'must be string, not integer' }]);
    expect(
      faults({
        customers: [
          { name: 'A', zaaid: '1' },
          { name: 'B', zaaid: '1' },
        ],
      }),
    ).toEqual([{ pointer: '/customers/1/zaaid', message: 'repeats the zaaid of /customers/0' }]);
    expect(faults({ account: { monitors: [{ monitor_id: '1' }, { monitor_id: '1' }] } })).toEqual([
      { pointer: '/account/monitors/1/monitor_id', message: 'repeats the monitor_id "1"' },
    ]);
    expect(faults({ business_units: [{ name: 'A', zaaid: '700000123', groups: [{ display_name: '' }] }] })).toEqual([
      { pointer: '/business_units/0/groups/0/display_name', message: 'must not be empty' },
      { pointer: '/business_units/0/zaaid', message: 'repeats the zaaid of the default customers entry Acme Retail' },
    ]);
    expect(faults([])).toEqual([{ pointer: '', message: 'must be a JSON object with account, customers and/or business_units' }]);
  });
});

describe('the zaaid cookie', () => {
  it('is read among other cookies, in one header or several', () => {
    expect(zaaidOf('zaaid=700000123')).toBe('700000123');
    expect(zaaidOf('theme=dark; zaaid = 42 ;lang=en')).toBe('42');
    expect(zaaidOf(['theme=dark', 'zaaid=9'])).toBe('9');
    expect(zaaidOf('zaaidx=1; other=zaaid=2')).toBeUndefined();
    expect(zaaidOf(undefined)).toBeUndefined();
  });
});

describe('random faults', () => {
  it('the same seed gives the same sequence; another seed another one', () => {
    const sequence = (seed: number) => {
      const faults = createFaults({ operations: ['listMonitors'], random: { seed, rate: 0.5, statuses: [500, 503], latency_ms: [0, 9] } });
      return Array.from({ length: 50 }, () => faults.next('listMonitors')).map((fault) => `${fault?.status ?? 200}/${fault?.delayMs ?? 0}`);
    };
    expect(sequence(1)).toEqual(sequence(1));
    expect(sequence(1)).not.toEqual(sequence(2));
    expect(new Set(sequence(1).map((entry) => entry.split('/')[0]))).toEqual(new Set(['200', '500', '503']));
  });

  it('control.randomFaults gives the settings in force, with their defaults, as POST /__mock/faults does', () => {
    const sim = createSimulator(bundle);
    const settings = { seed: 7, rate: 0.25 };
    const expected = { seed: 7, rate: 0.25, statuses: [500, 503], latency_ms: [0, 0] };
    expect(sim.control.randomFaults(settings)).toEqual(expected);
    const over = send(sim, 'POST', '/__mock/faults', settings);
    expect(over).toMatchObject({ status: 201, json: expected });
    expect(sim.control.state().random_faults).toEqual(expected);
    expect(sim.control.randomFaults(undefined)).toBeNull();
    expect(sim.control.state().random_faults).toBeNull();
  });

  it('a script goes first, for count answers, then the random draw alone', () => {
    const faults = createFaults({ operations: ['getMonitor'] });
    faults.script({ operation: 'getMonitor', status: 429, retry_after_s: 3, count: 2 });
    expect([1, 2, 3].map(() => faults.next('getMonitor')?.status)).toEqual([429, 429, undefined]);
  });
});

describe('the clock', () => {
  it('moves only by a whole number of milliseconds that keeps it within the years the format writes', () => {
    const clock = createClock(() => Date.UTC(2026, 10, 21, 10));
    for (const ms of [300_000_000_000_000, 9_000_000_000_000_000, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => clock.advance(ms), String(ms)).toThrow(RangeError);
    expect(serviceTime(clock.now())).toBe('2026-11-21T10:00:00+0000');
    const last = Date.UTC(9999, 11, 31, 23, 59, 59);
    expect(serviceTime(clock.advance(last - clock.now()))).toBe('9999-12-31T23:59:59+0000');
    expect(() => clock.advance(1000)).toThrow(/past 9999-12-31T23:59:59\+0000/);
    expect(serviceTime(clock.now())).toBe('9999-12-31T23:59:59+0000');
  });
});

describe('the identity provider on an injected clock', () => {
  const authority = (strict = false) => {
    let now = Date.UTC(2026, 10, 21, 10);
    const clock = createClock(() => now);
    const tokens = createTokenAuthority({ clock, strict, scopes: ['Service.Admin.Read'] });
    return { tokens, clock, later: (ms: number) => (now += ms) };
  };

  it('the access token expires after 3600 s, whether the clock is advanced or its source moves', () => {
    const { tokens, clock, later } = authority();
    const client = tokens.registerClient();
    const { code } = tokens.grantCode({ ...client, scope: 'Service.Admin.Read' });
    const issued = tokens.exchange({ ...client, code });
    if (!issued.ok) throw new Error(issued.refusal.description);
    clock.advance(1800_000);
    expect(tokens.authenticate(issued.tokens.access_token).ok).toBe(true);
    later(1800_000);
    expect(tokens.authenticate(issued.tokens.access_token)).toEqual({
      ok: false,
      behaviour: 'access-token-expired',
      reason: 'the access token expired at 2026-11-21T11:00:00+0000 (expires_in 3600 s): get a new one with grant_type=refresh_token',
    });
  });

  it('a grant token of an unknown scope or validity is refused at generation', () => {
    const { tokens } = authority();
    const client = tokens.registerClient();
    expect(() => tokens.grantCode({ ...client, scope: 'Service.Admin.Write' })).toThrow(/not a scope of the documents/);
    expect(() => tokens.grantCode({ ...client, scope: 'Service.Admin.Read', validity_minutes: 2 })).toThrow(/from 3 to 10/);
  });

  it('what it issued or revoked outlives any number of made-up tokens, and a revoked token is never adopted again', () => {
    const { tokens } = authority();
    const client = tokens.registerClient();
    const { code } = tokens.grantCode({ ...client, scope: 'Service.Admin.Read' });
    const issued = tokens.exchange({ ...client, code });
    if (!issued.ok) throw new Error(issued.refusal.description);
    const ownRefresh = issued.tokens.refresh_token!;
    const madeUp = { client_id: '1000.MADEUP', client_secret: 'made-up-secret' };
    expect(tokens.refresh({ ...madeUp, refresh_token: 'made-up-refresh-to-revoke' }).ok).toBe(true);
    expect(tokens.revoke(ownRefresh)).toBeUndefined();
    expect(tokens.revoke('made-up-refresh-to-revoke')).toBeUndefined();
    // Any page can send these (a form POST needs no preflight).
    for (let index = 0; index <= rememberedRecords.refreshTokens; index++) tokens.refresh({ ...madeUp, refresh_token: `flood-${index}` });
    expect(tokens.refresh({ ...client, refresh_token: ownRefresh })).toMatchObject({ ok: false, refusal: { error: 'invalid_grant' } });
    expect(tokens.refresh({ ...madeUp, refresh_token: 'made-up-refresh-to-revoke' })).toMatchObject({
      ok: false,
      refusal: { description: expect.stringMatching(/^the refresh_token was revoked at/) },
    });
    expect(tokens.authenticate(issued.tokens.access_token)).toMatchObject({ ok: false, reason: expect.stringMatching(/revoked/) });
  });

  it('strict: a made-up credential is refused at each step; lenient: adopted', () => {
    expect(authority(true).tokens.authenticate('made-up')).toMatchObject({ ok: false });
    expect(authority(true).tokens.revoke('made-up')).toMatchObject({ error: 'invalid_grant' });
    const { tokens } = authority();
    expect(tokens.authenticate('made-up')).toEqual({ ok: true, scopes: 'every' });
    expect(tokens.refresh({ client_id: 'id', client_secret: 'secret', refresh_token: 'made-up' }).ok).toBe(true);
    expect(tokens.counts().refresh_tokens).toEqual({ active: 0, revoked: 0, deleted: 0 });
  });
});

/** A call of the test API, answered in-process. */
const send = (sim: Simulator, method: string, url: string, body?: unknown, contentType = 'application/json') => {
  const answer = sim.controlAnswer(
    createCall({
      method,
      url,
      headers: body === undefined ? {} : { 'content-type': contentType },
      body: Buffer.from(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)),
    }),
  );
  return { ...answer, json: answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : undefined };
};

describe('the test API, in-process', () => {
  const simulator = () => createSimulator(bundle, { clock: () => Date.UTC(2026, 10, 21, 10) });

  it('takes JSON bodies only (415), and does nothing for another media type', () => {
    const sim = simulator();
    const plain = send(sim, 'POST', '/__mock/clients', '{}', 'text/plain');
    expect(plain.status).toBe(415);
    expect(plain.json.message).toMatch(/Content-Type: application\/json \(not "text\/plain"\)/);
    expect(send(sim, 'POST', '/__mock/reset', 'x=1', 'application/x-www-form-urlencoded').status).toBe(415);
    expect(sim.control.state().tokens.clients).toBe(0);
    expect(send(sim, 'POST', '/__mock/clients').status).toBe(201);
  });

  it("an unknown endpoint is a 404 listing every endpoint with its methods, the journal's, the coverage's and PUT /__mock/state too", () => {
    const answer = send(simulator(), 'POST', '/__mock/nope');
    expect(answer.status).toBe(404);
    expect(answer.json.message).toMatch(
      /GET, PUT \/__mock\/state;.*GET, DELETE \/__mock\/requests; GET \/__mock\/requests\/\{id\}; GET, DELETE \/__mock\/coverage\)$/,
    );
  });

  it('answers without CORS headers, so that no page of another origin reads them', () => {
    const sim = simulator();
    for (const answer of [
      send(sim, 'GET', '/__mock/state'),
      send(sim, 'POST', '/__mock/clients', {}),
      send(sim, 'OPTIONS', '/__mock/clients'),
      send(sim, 'POST', '/__mock/nope'),
      send(sim, 'POST', '/__mock/clock', { advance_ms: -1 }),
    ])
      expect(Object.keys(answer.headers).filter((name) => name.toLowerCase().startsWith('access-control-'))).toEqual([]);
  });

  it('an unknown key or an unknown operation is a 400 naming it, and nothing is done', () => {
    const sim = simulator();
    const { client_id } = sim.control.registerClient();
    const cases: [string, unknown, RegExp][] = [
      ['/__mock/grant-codes', { bogus: 1 }, /"bogus"/],
      ['/__mock/grant-codes', { client_id, scope: 'Service.Admin.Read', validity_minute: 3 }, /"validity_minute"/],
      ['/__mock/faults', { operation: 'listMonitors', status: 500, cont: 2 }, /"cont"/],
      ['/__mock/faults', { operation: 'listMonitorz', status: 500 }, /"listMonitorz"/],
      ['/__mock/faults', { seed: 1, rate: 0.5, latency: [0, 1] }, /"latency"/],
      ['/__mock/clock', { advance_ms: 1, extra: true }, /"extra"/],
      ['/__mock/clients', { name: 'x' }, /"name"/],
      ['/__mock/reset', { now: true }, /"now"/],
    ];
    for (const [url, body, named] of cases) {
      const answer = send(sim, 'POST', url, body);
      expect(answer.status, url).toBe(400);
      expect(answer.json.message, url).toMatch(named);
    }
    const state = sim.control.state();
    expect([state.tokens.clients, state.tokens.grant_codes.unused, state.faults.length, state.random_faults]).toEqual([1, 0, 0, null]);
  });

  it("a state with a million faults answers a 400 that names the first 10 and counts the rest, as SeedError's message", () => {
    const sim = simulator();
    const body = `{"account":{"monitors":[${Array.from({ length: 500_000 }, () => '1').join(',')}]}}`; // 1 MiB
    const answer = send(sim, 'PUT', '/__mock/state', body);
    expect(answer.status).toBe(400);
    const message: string = answer.json.message;
    expect(message).toMatch(/^Bad Request: the state is not a valid seed, so it did not change: \/account\/monitors\/0: must be object/);
    expect(message.match(/must be object/g)).toHaveLength(10);
    expect(message).toMatch(/; and 90 more \(the check stops at 100\)$/);
    expect(answer.body.length).toBeLessThan(2048);
    expect(sim.control.state().account.monitors).toEqual(defaultSeed(bundle).account.monitors);
  });

  it('a clock advance it cannot take is a 400 that moves nothing; the state still answers', () => {
    const sim = simulator();
    for (const advance_ms of [300_000_000_000_000, 9_000_000_000_000_000, 1e300, '5', null])
      expect(send(sim, 'POST', '/__mock/clock', { advance_ms }).status, String(advance_ms)).toBe(400);
    expect(send(sim, 'GET', '/__mock/state').json.now).toBe('2026-11-21T10:00:00+0000');
  });
});

/** The operation of the bundle with this operationId, as the mock's routes give it. */
const operationOf = (id: string): RouteOperation =>
  compileRoutes(bundle)
    .flatMap((route) => [...route.operations.values()])
    .find((operation) => operation.operationId === id)!;

/** What the engine would answer for a call the contract accepts: the operation's first example of its success. */
const engineExample = (operation: RouteOperation): Answer => {
  const [status, examples] = Object.entries(operation.examples).find(([code]) => code.startsWith('2'))!;
  return {
    status: Number(status),
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify(Object.values(examples)[0])),
  };
};

describe('the groups calls create are bounded', () => {
  const seed = () => {
    const base = defaultSeed(bundle);
    return { ...base, account: { ...base.account, groups: [{ display_name: 'seeded' }] } };
  };

  it("past the count, the oldest created group is forgotten (a seed's own groups stay)", () => {
    const accounts = createAccounts(seed());
    const customer = accounts.actingOn('700000123')!;
    for (let index = 0; index <= createdGroupBounds.groups; index++)
      accounts.addGroup(index % 2 ? customer : accounts.own, { display_name: `group ${index}` });
    const names = [...accounts.own.groups, ...customer.groups].map((group) => group.display_name);
    expect(names).toHaveLength(createdGroupBounds.groups + 1);
    expect(names).toContain('seeded');
    expect(names).not.toContain('group 0');
    expect(names).toContain('group 1');
  });

  it('the bytes counted are those the parsed group holds in memory, not those of its text', () => {
    const accounts = createAccounts(seed());
    // 420 KB of empty objects hold some 20 times as much once parsed (9 MiB counted): only the newest such group stays.
    const empties = Array.from({ length: 140_000 }, () => ({}));
    for (let index = 0; index < 3; index++) accounts.addGroup(accounts.own, { display_name: `empties ${index}`, e: empties });
    expect(accounts.own.groups.map((group) => group.display_name)).toEqual(['seeded', 'empties 2']);
    expect(keptBytes([{}, {}])).toBeGreaterThan(15 * '[{},{}]'.length);
  });

  it('past the bytes, the oldest created groups are forgotten, the newest kept whatever its size', () => {
    const accounts = createAccounts(seed());
    const third = 'x'.repeat(Math.floor(createdGroupBounds.bytes / 3));
    for (let index = 0; index < 4; index++) accounts.addGroup(accounts.own, { display_name: `big ${index}`, note: third });
    expect(accounts.own.groups.map((group) => group.display_name)).toEqual(['seeded', 'big 2', 'big 3']);
    accounts.addGroup(accounts.own, { display_name: 'huge', note: third.repeat(7) });
    expect(accounts.own.groups.map((group) => group.display_name)).toEqual(['seeded', 'huge']);
    accounts.reset();
    expect(accounts.own.groups.map((group) => group.display_name)).toEqual(['seeded']);
  });
});

describe('what the identity provider remembers is bounded', () => {
  it('a BoundedMap forgets its oldest entry past its limit', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map.keys()]).toEqual(['b', 'c']);
  });

  it("a ClientMap knows its clients' secrets, and forgets one with its client (past the bound, deleted, replaced)", () => {
    const clients = new ClientMap(2);
    const client = (id: string, secret?: string) => ({ id, secret, refreshTokensGenerated: [] });
    clients.set('a', client('a', 'secret-a')).set('b', client('b', 'secret-b')).set('c', client('c', 'secret-c'));
    expect(['secret-a', 'secret-b', 'secret-c'].map((secret) => clients.holdsSecret(secret))).toEqual([false, true, true]);
    clients.delete('b');
    clients.set('c', client('c'));
    expect([clients.holdsSecret('secret-b'), clients.holdsSecret('secret-c')]).toEqual([false, false]);
  });

  it('a made-up client is kept only when its request is granted (lenient): a refused one leaves nothing', () => {
    const tokens = createTokenAuthority({ clock: createClock(() => Date.UTC(2026, 10, 21, 10)), strict: false, scopes: [] });
    expect(tokens.refresh({ client_id: 'client-a', client_secret: 's', refresh_token: 'refresh-a' }).ok).toBe(true);
    const refused = tokens.refresh({ client_id: 'client-b', client_secret: 's', refresh_token: 'refresh-a' });
    expect(refused.ok).toBe(false);
    expect(tokens.remembered().clients).toBe(1);
  });

  it('made-up clients and refresh tokens, many of them, are remembered up to the bound (lenient)', () => {
    let now = Date.UTC(2026, 10, 21, 10);
    const tokens = createTokenAuthority({ clock: createClock(() => now), strict: false, scopes: [] });
    for (let index = 0; index < 2_500; index++) {
      now += 1;
      tokens.refresh({ client_id: `client-${index}`, client_secret: 's', refresh_token: `refresh-${index}` });
      tokens.exchange({ client_id: `client-${index}`, client_secret: 's', code: `code-${index}` });
    }
    const remembered = tokens.remembered();
    expect(remembered.clients).toBe(rememberedRecords.clients);
    expect(remembered.grant_codes).toBe(rememberedRecords.grantCodes);
    expect(remembered.refresh_tokens).toBe(rememberedRecords.refreshTokens);
    expect(remembered.access_tokens).toBeLessThanOrEqual(rememberedRecords.accessTokens);
  });

  /** The bytes an object graph holds, about as V8 keeps it (keptBytes' measure), Maps and Sets included; `skip` is counted elsewhere. */
  function graphBytes(root: unknown, skip: ReadonlySet<unknown>): number {
    const seen = new Set<unknown>();
    const stack = [root];
    let bytes = 0;
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value === 'string') bytes += 16 + value.length;
      if (typeof value === 'number') bytes += 8;
      if (typeof value !== 'object' || value === null || seen.has(value) || skip.has(value)) continue;
      seen.add(value);
      if (value instanceof Map || value instanceof Set) {
        bytes += 16 + 24 * value.size;
        for (const entry of value instanceof Map ? [...value].flat() : value) stack.push(entry);
      } else {
        const keys = Object.keys(value);
        bytes += 56 + 8 * keys.length;
        for (const key of keys) stack.push((value as Record<string, unknown>)[key]);
      }
    }
    return bytes;
  }

  it('each record the identity provider keeps holds at most what the worlds count it for, at its longest', () => {
    const store = emptyStore();
    const longest = (tag: string) => tag.repeat(maxCredentialLength).slice(0, maxCredentialLength);
    const scopes = Array.from({ length: 30 }, (_, index) => `Service.Area${index}.Action`);
    const times = (count: number) => Array.from({ length: count }, (_, index) => Date.UTC(2026, 10, 21, 10) + index);
    const client = { id: longest('c'), secret: longest('s'), refreshTokensGenerated: times(21) };
    store.own.clients.set(client.id, client);
    const code = { clientId: longest('i'), role: 10, scopes, expiresAt: 1, validityMinutes: 10, usedAt: 1 };
    store.own.codes.set(longest('g'), code);
    const refresh: RefreshToken = {
      value: longest('r'),
      clientId: longest('j'),
      role: 1,
      scopes: new Set(scopes),
      adopted: false,
      records: store.own,
      ended: { reason: 'revoked', at: 1 },
      accessTokensGenerated: times(11),
      accessTokens: [],
    };
    const access: AccessToken[] = Array.from({ length: 11 }, (_, index) => ({
      value: longest(String(index)),
      refresh,
      expiresAt: 1,
      evictedAt: 1,
    }));
    refresh.accessTokens = access;
    store.own.refreshTokens.set(refresh.value, refresh);
    for (const token of access) store.own.accessTokens.set(token.value, token);
    const skip = new Set<unknown>([store.own, refresh, ...access]);
    // What a record holds, with its key and its slot in its map (24 bytes).
    expect(graphBytes(client, skip) + 24 + graphBytes(client.secret, skip)).toBeLessThanOrEqual(recordBytes.client);
    expect(graphBytes(code, skip) + 24 + 16 + maxCredentialLength).toBeLessThanOrEqual(recordBytes.grantCode);
    expect(graphBytes({ ...refresh, accessTokens: [...refresh.accessTokens] }, new Set([store.own, ...access])) + 24).toBeLessThanOrEqual(
      recordBytes.refreshToken,
    );
    expect(graphBytes({ ...access[0]! }, new Set([refresh])) + 24).toBeLessThanOrEqual(recordBytes.accessToken);
    expect(heldBytes(store)).toBe(recordBytes.client + recordBytes.grantCode + recordBytes.refreshToken + 11 * recordBytes.accessToken);
  });

  it('a grant keeps each scope once, whatever the length of the list it was asked with', () => {
    const tokens = createTokenAuthority({ clock: createClock(() => 0), strict: false, scopes: ['Service.Admin.Read'] });
    const { client_id } = tokens.registerClient();
    tokens.grantCode({ client_id, scope: Array(50_000).fill('Service.Admin.Read').join(',') });
    expect(tokens.heldBytes()).toBe(recordBytes.client + recordBytes.grantCode);
  });

  it('a grant type the token endpoint does not take is unsupported_grant_type; none at all, invalid_request (RFC 6749, section 5.2)', async () => {
    const sim = createSimulator(bundle, { clock: () => Date.UTC(2026, 10, 21, 10) });
    const operation = operationOf('requestToken');
    for (const [form, error] of [
      ['grant_type=client_credentials&client_id=id&client_secret=secret', 'unsupported_grant_type'],
      ['client_id=id&client_secret=secret&code=c', 'invalid_request'],
    ] as const) {
      const call = tokenRequest(form);
      const { answer } = await sim.answer(call, operation, engineExample(operation));
      expect([answer.status, JSON.parse(answer.body.toString('utf8'))], form).toEqual([
        400,
        { code: 400, message: expect.stringMatching(/^Bad Request: grant_type must be authorization_code or refresh_token/), error },
      ]);
    }
  });

  it('a credential parameter longer than any the mock issues is a 400 naming it, and nothing is remembered', async () => {
    const sim = createSimulator(bundle, { clock: () => Date.UTC(2026, 10, 21, 10) });
    const operation = operationOf('requestToken');
    for (const name of ['client_id', 'client_secret', 'refresh_token']) {
      const values = {
        grant_type: 'refresh_token',
        client_id: 'id',
        client_secret: 'secret',
        refresh_token: 'refresh',
        [name]: 'x'.repeat(400_000),
      };
      const call = tokenRequest(new URLSearchParams(values).toString());
      const { answer } = await sim.answer(call, operation, engineExample(operation));
      expect(answer.status, name).toBe(400);
      expect(JSON.parse(answer.body.toString('utf8')), name).toMatchObject({
        error: 'invalid_request',
        message: expect.stringMatching(new RegExp(`^Bad Request: ${name} has 400000 characters; the mock reads at most 256`)),
      });
    }
  });
});

/** A call the contract accepts, answered by a simulator as the mock's handler would after the engine. */
async function ask(sim: Simulator, operationId: string, options: { url?: string; token?: string; cookie?: string; body?: unknown } = {}) {
  const operation = operationOf(operationId);
  const headers: Record<string, string> = { authorization: `Service-oauthtoken ${options.token ?? 'made-up'}` };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json;charset=UTF-8';
  const call = createCall({
    method: operation.method.toUpperCase(),
    url: options.url ?? operation.template,
    headers,
    body: Buffer.from(options.body === undefined ? '' : JSON.stringify(options.body)),
  });
  const { answer, behaviours } = await sim.answer(call, operation, engineExample(operation));
  return { status: answer.status, json: JSON.parse(answer.body.toString('utf8')), behaviours };
}

/** An access token of a user with this role, from a grant token of the simulator's identity provider. */
async function tokenOf(sim: Simulator, role?: number, scope = 'Service.Admin.All') {
  const client = sim.control.registerClient();
  const { code } = sim.control.grantCode({ client_id: client.client_id, scope, ...(role === undefined ? {} : { role }) });
  const operation = operationOf('requestToken');
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, ...client }).toString();
  const { answer } = await sim.answer(tokenRequest(form), operation, engineExample(operation));
  return JSON.parse(answer.body.toString('utf8')) as { access_token: string; api_domain: string };
}

/** A POST of form fields to the token endpoint. */
function tokenRequest(form: string) {
  return createCall({
    method: 'POST',
    url: '/oauth/v2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: Buffer.from(form),
  });
}

describe('roles (core document, section 5.2; role IDs of the constants document)', () => {
  const group = { display_name: 'Payments' };

  it('Super Administrator and Administrator read and create; Read Only, Operator, SpokesPerson and Hosting Provider only read', async () => {
    const sim = createSimulator(bundle);
    for (const role of [1, 2, 3, 5, 6, 10]) {
      const { access_token } = await tokenOf(sim, role);
      expect((await ask(sim, 'listMonitors', { token: access_token })).status, `role ${role}`).toBe(200);
      const created = await ask(sim, 'createMonitorGroup', { token: access_token, body: group });
      expect(created.status, `role ${role}`).toBe(role <= 2 ? 200 : 403);
      if (role > 2) expect(created.json.message).toMatch(/^Forbidden URL: the user's role, .* \(\d+\), reads but does not create/);
    }
    expect(sim.control.state().account.groups).toEqual([group, group]);
  });

  it('No Access and Billing Contact reach no operation of the API', async () => {
    const sim = createSimulator(bundle);
    for (const [role, name] of [
      [0, 'No Access'],
      [4, 'Billing Contact'],
    ] as const) {
      const { access_token } = await tokenOf(sim, role);
      for (const operation of ['listMonitors', 'getDeviceKey', 'listMspCustomers']) {
        const refused = await ask(sim, operation, { token: access_token });
        expect([refused.status, refused.json.code], operation).toEqual([403, 403]);
        expect(refused.json.message).toContain(`the user's role, ${name} (${role}), gives no access`);
      }
    }
  });

  it("a grant token without a role, and a credential the mock never issued, act with the seed's role (default 1)", async () => {
    const sim = createSimulator(bundle, { seed: { account: { role: 10 } } });
    expect((await ask(sim, 'createMonitorGroup', { body: group })).status).toBe(403);
    const { access_token } = await tokenOf(sim);
    expect((await ask(sim, 'createMonitorGroup', { token: access_token, body: group })).status).toBe(403);
    expect((await ask(sim, 'createMonitorGroup', { body: group })).status).toBe(403);
    expect((await ask(createSimulator(bundle), 'createMonitorGroup', { body: group })).status).toBe(200);
  });

  it('a role that is not a role ID of the documents is refused', () => {
    const sim = createSimulator(bundle);
    const { client_id } = sim.control.registerClient();
    expect(() => sim.control.grantCode({ client_id, scope: 'Service.Admin.Read', role: 7 })).toThrow(
      /role must be a role ID of the constants document/,
    );
    expect(() => createSimulator(bundle, { seed: { account: { role: 21 } } })).toThrow(
      /\/account\/role: must be one of 0, 1, 2, 3, 4, 5, 6, 10/,
    );
  });
});

describe('kinds of account (section 1)', () => {
  it('a normal account lists neither customers nor business units: the documented message; the state shows its kind', async () => {
    const sim = createSimulator(bundle, { seed: { account: { type: 'normal' } } });
    for (const operation of ['listMspCustomers', 'listBusinessUnits']) {
      const refused = await ask(sim, operation);
      expect([refused.status, refused.json.message], operation).toEqual([403, 'You are not authorized to perform this operation.']);
    }
    const state = sim.control.state();
    expect([state.account.type, state.customers, state.business_units]).toEqual(['normal', [], []]);
    expect((await ask(sim, 'listMonitors', { cookie: 'zaaid=700000123' })).status).toBe(403);
  });

  it('an MSP account lists its customers and not business units; a BU portal the other way round', async () => {
    const msp = createSimulator(bundle, { seed: { account: { type: 'msp' } } });
    expect((await ask(msp, 'listMspCustomers')).json.data.map((entry: { zaaid: string }) => entry.zaaid)).toEqual([
      '700000123',
      '700000456',
    ]);
    expect((await ask(msp, 'listBusinessUnits')).status).toBe(403);
    const portal = createSimulator(bundle, { seed: { account: { type: 'bu_portal' } } });
    expect((await ask(portal, 'listBusinessUnits')).status).toBe(200);
    expect((await ask(portal, 'listMspCustomers')).status).toBe(403);
  });

  it("a list of accounts refused for a customer's account plays the refusal, not the customer's account", async () => {
    const sim = createSimulator(bundle);
    const refused = await ask(sim, 'listMspCustomers', { cookie: 'zaaid=700000123' });
    expect([refused.status, refused.behaviours]).toEqual([403, ['account-kind-refused']]);
    expect((await ask(sim, 'listMonitors', { cookie: 'zaaid=700000123' })).behaviours).toEqual(['customer-account']);
  });

  it('the default is both at once; a kind that is none, or managed accounts the kind has not, are seed faults', () => {
    expect(createSimulator(bundle).control.state().account.type).toBe('msp_and_bu_portal');
    expect(() => createSimulator(bundle, { seed: { account: { type: 'enterprise' } } })).toThrow(
      /\/account\/type: must be one of "normal"/,
    );
    expect(() => createSimulator(bundle, { seed: { account: { type: 'normal' }, customers: [{ name: 'A', zaaid: '1' }] } })).toThrow(
      /\/customers: must be empty: a normal account has no customers/,
    );
  });

  it('a kind named as a property every object has (toString, constructor...) is a seed fault, not a TypeError', () => {
    for (const type of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      const error = (() => {
        try {
          createSimulator(bundle, { seed: { account: { type } } });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, type).toBeInstanceOf(SeedError);
      expect((error as SeedError).faults, type).toEqual([
        { pointer: '/account/type', message: expect.stringMatching(/^must be one of "normal"/) },
      ]);
      const answer = send(createSimulator(bundle), 'PUT', '/__mock/state', { account: { type } });
      expect([answer.status, answer.json.message], type).toEqual([400, expect.stringMatching(/\/account\/type: must be one of "normal"/)]);
    }
  });
});

describe('GET /monitor_type_constants and the token answers', () => {
  it('answers every monitor type the description documents', async () => {
    const known: string[] = bundle.components.schemas.KnownMonitorType.enum;
    const answer = await ask(createSimulator(bundle), 'listMonitorTypes');
    expect(answer.json.data).toHaveLength(172);
    expect(answer.json.data.map((entry: { id: string }) => entry.id)).toEqual(known);
    // The names are the constants document's parentheticals, and only those: every other type is named by its ID
    // (the heading of a list, `VEEAM-type and backup-type monitors`, names no one type).
    const parentheticals: Record<string, string> = {
      URL: 'website',
      HOMEPAGE: 'page speed, browser',
      'URL-SEQ': 'web transaction',
      REALBROWSER: 'web transaction, browser',
      PORT: 'custom protocol',
      SMTP: 'mail delivery',
      FTP: 'transfer',
      VENDOR: 'cloud services parent',
      VPC_NI: 'used for both subnet and network interface',
    };
    expect(answer.json.data).toEqual(known.map((id) => ({ id, name: parentheticals[id] ?? id })));
    expect(known).toContain('PROBE_CAPACITY');
  });

  it("api_domain is the mock's own API root", async () => {
    expect((await tokenOf(createSimulator(bundle))).api_domain).toBe('https://mock.invalid/api');
    expect((await tokenOf(createSimulator(bundle, {}, { apiRoot: () => 'http://127.0.0.1:4010/api' }))).api_domain).toBe(
      'http://127.0.0.1:4010/api',
    );
  });
});

describe('the state round-trips', () => {
  it('after a sequence of test API and API calls, the state seeds a mock whose state is the same', async () => {
    const sim = createSimulator(bundle, { clock: () => Date.UTC(2026, 10, 21, 10), seed: { account: { type: 'msp', role: 2 } } });
    const { access_token } = await tokenOf(sim, 1);
    await ask(sim, 'createMonitorGroup', {
      token: access_token,
      body: { display_name: 'Edge', description: 'CDN', team: { on_call: ['a'] } },
    });
    // A group as deep as a body may be (256 levels, the group itself the first).
    const deepest = JSON.parse(`${'['.repeat(255)}${']'.repeat(255)}`);
    await ask(sim, 'createMonitorGroup', { cookie: 'zaaid=700000456', body: { display_name: 'Customer', nested: deepest } });
    sim.control.advanceClock(3_600_000);
    sim.control.fault({ operation: 'listMonitors', status: 503, retry_after_s: 2, count: 2 });
    sim.control.randomFaults({ seed: 3, rate: 0.1 });
    expect(send(sim, 'POST', '/__mock/clock', { advance_ms: 9e15 }).status).toBe(400);
    const state = JSON.parse(JSON.stringify(sim.control.state()));
    const again = createSimulator(bundle, { clock: () => Date.UTC(2026, 10, 21, 10), seed: state }).control.state();
    const { account, customers, business_units } = state;
    expect(again).toMatchObject({ account, customers, business_units });
    expect(again.account.type).toBe('msp');
  });
});
