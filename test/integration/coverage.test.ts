// The coverage report as a test suite meets it: a scripted session (a list, an unknown monitor, an expired token and
// its renewal, an MSP customer's call, one fault) covers exactly those items, over HTTP, in code and from the command
// line; the reports of two mocks merge into their union; the gate's exit statuses; every exchange counted, not only
// those the journal keeps; and every behaviour the simulator names, and every documented error, played for real.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { UsageError } from '../../src/cli/args.js';
import { runCoverage } from '../../src/cli/coverage.js';
import { createServiceClient } from '../../src/index.js';
import { type CoverageReport, createMockFetch, type MockFetch, mergeCoverage, type RunningMock, startMock } from '../../src/mock/index.js';
import { behaviours } from '../../src/simulator/behaviours.js';
import { cleanEnv, exec } from '../support/consumer-project.js';
import { guideBlocks } from '../support/guide-blocks.js';
import { compiledBin, freePort, signalTree, startCommand } from '../support/processes.js';

/** A fixed start of the simulated time: only the test moves it. */
const clock = () => Date.UTC(2026, 10, 21, 10);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'coverage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The command line, as a user runs it; never throws for a non-zero exit. */
const coverage = (...args: string[]) => exec(process.execPath, [compiledBin, 'coverage', ...args], { cwd: scratch, timeoutMs: 30_000 });

/**
 * The command's work in this process, for what a process of its own would only repeat: its report written to a file
 * (`--out`) and read back. (Its exit statuses are the processes' above.)
 */
async function coverageJson(args: string[], env: Record<string, string | undefined> = {}): Promise<CoverageReport> {
  const out = path.join(scratch, `in-process-${Math.random().toString(36).slice(2)}.json`);
  await runCoverage([...args, '--format', 'json', '--out', out], env);
  return JSON.parse(readFileSync(out, 'utf8')) as CoverageReport;
}

/** The names of the items a report covers: operations, statuses (own and of the global table), errors, behaviours. */
function coveredNames(report: CoverageReport): string[] {
  const uncovered = new Set(report.uncovered.map((item) => item.name));
  return [
    ...report.operations.filter((operation) => !uncovered.has(operation.operation)).map((operation) => operation.operation),
    ...report.operations.flatMap((operation) =>
      operation.statuses
        .filter((status) => status.documented && status.calls > 0)
        .map((status) => `${operation.operation}:${status.status}`),
    ),
    ...[...report.errors, ...report.behaviours].filter((entry) => entry.calls > 0).map((entry) => entry.name),
  ].sort();
}

/** The scripted session, with the package's client as a team's code would call: each step covers its items. */
async function scriptedSession(mock: { baseUrl: string; authUrl: string; control: RunningMock['control'] }, fetchImpl?: MockFetch) {
  const client = createServiceClient({
    baseUrl: mock.baseUrl,
    authUrl: mock.authUrl,
    auth: { clientId: 'my-client', clientSecret: 'secret', refreshToken: 'refresh' },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  await client.GET('/monitors'); // a list (and the token's first renewal)
  await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } }).catch(() => undefined); // 1002
  mock.control.advanceClock(3_600_000);
  await client.GET('/monitors'); // the token has expired: 401, a renewal, the list again
  await client.forAccount('700000123').GET('/monitors'); // an MSP customer's call
  mock.control.fault({ operation: 'listMonitors', status: 503, retry_after_s: 0 });
  await client.GET('/monitors'); // one fault, and the retry
}

/** What the scripted session covers, and nothing else. */
const sessionCovers = [
  'access-token-expired',
  'access-token-renewed',
  'customer-account',
  'fault-retry-after',
  'getMonitor',
  'getMonitor:404',
  'listMonitors',
  'listMonitors:200',
  'listMonitors:401',
  'monitor-does-not-exist',
  'requestToken',
  'requestToken:200',
].sort();

