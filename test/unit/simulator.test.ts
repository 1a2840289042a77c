// The simulator's parts that need no engine: the seed's schema check, the zaaid cookie, the seeded random faults,
// the identity provider's limits on an injected clock.
import { describe, expect, it } from 'vitest';
import { createClock, serviceTime } from '../../src/simulator/clock.js';
import { createFaults } from '../../src/simulator/faults.js';
import { checkSeed, defaultSeed, type SeedError } from '../../src/simulator/seed.js';
import { zaaidOf } from '../../src/simulator/accounts.js';
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
      reason: 'the access token expired at 2026-11-21T11:00:00+0000 (expires_in 3600 s): get a new one with grant_type=refresh_token',
    });
  });

  it('a grant token of an unknown scope or validity is refused at generation', () => {
    const { tokens } = authority();
    const client = tokens.registerClient();
    expect(() => tokens.grantCode({ ...client, scope: 'Service.Admin.Write' })).toThrow(/not a scope of the documents/);
    expect(() => tokens.grantCode({ ...client, scope: 'Service.Admin.Read', validity_minutes: 2 })).toThrow(/from 3 to 10/);
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
