// verify against local servers: the mock (clean), and an implementation that drifts from the contract on purpose
// (each drift reported with its operation and JSON pointer, the extra attribute as allowed drift). Then what it must
// never do: send a write without --allow, go over its budget or rate, ignore Retry-After, write a secret anywhere.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { Redactor } from '../../src/output/redact.js';
import {
  type CheckReport,
  formatMarkdown,
  formatSummary,
  type VerifyOptions,
  type VerifyReport,
  verifyService,
} from '../../src/verify/index.js';
import { misformedTimestamps, undescribedAttributes } from '../../src/verify/walk.js';
import { type DriftingService, drifts, issuedAccessToken, monitorId, startDriftingService } from '../support/drifting-service.js';
import { compiledBin, freePort, startCommand } from '../support/processes.js';

const secrets = {
  clientId: '1000.VERIFYCLIENTID',
  clientSecret: 'verify-client-secret-keep-private',
  refreshToken: '1000.verify-refresh-token-keep-private',
};
/** Fast enough for a suite; the rate test sets its own. */
const fast = { ratePerSecond: 200 } as const;

let mock: RunningMock;
let service: DriftingService;

beforeAll(async () => {
  [mock, service] = await Promise.all([startMock(), startDriftingService()]);
});
afterAll(async () => {
  await Promise.all([mock?.stop(), service?.stop()]);
});

const target = (server: DriftingService) => ({ baseUrl: `${server.origin}/api`, authUrl: server.origin, auth: secrets });

/** A fetch that records what verify sends: method, URL, headers, and when (performance.now()). */
function recordingFetch() {
  const sent: { method: string; url: string; headers: Headers; body: string; at: number }[] = [];
  const fetchImpl = async (request: Request) => {
    const at = performance.now();
    sent.push({ method: request.method, url: request.url, headers: new Headers(request.headers), body: await request.clone().text(), at });
    return fetch(request);
  };
  return { sent, fetch: fetchImpl };
}

const violationsOf = (report: VerifyReport) =>
  report.checks.flatMap((check) =>
    check.violations.map((violation) => ({ operation: check.operation, account: check.account, status: check.status, ...violation })),
  );

describe('against the mock', () => {
  let report: VerifyReport;
  const recorded = recordingFetch();

  beforeAll(async () => {
    report = await verifyService({
      baseUrl: mock.baseUrl,
      authUrl: mock.authUrl,
      auth: secrets,
      accounts: true,
      fetch: recorded.fetch,
      ...fast,
    });
  });

  it('passes clean: no violation, exit status 0', () => {
    expect(violationsOf(report)).toEqual([]);
    expect(report.result).toBe('clean');
    expect(report.exitCode).toBe(0);
    expect(report.checks.every((check) => check.outcome === 'pass')).toBe(true);
    expect(formatSummary(report)).toMatch(/\nCLEAN: every answer agrees with the contract.*Exit status 0\.$/);
  });

  it('signs in once, calls every documented GET, the 401 without a token and the 404 with code 1002', () => {
    expect(report.checks[0]).toMatchObject({ operation: 'requestToken', purpose: 'sign-in', status: 200, outcome: 'pass' });
    const own = report.checks.filter((check) => check.purpose === 'documented-call' && !check.account).map((check) => check.operation);
    expect(own).toEqual([
      'getDeviceKey',
      'listMonitorTypes',
      'listMonitors',
      'getMonitor',
      'listMspCustomers',
      'listBusinessUnits',
      'getAdminMonitors',
    ]);
    expect(report.checks.find((check) => check.purpose === 'no-token')).toMatchObject({ status: 401, outcome: 'pass' });
    expect(report.checks.find((check) => check.purpose === 'unknown-monitor')).toMatchObject({
      operation: 'getMonitor',
      path: '/monitors/1',
      status: 404,
      outcome: 'pass',
    });
    const noToken = recorded.sent.find((request) => !request.headers.has('authorization') && request.url.includes('/api/'));
    expect(noToken).toBeDefined();
    expect(recorded.sent.filter((request) => request.url.endsWith('/oauth/v2/token'))).toHaveLength(1);
  });

  it('--accounts: the same GETs for the first customer and business unit, through the zaaid cookie', () => {
    const accounts = report.checks.filter((check) => check.account);
    expect(accounts.map((check) => `${check.account} ${check.operation}`)).toEqual(
      ['customer', 'business unit'].flatMap((account) =>
        ['getDeviceKey', 'listMonitorTypes', 'listMonitors', 'getMonitor', 'getAdminMonitors'].map(
          (operation) => `${account} ${operation}`,
        ),
      ),
    );
    const cookies = recorded.sent.map((request) => request.headers.get('cookie')).filter(Boolean);
    expect(new Set(cookies)).toEqual(new Set(['zaaid=700000123', 'zaaid=800000111']));
    expect(cookies).toHaveLength(10);
  });

  it("lists what the contract does not describe: the mock's answer of getAdminMonitors, whose schema is not shown", () => {
    expect(report.undescribed.map((entry) => `${entry.operation} ${entry.status} ${entry.pointer} ${entry.calls}`)).toEqual([
      'getAdminMonitors 200 /code 3',
      'getAdminMonitors 200 /message 3',
    ]);
  });
});