describe('a scripted session', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ clock });
    await scriptedSession(mock);
  });
  afterAll(() => mock.stop());

  it('covers exactly its items, in code, over HTTP and from the command line', async () => {
    const inCode = mock.control.coverage();
    expect(coveredNames(inCode)).toEqual(sessionCovers);
    expect(inCode.exchanges).toBe(9);
    const overHttp = await fetch(`${mock.authUrl}/__mock/coverage`);
    expect(overHttp.status).toBe(200);
    expect(overHttp.headers.get('access-control-allow-origin')).toBeNull();
    expect(await overHttp.json()).toEqual(inCode);
    expect(await coverageJson(['--mock', mock.authUrl])).toEqual(inCode);
    const table = await coverage('--mock', mock.authUrl);
    expect(table.code, table.stderr).toBe(0);
    for (const name of ['access-token-expired ×1', 'customer-account ×1', 'fault-retry-after ×1', 'monitor-does-not-exist ×1'])
      expect(table.stdout).toContain(name);
    expect(table.stdout).toMatch(
      /^ {2}✔ listMonitors +GET \/api\/monitors +6 calls\n {6}answered 200 ×4, 401\* ×1, 503 \(undocumented\) ×1;/m,
    );
    expect(table.stdout).toMatch(/^ {2}✘ revokeToken +POST \/oauth\/v2\/token\/revoke +no call$/m);
  });

  it('is on the journal entry of each exchange: the behaviours it played', () => {
    const entries = mock.control.requests({ operation: 'listMonitors' }).requests;
    expect(entries.map((entry) => [entry.status, entry.behaviours])).toEqual([
      [200, []],
      [401, ['access-token-expired']],
      [200, []],
      [200, ['customer-account']],
      [503, ['fault-retry-after']],
      [200, []],
    ]);
  });

  it('is cleared by DELETE /__mock/coverage (and clearCoverage()), not by a reset; the endpoint takes no query', async () => {
    const other = await startMock({ clock });
    try {
      await scriptedSession(other);
      other.control.reset();
      expect(other.control.coverage().exchanges).toBe(9);
      expect((await fetch(`${other.authUrl}/__mock/coverage?format=markdown`)).status).toBe(400);
      const post = await fetch(`${other.authUrl}/__mock/coverage`, { method: 'POST' });
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, DELETE']);
      expect((await fetch(`${other.authUrl}/__mock/coverage`, { method: 'DELETE' })).status).toBe(204);
      const cleared = other.control.coverage();
      expect([cleared.exchanges, cleared.covered, cleared.unmatched.calls]).toEqual([0, 0, 0]);
    } finally {
      await other.stop();
    }
  });

  it('the guide shows the table of its own session as the command prints it now', async () => {
    const guide = 'docs/06-coverage.md';
    const blocks = guideBlocks(guide, readFileSync(path.join(root, guide), 'utf8'));
    const session = blocks.find((block) => block.check === 'run' && block.language === 'sh')!;
    const shown = blocks[blocks.indexOf(session) + 1]!;
    expect(shown.language).toBe('text');
    const fresh = await startMock();
    try {
      const source = session.source
        .replaceAll('127.0.0.1:4010', new URL(fresh.authUrl).host)
        .replaceAll('npx monitoring-service-api', `${JSON.stringify(process.execPath)} ${JSON.stringify(compiledBin)}`);
      const run = await exec('bash', ['-e', '-o', 'pipefail', '-c', source], { cwd: scratch, env: cleanEnv(), timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trimEnd()).toBe(shown.source.trimEnd());
    } finally {
      await fresh.stop();
    }
    // The README shows lines of the same report, in its order, cut where it says `...`.
    const readme = guideBlocks('README.md', readFileSync(path.join(root, 'README.md'), 'utf8'));
    const excerpt = readme.find((block) => block.language === 'text' && block.source.startsWith('Contract coverage of'))!;
    const lines = shown.source.split('\n');
    let from = 0;
    for (const line of excerpt.source.split('\n').filter((each) => each !== '...')) {
      const at = lines.indexOf(line, from);
      expect(at, line).toBeGreaterThanOrEqual(from);
      from = at + 1;
    }
  });
});

