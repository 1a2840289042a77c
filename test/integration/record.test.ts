// `record`: a seed from a live account (a local service that plays one), read with GET only, signed in as verify
// does, written whole or not at all, and taken by the simulator, which then answers with the recorded monitors.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockFetch } from '../../src/mock/index.js';
import { RecordError, type RecordedSeed, recordSeed, sameFormKey, seedFileText } from '../../src/record/index.js';
import { maxSeedBytes } from '../../src/simulator/seed.js';
import {
  type LiveAccount,
  liveAccessToken,
  liveCredentials,
  liveDeviceKey,
  liveMonitors,
  startLiveAccount,
} from '../support/live-account.js';
import { compiledBin, startCommand } from '../support/processes.js';

const auth = { ...liveCredentials };
let live: LiveAccount;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'record-'));

beforeAll(async () => {
  live = await startLiveAccount();
});
afterAll(() => live.stop());

const record = (options: Partial<Parameters<typeof recordSeed>[0]> = {}, account = live) =>
  recordSeed({ baseUrl: `${account.origin}/api`, authUrl: account.origin, auth, ...options });

describe('recordSeed', () => {
  it('reads the account, its customers and business units and their monitors, with GET only, one token', async () => {
    live.server.clear();
    const lines: string[] = [];
    const seed = await record({ onProgress: (line) => lines.push(line) });
    expect(seed.account.monitors).toEqual(liveMonitors['']);
    expect(seed.account.type).toBe('msp_and_bu_portal');
    expect(seed.customers).toEqual([
      { name: 'Initech', zaaid: '71', monitors: liveMonitors['71'], groups: [] },
      { name: 'Hooli', zaaid: '72', monitors: [], groups: [] },
    ]);
    expect(seed.business_units).toEqual([{ name: 'Europe', zaaid: '81', monitors: liveMonitors['81'], groups: [] }]);
    const sent = live.server.requests.map((request) => `${request.method} ${request.path} ${request.headers.cookie ?? ''}`.trim());
    expect(sent).toEqual([
      'POST /oauth/v2/token',
      'GET /api/device_key',
      'GET /api/monitors',
      'GET /api/short/msp/customers',
      'GET /api/monitors zaaid=71',
      'GET /api/monitors zaaid=72',
      'GET /api/short/bu/business_units',
      'GET /api/monitors zaaid=81',
    ]);
    expect(lines).toContain('customer 71: 1 monitor');
  });

  it('replaces the device key with one of the same form, unless asked to keep it', async () => {
    const replaced = (await record()).account.device_key;
    expect(replaced).toMatch(/^eu_[0-9a-f]{32}$/);
    expect(replaced).not.toBe(liveDeviceKey);
    expect((await record({ keepDeviceKeys: true })).account.device_key).toBe(liveDeviceKey);
    expect(sameFormKey('us_AB12-xy', () => 0)).toBe('us_AA00-aa');
    expect(sameFormKey('us_ABC012', () => 15)).toBe('us_FFFFFF');
  });

  it('anonymizes names and keeps ids', async () => {
    const seed = await record({ anonymize: true });
    expect(seed.customers.map((customer) => [customer.name, customer.zaaid])).toEqual([
      ['Customer 1', '71'],
      ['Customer 2', '72'],
    ]);
    expect(seed.business_units[0]).toMatchObject({ name: 'Business unit 1', zaaid: '81' });
    expect(seed.account.monitors).toEqual([
      { monitor_id: '5001', display_name: 'Monitor 1', type: 'URL' },
      { monitor_id: '5002', display_name: 'Monitor 2', type: 'RESTAPI' },
    ]);
  });

  it('a normal account: no customers or business units, as the service says', async () => {
    const normal = await startLiveAccount('normal');
    try {
      const lines: string[] = [];
      const seed = await record({ onProgress: (line) => lines.push(line) }, normal);
      expect(seed.customers).toEqual([]);
      expect(seed.business_units).toEqual([]);
      expect(seed.account.type).toBe('normal');
      expect(lines.join('\n')).toMatch(/no customers: the service says the account may not list them/);
    } finally {
      await normal.stop();
    }
  });

  it('stops at the first refused call with the service message, and no secret in it', async () => {
    const refusing = await startLiveAccount();
    refusing.refuse('/api/monitors', { status: 500, json: { code: 500, message: `database down for ${liveAccessToken}` } });
    try {
      const error = await record({}, refusing).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RecordError);
      expect((error as Error).message).toMatch(
        /^GET \/monitors \(your account\) was refused, so nothing was written: .*database down for \[redacted\]/,
      );
      expect(refusing.server.requests.filter((request) => request.path === '/api/monitors').length).toBeGreaterThan(0);
    } finally {
      await refusing.stop();
    }
  });

  it("a service answer it cannot read as a seed: a RecordError (the service's fault, exit 1), not an option's", async () => {
    const odd = await startLiveAccount();
    odd.refuse('/api/short/msp/customers', { json: { code: 0, message: 'success', data: [{ name: 'Odd', zaaid: 'x y' }] } });
    try {
      const error = await record({}, odd).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RecordError);
      expect((error as Error).message).toMatch(/^the service's answers cannot be read as a seed, so nothing was written: .*x y/);
    } finally {
      await odd.stop();
    }
  });

  it('a 403 on a list, whatever its message, is an account that may not list: said with the service message', async () => {
    const other = await startLiveAccount();
    other.refuse('/api/short/bu/business_units', { status: 403, json: { code: 403, message: 'Operation not permitted here' } });
    try {
      const lines: string[] = [];
      const seed = await record({ onProgress: (line) => lines.push(line) }, other);
      expect([seed.account.type, seed.business_units.length, seed.customers.length]).toEqual(['msp', 0, 2]);
      expect(lines.join('\n')).toMatch(
        /no business units: the service says the account may not list them \(Operation not permitted here\)/,
      );
    } finally {
      await other.stop();
    }
  });

  it('writes no credential the service echoes: the seed and the progress go through the one redaction', async () => {
    const echoing = await startLiveAccount();
    const echoed = [{ monitor_id: '5001', display_name: `Service-oauthtoken ${liveAccessToken}`, note: liveCredentials.clientId }];
    echoing.refuse('/api/monitors', { json: { message: 'success', data: echoed } });
    echoing.refuse('/api/short/msp/customers', { json: { code: 0, message: 'success', data: [{ name: liveAccessToken, zaaid: '71' }] } });
    try {
      const lines: string[] = [];
      const seed = await record({ onProgress: (line) => lines.push(line) }, echoing);
      const written = `${seedFileText(seed)}${lines.join('\n')}`;
      for (const secret of [liveAccessToken, liveCredentials.clientId]) expect(written).not.toContain(secret);
      expect(seed.account.monitors[0]).toEqual({ monitor_id: '5001', display_name: 'Service-oauthtoken [redacted]', note: '[redacted]' });
    } finally {
      await echoing.stop();
    }
  });

  it('reads the answers up to the size of a seed the mock reads, no further, and says so', async () => {
    const huge = await startLiveAccount();
    huge.refuse('/api/monitors', { json: { message: 'success', data: [{ monitor_id: '5001', display_name: 'm'.repeat(maxSeedBytes) }] } });
    try {
      const error = await record({}, huge).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RecordError);
      expect((error as Error).message).toBe(
        `GET /monitors (your account): the service's answers hold more than ${maxSeedBytes} bytes (16 MiB), more than a seed the mock reads, so they were not read further and nothing was written`,
      );
    } finally {
      await huge.stop();
    }
  });

  it('follows no redirect with the credentials', async () => {
    const moving = await startLiveAccount();
    moving.refuse('/api/device_key', { status: 302, headers: { Location: 'http://127.0.0.1:1/api/device_key' } });
    try {
      await expect(record({}, moving)).rejects.toThrow(/GET \/device_key was refused.*127\.0\.0\.1:1/);
    } finally {
      await moving.stop();
    }
  });

  it('its seed starts the simulator, which answers with the recorded monitors', async () => {
    const file = path.join(scratch, 'recorded.json');
    writeFileSync(file, JSON.stringify(await record()));
    const mockFetch = createMockFetch({ seed: file });
    const get = async (zaaid?: string) => {
      const response = await mockFetch(`${mockFetch.baseUrl}/monitors`, {
        headers: { Authorization: 'Service-oauthtoken any-token', ...(zaaid ? { Cookie: `zaaid=${zaaid}` } : {}) },
      });
      return ((await response.json()) as { data: unknown }).data;
    };
    expect(await get()).toEqual(liveMonitors['']);
    expect(await get('71')).toEqual(liveMonitors['71']);
    expect(await get('81')).toEqual(liveMonitors['81']);
  });
});