describe('against an implementation that drifts', () => {
  let report: VerifyReport;
  let markdown: string;
  let summary: string;

  beforeAll(async () => {
    report = await verifyService({ ...target(service), ...fast });
    markdown = formatMarkdown(report);
    summary = formatSummary(report);
  });

  it('a missing message, a wrong type, an undocumented status, an RFC 3339 timestamp: each with its operation and JSON pointer', () => {
    const found = violationsOf(report).map(({ operation, rule, pointer, status }) => ({ operation, rule, pointer, status }));
    expect(found).toEqual([
      { operation: drifts.wrongType.operation, rule: 'schema', pointer: drifts.wrongType.pointer, status: 200 },
      { operation: drifts.missingMessage.operation, rule: 'schema', pointer: drifts.missingMessage.pointer, status: 200 },
      { operation: drifts.undocumentedStatus.operation, rule: 'status', pointer: undefined, status: 418 },
      { operation: drifts.rfc3339Timestamp.operation, rule: 'timestamp', pointer: drifts.rfc3339Timestamp.pointer, status: 200 },
    ]);
    expect(violationsOf(report).map((violation) => violation.message)).toEqual([
      'must be string',
      'required attribute "message" is missing',
      'status 418 is not documented for listMspCustomers (it documents 200, 400, 401, 403, 404, 500)',
      `"${drifts.rfc3339Timestamp.value}" is not a timestamp of the service's form yyyy-MM-dd'T'HH:mm:ssZZZZ, e.g. 2026-11-21T10:00:00+0530 (core document, section 2.2)`,
    ]);
    expect(report.undocumentedStatuses).toEqual([{ operation: 'listMspCustomers', status: 418 }]);
  });

  it('the extra attribute is allowed drift: listed, not a violation', () => {
    const listMonitors = report.checks.find((check) => check.operation === drifts.extraAttribute.operation)!;
    expect(listMonitors.outcome).toBe('pass');
    expect(listMonitors.undescribed).toEqual([{ pointer: drifts.extraAttribute.pointer, types: ['string'], count: 2 }]);
    expect(report.undescribed.map((entry) => `${entry.operation} ${entry.pointer}`)).toContain(
      `listMonitors ${drifts.extraAttribute.pointer}`,
    );
  });

  it('exit status 1, and the summary and the Markdown name every drift', () => {
    expect(report.result).toBe('broken');
    expect(report.exitCode).toBe(1);
    expect(summary).toMatch(
      /\nBROKEN: the service breaks the contract: 4 violations in 4 operations; \d+ attributes the contract does not describe \(allowed\)\. Exit status 1\.$/,
    );
    for (const line of [
      /^✖ getDeviceKey +GET \/device_key +2 calls +1 violation$/m,
      /^ {4}200 \/data\/device_key: must be string$/m,
      /^ {4}200 \/message: required attribute "message" is missing$/m,
      /^ {4}418 status: status 418 is not documented for listMspCustomers/m,
      /^✔ listMonitors +GET \/monitors +1 call +pass, 1 attribute not described$/m,
      /^ {4}200 \/data\/0\/display_name \(string, 2 times\): not described by the contract \(allowed\)$/m,
      /^ {4}200 \/data\/0\/created_time: "2026-11-21T10:00:00\+05:30" is not a timestamp/m,
    ]) {
      expect(summary).toMatch(line);
    }
    expect(markdown).toMatch(
      /^\| getMonitor \| GET \/monitors\/169863000000025001 \| 200 \| `\/message` \| schema \| required attribute "message" is missing \|$/m,
    );
    expect(markdown).toMatch(/^\| listMspCustomers \| GET \/short\/msp\/customers \| 418 \| `status` \| status \|/m);
    expect(markdown).toMatch(/^\| listMonitors \| 200 \| `\/data\/0\/display_name` \| string \| 2 \| 1 \|$/m);
    expect(markdown).toMatch(/^\| Result \| \*\*broken\*\* \(exit status 1\) \|$/m);
  });

  it('the documented error paths of the implementation conform: 401 without a token, 404 with code 1002', () => {
    expect(report.checks.find((check) => check.purpose === 'no-token')).toMatchObject({ status: 401, outcome: 'pass' });
    expect(report.checks.find((check) => check.purpose === 'unknown-monitor')).toMatchObject({ status: 404, outcome: 'pass' });
  });
});