describe('reports of two mocks', () => {
  let first: RunningMock;
  let second: RunningMock;
  beforeAll(async () => {
    [first, second] = await Promise.all([startMock({ clock }), startMock({ clock })]);
    const auth = { clientId: 'my-client', clientSecret: 'secret', refreshToken: 'refresh' };
    await createServiceClient({ baseUrl: first.baseUrl, authUrl: first.authUrl, auth }).GET('/monitors');
    const onSecond = createServiceClient({ baseUrl: second.baseUrl, authUrl: second.authUrl, auth });
    await onSecond.forAccount('800000111').GET('/device_key');
    await fetch(`${second.baseUrl}/monitors`, { method: 'DELETE', headers: { Authorization: 'Service-oauthtoken any' } });
  });
  afterAll(() => Promise.all([first.stop(), second.stop()]));

  it('merge into their union: from both mocks, from saved files, and in code', async () => {
    const [a, b] = [first.control.coverage(), second.control.coverage()];
    const union = [...new Set([...coveredNames(a), ...coveredNames(b)])].sort();
    expect(coveredNames(mergeCoverage([a, b]))).toEqual(union);
    expect(union).toEqual(
      expect.arrayContaining(['listMonitors', 'getDeviceKey', 'business-unit-account', 'method-not-allowed', 'access-token-renewed']),
    );
    expect(await coverageJson(['--mock', first.authUrl, '--mock', second.authUrl])).toEqual(mergeCoverage([a, b]));
    writeFileSync(path.join(scratch, 'worker-1.json'), JSON.stringify(a));
    writeFileSync(path.join(scratch, 'worker-2.json'), JSON.stringify(b));
    const fromFiles = await coverage('worker-1.json', 'worker-2.json', '--format', 'json', '--out', 'merged.json');
    expect(fromFiles.code, fromFiles.stderr).toBe(0);
    expect(fromFiles.stdout).toBe('');
    expect(JSON.parse(readFileSync(path.join(scratch, 'merged.json'), 'utf8'))).toEqual(mergeCoverage([a, b]));
  });
});