describe('the seed file', () => {
  const seedOf = (monitors: number): RecordedSeed => ({
    account: {
      type: 'normal',
      device_key: 'eu_0123',
      monitors: Array.from({ length: monitors }, (_, index) => ({ monitor_id: String(1_000_000 + index), display_name: 'm' })),
      groups: [],
    },
    customers: [],
    business_units: [],
  });

  it('is indented; in one line when only that fits the 16 MiB the mock reads; refused when neither does', () => {
    expect(seedFileText(seedOf(2))).toMatch(/^{\n {2}"account": {\n/);
    const large = seedFileText(seedOf(300_000));
    expect(large.split('\n')).toHaveLength(2);
    expect(Buffer.byteLength(large)).toBeLessThanOrEqual(maxSeedBytes);
    expect(() => seedFileText(seedOf(420_000))).toThrow(
      new RecordError(
        `the seed would have ${Buffer.byteLength(`${JSON.stringify(seedOf(420_000))}\n`)} bytes, more than the ${maxSeedBytes} (16 MiB) the mock reads from a seed file, so nothing was written`,
      ),
    );
  });
});

describe('monitoring-service-api record (the command line)', () => {
  const env = { REFRESH_TOKEN: auth.refreshToken, CLIENT_ID: auth.clientId, CLIENT_SECRET: auth.clientSecret, ACCESS_TOKEN: '' };
  const run = (args: string[], extra: Record<string, string> = env) => {
    const command = startCommand(process.execPath, [compiledBin, 'record', ...args], extra);
    return command.exited.then(({ code }) => ({ code, output: command.output() }));
  };

  it('writes the seed whole with progress lines; a refusal writes nothing and exits 1; usage errors exit 2', async () => {
    const refusing = await startLiveAccount();
    refusing.refuse('/api/short/bu/business_units', { status: 401, json: { code: 401, message: 'Unauthorized: \u001b[2Jtoken expired' } });
    const written = path.join(scratch, 'seed.json');
    const kept = path.join(scratch, 'kept.json');
    writeFileSync(kept, 'earlier content\n');
    try {
      const [ok, refused, noOut, placeholder, noAuthUrl] = await Promise.all([
        run(['--out', written, '--base-url', `${live.origin}/api`, '--auth-url', live.origin, '--anonymize']),
        run(['--out', kept, '--base-url', `${refusing.origin}/api`, '--auth-url', refusing.origin]),
        run(['--base-url', `${live.origin}/api`]),
        run(['--out', written, '--data-center', 'eu']),
        run(['--out', kept, '--base-url', `${live.origin}/api`]),
      ]);
      expect(ok.code, ok.output).toBe(0);
      expect(ok.output).toMatch(/record: customer 71: 1 monitor$/m);
      expect(ok.output).toMatch(/record: customer 72: 0 monitors$/m);
      expect(ok.output).toMatch(/wrote .*seed\.json: 4 monitors in 4 accounts/);
      const seed = JSON.parse(readFileSync(written, 'utf8'));
      expect(seed.customers[0].name).toBe('Customer 1');
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(
        /GET \/short\/bu\/business_units was refused, so nothing was written: .*Unauthorized: \\e\[2Jtoken expired/,
      );
      expect(readFileSync(kept, 'utf8')).toBe('earlier content\n');
      expect(existsSync(`${kept}.partial`)).toBe(false);
      expect(noOut).toMatchObject({ code: 2, output: expect.stringMatching(/--out FILE is required/) });
      expect(placeholder).toMatchObject({ code: 2, output: expect.stringMatching(/placeholder host of the description/) });
      // The client's check, in the command line's words: its flags, not the client's option names.
      expect(noAuthUrl).toMatchObject({
        code: 2,
        output: expect.stringMatching(
          /^Renewing access tokens needs the identity provider: give --auth-url \(or --data-center\)\.\nUsage: /,
        ),
      });
      expect(noAuthUrl.output).not.toMatch(/authUrl|dataCenter/);
      for (const result of [ok, refused, noOut, placeholder, noAuthUrl])
        for (const secret of Object.values(auth)) expect(result.output).not.toContain(secret);
    } finally {
      await refusing.stop();
    }
  });
});