describe('what verify never does', () => {
  it('sends no POST to the API without --allow; with it, exactly one, with the documented example', async () => {
    service.server.clear();
    service.requests.length = 0;
    await verifyService({ ...target(service), accounts: true, ...fast });
    const posts = service.requests.filter((request) => request.method !== 'GET');
    expect(posts.map((request) => request.path)).toEqual(['/oauth/v2/token']);
    service.requests.length = 0;
    await verifyService({ baseUrl: `${service.origin}/api`, auth: { accessToken: issuedAccessToken }, ...fast });
    expect(service.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    service.requests.length = 0;
    const report = await verifyService({ ...target(service), allow: ['createMonitorGroup'], ...fast });
    const writes = service.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/api/'));
    expect(writes.map((request) => [request.path, JSON.parse(request.body)])).toEqual([
      ['/api/monitor_groups', { display_name: 'Payment services', description: 'Checkout and billing monitors' }],
    ]);
    expect(report.checks.find((check) => check.purpose === 'write')).toMatchObject({
      operation: 'createMonitorGroup',
      status: 201,
      outcome: 'pass',
    });
  });

  it('refuses to name a GET or an identity-provider operation in --allow, and a placeholder host, before sending anything', async () => {
    const refused: Partial<VerifyOptions>[] = [
      { allow: ['getMonitor'] },
      { allow: ['revokeToken'] },
      { baseUrl: undefined, dataCenter: 'eu' },
      { authUrl: 'https://accounts.eu.placeholder.invalid' },
    ];
    service.requests.length = 0;
    for (const options of refused) {
      await expect(verifyService({ ...target(service), ...options } as VerifyOptions)).rejects.toThrow(TypeError);
    }
    await expect(verifyService({ ...target(service), allow: ['revokeToken'] })).rejects.toThrow(
      /"revokeToken" is not an operation of the API that creates or changes data, which allow names; those are: createMonitorGroup/,
    );
    await expect(verifyService({ dataCenter: 'eu', authUrl: service.origin, auth: secrets })).rejects.toThrow(
      /api\.eu\.placeholder\.invalid is a placeholder host.*API root as baseUrl/,
    );
    expect(service.requests).toEqual([]);
  });

  it('stays within its budget: the rest is reported as not sent, exit status 3', async () => {
    service.requests.length = 0;
    const report = await verifyService({ ...target(service), budget: 4, ...fast });
    expect(service.requests).toHaveLength(4);
    expect(report.limits.requestsSent).toBe(4);
    const skipped = report.checks.filter((check) => check.outcome === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped[0]!.notes).toEqual(['not sent: the request budget (4) is spent']);
    expect(report.notes).toContain('The run was cut short: the request budget (4) is spent.');
    // The drifts within the budget are still reported: broken wins over incomplete.
    expect(report.exitCode).toBe(1);
    const clean = await verifyService({ baseUrl: mock.baseUrl, authUrl: mock.authUrl, auth: secrets, budget: 3, ...fast });
    expect(clean.result).toBe('incomplete');
    expect(clean.exitCode).toBe(3);
  });

  it('keeps to its rate: requests start 1/rate apart', async () => {
    const recorded = recordingFetch();
    await verifyService({ baseUrl: mock.baseUrl, authUrl: mock.authUrl, auth: secrets, ratePerSecond: 20, fetch: recorded.fetch });
    expect(recorded.sent.length).toBeGreaterThanOrEqual(9);
    const gaps = recorded.sent.slice(1).map((request, index) => request.at - recorded.sent[index]!.at);
    // 50 ms apart as verify releases them; measured where fetch is called, a busy machine adds a little jitter to each.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(40);
    expect(recorded.sent.at(-1)!.at - recorded.sent[0]!.at).toBeGreaterThanOrEqual(50 * gaps.length - 10);
  });

  it('honours Retry-After: waits as long as it says, then sends again', async () => {
    service.requests.length = 0;
    service.throttle('/api/monitor_type_constants', 1);
    const report = await verifyService({ ...target(service), ...fast });
    const calls = service.requests.filter((request) => request.path === '/api/monitor_type_constants');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000 - 5);
    // Every later request waited too.
    const next = service.requests[service.requests.indexOf(calls[0]!) + 1]!;
    expect(next).toBe(calls[1]);
    expect(report.checks.find((check) => check.operation === 'listMonitorTypes')).toMatchObject({
      status: 200,
      attempts: 2,
      outcome: 'pass',
    });
  });

  it('429 to the end: retried twice, then reported as not verified (not as a violation)', async () => {
    service.requests.length = 0;
    service.throttle('/api/monitor_type_constants', 0, 3);
    const report = await verifyService({ ...target(service), ...fast });
    expect(service.requests.filter((request) => request.path === '/api/monitor_type_constants')).toHaveLength(3);
    expect(report.checks.find((check) => check.operation === 'listMonitorTypes')).toMatchObject({
      status: 429,
      attempts: 3,
      outcome: 'incomplete',
      violations: [],
      notes: ['answered 429 (too many requests) 3 times: not judged'],
    });
  });

  it('a Retry-After longer than it waits ends the run: nothing more is sent, exit status 3', async () => {
    service.requests.length = 0;
    service.throttle('/api/monitor_type_constants', 120);
    const report = await verifyService({ baseUrl: `${service.origin}/api`, auth: { accessToken: issuedAccessToken }, ...fast });
    expect(service.requests.map((request) => request.path)).toEqual(['/api/device_key', '/api/monitor_type_constants']);
    expect(report.checks.find((check) => check.operation === 'listMonitorTypes')).toMatchObject({ status: 429, outcome: 'incomplete' });
    expect(report.checks.filter((check) => check.outcome === 'skipped').length).toBe(report.checks.length - 2);
    expect(report.notes.at(-1)).toBe(
      'The run was cut short: the service asked to wait 120 s (Retry-After), longer than the 60 s verify waits.',
    );
    expect(report.exitCode).toBe(1); // the device key drift was judged before the wait
  });

  it('a service that does not answer: three calls, then the run ends, exit status 3', async () => {
    const recorded = recordingFetch();
    const report = await verifyService({
      baseUrl: `http://127.0.0.1:${await freePort()}/api`,
      auth: { accessToken: issuedAccessToken },
      fetch: recorded.fetch,
      ...fast,
    });
    expect(recorded.sent).toHaveLength(3);
    expect(report.checks.slice(0, 3).map((check) => check.outcome)).toEqual(['incomplete', 'incomplete', 'incomplete']);
    expect(report.checks[0]!.notes[0]).toMatch(/^no answer: .*ECONNREFUSED/);
    expect(report.checks.slice(3).every((check) => check.outcome === 'skipped')).toBe(true);
    expect(report.exitCode).toBe(3);
    expect(formatSummary(report)).toMatch(
      /\nINCOMPLETE: no violation in what was judged, but 9 calls could not be verified\. Exit status 3\.$/,
    );
  });

  it('an identity provider that echoes the credentials: no secret in the report, the summary, the Markdown or an error', async () => {
    const refusing = await startDriftingService();
    try {
      refusing.refuseGrants();
      const checks: CheckReport[] = [];
      const report = await verifyService({ ...target(refusing), ...fast, onCheck: (check) => checks.push(check) });
      expect(report.checks[0]).toMatchObject({ operation: 'requestToken', status: 400, outcome: 'incomplete' });
      const skipped = report.checks.find((check) => check.operation === 'getDeviceKey')!;
      expect(skipped.outcome).toBe('skipped');
      expect(skipped.notes[0]).toMatch(
        /^not sent: no access token \(Getting an access token from the refresh token failed: invalid_client: no client \[redacted\] with the secret \[redacted\] for \[redacted\]\)$/,
      );
      expect(report.exitCode).toBe(3);
      const everything = [JSON.stringify(report), JSON.stringify(checks), formatSummary(report), formatMarkdown(report)].join('\n');
      for (const secret of Object.values(secrets)) expect(everything).not.toContain(secret);
      // The identity provider did receive them, so the test is not vacuous.
      expect(refusing.requests[0]!.body).toContain(encodeURIComponent(secrets.clientSecret));
    } finally {
      await refusing.stop();
    }
  });
});