describe('the gate', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ clock });
    await scriptedSession(mock);
    writeFileSync(path.join(scratch, 'session.json'), JSON.stringify(mock.control.coverage()));
  });
  afterAll(() => mock.stop());

  it('exits 0 when the minimum and the required items are met', async () => {
    const met = await coverage(
      'session.json',
      '--min',
      '10',
      '--require',
      'listMonitors,getMonitor:404',
      '--require',
      'access-token-expired',
    );
    expect([met.code, met.stderr]).toEqual([0, '']);
  });

  it('exits 1 naming each missing item and a percent below the minimum, the report written all the same', async () => {
    const missing = await coverage('session.json', '--require', 'token-revoked,listMonitors', '--min', '90', '--format', 'markdown');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/^### Contract coverage: /);
    expect(missing.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^monitoring-service-api coverage: [\d.]+% covered \(11 of \d+\), below the minimum of 90%$/),
      `monitoring-service-api coverage: token-revoked is not covered (behaviour: ${behaviours['token-revoked']})`,
    ]);
  });

  it('exits 2 on bad usage and on a report it cannot read, saying which', async () => {
    for (const [args, message] of [
      [['session.json', '--require', 'listMonitor'], /--require names "listMonitor", not an item of the report/],
      [['--mock', `http://127.0.0.1:${await freePort()}`], /the mock at http:\/\/127\.0\.0\.1:\d+ does not answer/],
    ] as const) {
      const result = await coverage(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    // Each other fault of the kind, in this process: a usage error (exit 2) that says which.
    writeFileSync(path.join(scratch, 'not-json.json'), '{"report": ');
    writeFileSync(path.join(scratch, 'a-seed.json'), JSON.stringify({ account: { monitors: [] } }));
    const inScratch = (file: string) => path.join(scratch, file);
    const cases: [string[], RegExp][] = [
      [[], /Name the reports to read: files saved as JSON, or --mock URL/],
      [[inScratch('session.json'), '--min', '101'], /--min must be a number from 0 to 100, not "101"/],
      [[inScratch('session.json'), '--format', 'xml'], /--format must be one of table, markdown, json, junit, not "xml"/],
      [[inScratch('missing.json')], /missing\.json cannot be read \(ENOENT\)/],
      [[inScratch('not-json.json')], /not-json\.json is not JSON/],
      [[inScratch('a-seed.json')], /a-seed\.json is not a coverage report: \/report must be "contract coverage", not undefined/],
      [['--mock', `${mock.authUrl}/api`], /--mock .*: give the mock's own address \(http:\/\/127\.0\.0\.1:\d+\), where its test API is/],
      [['--mock', 'ftp://127.0.0.1:4010'], /--mock must be an http\(s\) address/],
    ];
    for (const [args, message] of cases) await expect(runCoverage(args), args.join(' ')).rejects.toThrow(message);
    for (const [args] of cases) await expect(runCoverage(args)).rejects.toBeInstanceOf(UsageError);
  });

  it('exits 2 for a mock that counts no coverage, which says so over HTTP and in code', async () => {
    const off = await startMock({ coverage: false });
    try {
      expect(() => off.control.coverage()).toThrow('this mock counts no coverage: it was started with coverage off');
      const answer = await fetch(`${off.authUrl}/__mock/coverage`);
      expect(answer.status).toBe(404);
      await expect(runCoverage(['--mock', off.authUrl])).rejects.toThrow(/answered 404: URL Not found: this mock counts no coverage/);
    } finally {
      await off.stop();
    }
    expect(() => createMockFetch({ coverage: 'yes' as never })).toThrow(/coverage must be true or false, not "yes"/);
    const command = startCommand(process.execPath, [compiledBin, 'mock', '--port', '0', '--no-coverage']);
    try {
      const [, origin] = await command.waitFor(/Identity provider \(\{auth_url\}\): +(\S+)/);
      expect((await fetch(`${origin}/__mock/coverage`)).status).toBe(404);
    } finally {
      signalTree(command.child.pid!, 'SIGTERM');
      await command.exited;
    }
  });

  it("sends the test API's token from MOCK_TEST_API_TOKEN, as the mock requires it once started with one", async () => {
    const testApiToken = 'a-token-of-the-test-api-0123456789';
    const guarded = await startMock({ testApiToken });
    try {
      await expect(runCoverage(['--mock', guarded.authUrl], {})).rejects.toThrow(/answered 401/);
      expect((await coverageJson(['--mock', guarded.authUrl], { MOCK_TEST_API_TOKEN: testApiToken })).exchanges).toBe(0);
    } finally {
      await guarded.stop();
    }
  });
});

describe('what is counted', () => {
  it('every exchange, not only the entries the journal keeps', async () => {
    const mockFetch = createMockFetch({ journalSize: 1 });
    for (let index = 0; index < 5; index++)
      await mockFetch(`${mockFetch.baseUrl}/monitors`, { headers: { Authorization: 'Service-oauthtoken any-token' } });
    expect(mockFetch.control.requests().requests).toHaveLength(1);
    const report = mockFetch.control.coverage();
    expect(report.exchanges).toBe(5);
    expect(report.operations.find((operation) => operation.operation === 'listMonitors')?.calls).toBe(5);
  });

  it('every behaviour the simulator names and every documented error, each played for real (strict tokens on one mock)', async () => {
    const lenient = createMockFetch({ clock });
    const strict = createMockFetch({ clock, strictTokens: true });
    await playEverything(lenient);
    await strict(`${strict.baseUrl}/monitors`, { headers: { Authorization: 'Service-oauthtoken 1000.not-issued-by-this-mock' } });
    const report = mergeCoverage([lenient.control.coverage(), strict.control.coverage()]);
    expect(report.behaviours.filter((behaviour) => behaviour.calls === 0).map((behaviour) => behaviour.name)).toEqual([]);
    expect(report.behaviours.map((behaviour) => behaviour.name)).toEqual(Object.keys(behaviours));
    expect(report.errors.filter((error) => error.calls === 0).map((error) => error.name)).toEqual([]);
    expect(report.tally.behaviours.covered).toBe(report.tally.behaviours.total);
  });
});

/** Plays every behaviour of the lenient simulator, and every documented error, on one in-process mock. */
async function playEverything(mock: MockFetch): Promise<void> {
  const form = (path: string, values: Record<string, string>) =>
    mock(`${mock.authUrl}${path}`, { method: 'POST', body: new URLSearchParams(values) }).then(async (answer) => ({
      status: answer.status,
      json: (await answer.json()) as Record<string, string>,
    }));
  const api = (path: string, token: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    mock(`${mock.baseUrl}${path}`, { ...init, headers: { Authorization: `Service-oauthtoken ${token}`, ...init.headers } });
  const client = mock.control.registerClient();
  const exchangeCode = (code: string, secret = client.client_secret) =>
    form('/oauth/v2/token', { grant_type: 'authorization_code', client_id: client.client_id, client_secret: secret, code });
  const refresh = (refreshToken: string) =>
    form('/oauth/v2/token', { grant_type: 'refresh_token', ...client, refresh_token: refreshToken });
  const grant = (extra: Record<string, unknown> = {}) =>
    mock.control.grantCode({ client_id: client.client_id, scope: 'Service.Admin.All', ...extra }).code;

  // Grant tokens: exchanged, reused, expired, with another client's secret.
  const code = grant();
  const first = await exchangeCode(code);
  await exchangeCode(code);
  const late = grant({ validity_minutes: 3 });
  mock.control.advanceClock(180_000);
  await exchangeCode(late);
  await exchangeCode(grant(), 'not-the-secret');
  // One refresh token: 10 renewals make 11 active access tokens (the first deleted), the 11th renewal is refused.
  for (let index = 0; index < 10; index++) await refresh(first.json.refresh_token!);
  await refresh(first.json.refresh_token!);
  await api('/monitors', first.json.access_token!);
  // The user's refresh tokens: 20 of this client in 10 minutes, the 21st refused; another client's deletes the oldest.
  mock.control.advanceClock(600_000);
  for (let index = 0; index < 20; index++) await exchangeCode(grant());
  await exchangeCode(grant());
  const other = mock.control.registerClient();
  await form('/oauth/v2/token', {
    grant_type: 'authorization_code',
    ...other,
    code: mock.control.grantCode({ client_id: other.client_id, scope: 'Service.Admin.All' }).code,
  });
  // The oldest left after the limits: the first refresh token was deleted by the 21st of the user.
  await refresh(first.json.refresh_token!);
  // Revocation, and a token of another kind.
  const revoked = (await exchangeCode(grantAfterWindow())).json;
  await form('/oauth/v2/token/revoke', { token: revoked.refresh_token! });
  await refresh(revoked.refresh_token!);
  await api('/monitors', revoked.refresh_token!);
  // The API: an expired token, accounts, roles, scopes, 1002, 405, 406, a malformed grant, a grant type not taken.
  const fresh = (await exchangeCode(grantAfterWindow())).json.access_token!;
  mock.control.advanceClock(3_600_000);
  await api('/monitors', fresh);
  await api('/monitors', 'any', { headers: { Cookie: 'zaaid=700000123' } });
  await api('/monitors', 'any', { headers: { Cookie: 'zaaid=800000111' } });
  await api('/monitors', 'any', { headers: { Cookie: 'zaaid=999' } });
  await api('/short/msp/customers', 'any', { headers: { Cookie: 'zaaid=700000123' } });
  const readOnly = (await exchangeCode(grantAfterWindow({ role: 10 }))).json.access_token!;
  await api('/monitor_groups', readOnly, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"display_name":"P"}' });
  const reportsOnly = (await exchangeCode(grantAfterWindow({ scope: 'Service.Reports.Read' }))).json.access_token!;
  await api('/device_key', reportsOnly);
  await api('/monitors/1', 'any');
  await api('/monitors', 'any', { method: 'DELETE' });
  await api('/monitors', 'any', { headers: { Accept: 'application/json; version=1.0' } });
  await form('/oauth/v2/token', { grant_type: 'refresh_token' });
  await form('/oauth/v2/token', { grant_type: 'client_credentials', client_id: 'c', client_secret: 's' });
  // Faults of each kind.
  mock.control.fault({ operation: 'listMonitors', status: 429, retry_after_s: 0 });
  mock.control.fault({ operation: 'getDeviceKey', status: 500 });
  mock.control.fault({ operation: 'listMonitorTypes', status: 409, delay_ms: 1 });
  for (const path of ['/monitors', '/device_key', '/monitor_type_constants']) await api(path, 'any');

  /** A grant token, the clock first moved past the window of the client's 20 refresh tokens. */
  function grantAfterWindow(extra: Record<string, unknown> = {}) {
    mock.control.advanceClock(600_000);
    return grant(extra);
  }
}