describe('monitoring-service-api verify (the command line)', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'verify-'));
  const env = { REFRESH_TOKEN: secrets.refreshToken, CLIENT_ID: secrets.clientId, CLIENT_SECRET: secrets.clientSecret, ACCESS_TOKEN: '' };

  it('against the mock: a clean report, exit 0; against the drifting implementation: every drift, exit 1, reports written, no secret anywhere; usage errors: exit 2', async () => {
    const json = path.join(scratch, 'drift.json');
    const markdown = path.join(scratch, 'drift.md');
    const junit = path.join(scratch, 'drift.xml');
    const run = (args: string[], extra: Record<string, string> = env) => {
      const command = startCommand(process.execPath, [compiledBin, 'verify', '--rate', '100', ...args], extra);
      return command.exited.then(({ code }) => ({ code, output: command.output() }));
    };
    const [clean, drifting, noCredentials, badAllow] = await Promise.all([
      run(['--base-url', mock.baseUrl, '--auth-url', mock.authUrl, '--quiet']),
      run([
        '--base-url',
        `${service.origin}/api`,
        '--auth-url',
        service.origin,
        '--data-center',
        'eu',
        '--json',
        json,
        '--markdown',
        markdown,
        '--junit',
        junit,
      ]),
      run(['--base-url', mock.baseUrl], { REFRESH_TOKEN: '', CLIENT_ID: '', CLIENT_SECRET: '', ACCESS_TOKEN: '' }),
      run(['--base-url', mock.baseUrl, '--auth-url', mock.authUrl, '--allow', 'getMonitor']),
    ]);
    expect(clean.code, clean.output).toBe(0);
    expect(clean.output).toMatch(/^✔ getMonitor +GET \/monitors\/\{monitor_id\} +2 calls +pass$/m);
    expect(clean.output).toMatch(
      /CLEAN: every answer agrees with the contract; 2 attributes the contract does not describe \(allowed\)\. Exit status 0\./,
    );

    expect(drifting.code, drifting.output).toBe(1);
    expect(drifting.output).toMatch(/^✖ GET \/monitors\/169863000000025001 → 200 {2}getMonitor: 1 violation$/m); // a line per call, as it completes
    for (const pointer of [
      drifts.missingMessage.pointer,
      drifts.wrongType.pointer,
      drifts.rfc3339Timestamp.pointer,
      drifts.extraAttribute.pointer,
    ])
      expect(drifting.output).toContain(` ${pointer}`);
    expect(drifting.output).toMatch(/418 status: status 418 is not documented for listMspCustomers/);
    expect(drifting.output).toMatch(/BROKEN: .* Exit status 1\./);
    const written = JSON.parse(readFileSync(json, 'utf8')) as VerifyReport;
    expect(written.exitCode).toBe(1);
    expect(written.target).toEqual({ baseUrl: `${service.origin}/api`, authUrl: service.origin, dataCenter: 'eu', auth: 'refresh token' });
    expect(readFileSync(markdown, 'utf8')).toContain(`| getMonitor | GET /monitors/${monitorId} | 200 | \`/message\` |`);
    // The JUnit file: one test case per call, the failures with their pointers, as CI systems read it.
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml).testsuites.testsuite;
    expect(suite.testcase).toHaveLength(written.checks.length);
    expect(Number(suite['@_tests'])).toBe(written.checks.length);
    expect(Number(suite['@_failures'])).toBe(written.checks.filter((check) => check.outcome === 'fail').length);
    expect(Number(suite['@_skipped'])).toBe(written.checks.filter((check) => !['pass', 'fail'].includes(check.outcome)).length);
    const getMonitor = suite.testcase.find((testcase: any) => testcase['@_classname'] === 'getMonitor' && testcase.failure);
    expect(getMonitor.failure['#text']).toContain(`${drifts.missingMessage.pointer} `);
    const everything = [clean.output, drifting.output, readFileSync(json, 'utf8'), readFileSync(markdown, 'utf8'), xml].join('\n');
    for (const secret of [...Object.values(secrets), issuedAccessToken]) expect(everything).not.toContain(secret);

    expect(noCredentials.code).toBe(2);
    expect(noCredentials.output).toMatch(
      /verify needs credentials from the environment: REFRESH_TOKEN, CLIENT_ID and CLIENT_SECRET .*, or ACCESS_TOKEN/,
    );
    expect(badAllow.code).toBe(2);
    expect(badAllow.output).toMatch(
      /getMonitor reads data: verify sends every documented GET without being asked \(--allow names the operations that create or change data\)\./,
    );
  });
});

describe('the options it names, each interface by its own names', () => {
  // Given a monitor the implementation has, the check of the 404 with code 1002 is unconfirmed, and its note says
  // which option to change.
  const unknownMonitorNote = (report: VerifyReport) =>
    report.checks.find((check) => check.purpose === 'unknown-monitor')?.notes.join(' ') ?? '';

  it('from code: the notes and the Markdown name options as code writes them', async () => {
    const report = await verifyService({ ...target(service), accounts: true, unknownMonitorId: monitorId, ...fast });
    expect(unknownMonitorNote(report)).toContain(`monitor ${monitorId} exists: give one that does not (unknownMonitorId)`);
    expect(formatMarkdown(report)).toContain('| Options | accounts: true |');
    expect(JSON.stringify(report)).not.toMatch(/--[a-z]/);
  });

  it('from the command line: the same note and the Markdown name its flags', async () => {
    const markdown = path.join(mkdtempSync(path.join(os.tmpdir(), 'verify-names-')), 'report.md');
    const args = ['--base-url', `${service.origin}/api`, '--auth-url', service.origin, '--accounts', '--unknown-monitor-id', monitorId];
    const command = startCommand(process.execPath, [compiledBin, 'verify', '--rate', '100', ...args, '--markdown', markdown], {
      REFRESH_TOKEN: secrets.refreshToken,
      CLIENT_ID: secrets.clientId,
      CLIENT_SECRET: secrets.clientSecret,
      ACCESS_TOKEN: '',
    });
    const { code } = await command.exited;
    expect(code, command.output()).toBe(1); // the implementation drifts
    expect(command.output()).toContain(`monitor ${monitorId} exists: give one that does not (--unknown-monitor-id)`);
    expect(readFileSync(markdown, 'utf8')).toContain('| Options | --accounts |');
  });
});

describe('the pieces', () => {
  it('timestamps: only the service form passes, wherever the string is', () => {
    const body = {
      a: '2026-11-21T10:00:00+0530',
      b: '2026-11-21T10:00:00+05:30',
      c: ['2026-11-21T04:30:00Z', '2026-11-21T10:00:00.123+0530', '2026-11-21 10:00:00'],
      d: { date: '2026-11-21', text: 'down since 2026-11-21T10:00:00+05:30', e: '2026-11-21T10:00:00-0800' },
    };
    expect(misformedTimestamps(body).map((entry) => entry.pointer)).toEqual(['/b', '/c/0', '/c/1', '/c/2']);
  });

  it('undescribed attributes: allOf, items and oneOf members count; each reported once at its first place', () => {
    const document = {
      components: {
        schemas: {
          Base: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } },
          Item: { oneOf: [{ properties: { a: {} } }, { properties: { b: {} } }] },
        },
      },
    };
    const schema = {
      allOf: [
        { $ref: '#/components/schemas/Base' },
        {
          properties: {
            data: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
            map: { additionalProperties: { type: 'object', properties: { x: {} } } },
          },
        },
      ],
    };
    const body = {
      code: 0,
      message: 'ok',
      extra: 1,
      data: [
        { a: 1, c: 'x' },
        { b: 2, c: null },
      ],
      map: { any: { x: 1, y: 2 } },
      'a/b': true,
    };
    expect(undescribedAttributes(document, schema, body)).toEqual([
      { pointer: '/extra', types: ['number'], count: 1 },
      { pointer: '/data/0/c', types: ['string', 'null'], count: 2 },
      { pointer: '/map/any/y', types: ['number'], count: 1 },
      { pointer: '/a~1b', types: ['boolean'], count: 1 },
    ]);
  });

  it('redaction: the secret in any form (URL, form field, JSON), keys too; short stand-ins are left alone', () => {
    const redactor = new Redactor(['s3cret/+value', 'any']);
    expect(redactor.text('a s3cret/+value b s3cret%2F%2Bvalue c s3cret%2F%2Bvalue')).toBe('a [redacted] b [redacted] c [redacted]');
    expect(redactor.value({ 's3cret/+value': ['x s3cret/+value'], many: 'any' })).toEqual({ '[redacted]': ['x [redacted]'], many: 'any' });
  });
});
