// The validating proxy in front of an implementation that breaks the contract on purpose: every violation of a
// request or an answer is reported (readable report, Prism's sl-violations header), the answers pass through.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleToken } from '../../scripts/lib/sample-requests.js';
import { type ExchangeReport, formatReport, type RunningProxy, startProxy, summarizeReports } from '../../src/proxy/index.js';
import { type BrokenService, startBrokenService } from '../support/broken-service.js';
import { send } from '../support/http-client.js';
import { compiledBin, freePort, isRunning, signalTree, startCommand, waitUntil } from '../support/processes.js';

const auth = { Authorization: sampleToken };
let service: BrokenService;
let proxy: RunningProxy;

beforeAll(async () => {
  service = await startBrokenService();
  proxy = await startProxy({ upstream: service.url });
});
afterAll(async () => {
  await proxy?.stop();
  await service?.close();
});

/** Sends through the proxy; returns the answer and the report of that exchange. */
async function exchange(target: string, options: Parameters<typeof send>[2] = {}) {
  const before = proxy.reports.length;
  const reply = await send(proxy.url, target, options);
  expect(proxy.reports.length).toBe(before + 1);
  return { reply, report: proxy.reports.at(-1)! };
}

const messages = (report: ExchangeReport) =>
  report.violations.map((violation) => `${violation.side} ${violation.location}: ${violation.message}`);

describe('report mode: answers pass through, each violation reported', () => {
  it('a missing `message` in a success body', async () => {
    const { reply, report } = await exchange('/api/monitors/169863000000025001', { headers: auth });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ code: 0, data: { monitor_id: '169863000000025001' } });
    expect(reply.headers['sl-violations']).toMatch(/required property 'message'/);
    expect(report.operation).toBe('getMonitor GET /api/monitors/{monitor_id}');
    expect(messages(report)).toEqual(["response body: must have required property 'message'"]);
    expect(formatReport(report)).toBe(
      "✖ GET /api/monitors/169863000000025001 → 200  (getMonitor GET /api/monitors/{monitor_id})\n    response body: must have required property 'message'",
    );
  });

  it('a wrong type in a success body', async () => {
    const { reply, report } = await exchange('/api/device_key', { headers: auth });
    expect(reply.status).toBe(200);
    expect(messages(report)).toEqual(['response body.data.device_key: must be string']);
  });

  it('an undocumented status', async () => {
    const { reply, report } = await exchange('/api/monitor_type_constants', { headers: auth });
    expect(reply.status).toBe(418);
    expect(report.violations).toHaveLength(1);
    expect(report.violations[0]).toMatchObject({ side: 'response', location: 'status', severity: 'Warning' });
    expect(report.violations[0]!.message).toMatch(
      /unable to match the returned status code with those defined in the document: 200,400,401,403,404,500/,
    );
    expect(formatReport(report)).toMatch(/^⚠ GET \/api\/monitor_type_constants → 418/);
  });

  it('an error body with a wrong type and no message', async () => {
    const { reply, report } = await exchange('/api/monitors/1', { headers: auth });
    expect(reply.status).toBe(404);
    expect(messages(report).sort()).toEqual([
      'response body.code: must be integer',
      "response body: must have required property 'message'",
    ]);
  });

  it('a conformant exchange: no violation', async () => {
    const { reply, report } = await exchange('/api/short/msp/customers', { headers: auth });
    expect(reply.status).toBe(200);
    expect(report.violations).toEqual([]);
    expect(formatReport(report)).toMatch(/^✔ GET \/api\/short\/msp\/customers → 200/);
  });

  it('an answer in the documented media type without its version parameter passes; another version does not', async () => {
    const plain = await exchange('/api/short/msp/customers', { headers: auth });
    expect(plain.reply.headers['content-type']).toBe('application/json');
    expect(plain.report.violations).toEqual([]);
    const { reply, report } = await exchange('/api/short/bu/business_units', { headers: auth });
    expect(reply.headers['content-type']).toBe('application/json; version=3.0');
    expect(messages(report)).toEqual([
      'response status: the received media type "application/json; version=3.0" does not match the one specified in the current response: application/json; version=2.0',
    ]);
  });

  it('a request that breaks the contract is reported, and still forwarded', async () => {
    const { reply, report } = await exchange('/api/monitor_groups', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(reply.status).toBe(201);
    expect(messages(report)).toEqual(["request body: must have required property 'display_name'"]);
    expect(service.received.at(-1)).toMatchObject({ method: 'POST', url: '/api/monitor_groups', body: '{}' });
  });

  it('a request without a token is reported', async () => {
    const { report } = await exchange('/api/short/msp/customers');
    expect(report.violations.some((violation) => violation.side === 'request' && /security/i.test(violation.message))).toBe(true);
  });

  it('a request the engine cannot read is answered by the proxy itself, and reported', async () => {
    const { reply, report } = await exchange('/api/monitors/%ZZ', { headers: auth });
    expect(reply.status).toBe(400);
    expect(reply.json.message).toMatch(/malformed percent-encoding/);
    expect(report.forwarded).toBe(false);
    expect(formatReport(report)).toMatch(/\[not forwarded\]/);
  });

  it('sums up by operation', () => {
    expect(summarizeReports(proxy.reports)).toMatch(
      /^10 exchanges checked against the contract; 8 broke it \(3 request violations, 6 response violations\)\.\n {2}getMonitor GET \/api\/monitors\/\{monitor_id\}: 3/,
    );
  });
});

describe('--errors mode', () => {
  it('a bad answer becomes 500 naming the violation; a bad request gets 422 and is not forwarded', async () => {
    const strict = await startProxy({ upstream: service.url, errors: true });
    try {
      const bad = await send(strict.url, '/api/monitors/169863000000025001', { headers: auth });
      expect(bad.status).toBe(500);
      expect(bad.json.validation[0].message).toMatch(/required property 'message'/);
      const received = service.received.length;
      const invalid = await send(strict.url, '/api/monitor_groups', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(invalid.status).toBe(422);
      expect(service.received.length).toBe(received);
      expect(strict.reports.map((report) => report.violations.length)).toEqual([1, 1]);
    } finally {
      await strict.stop();
    }
  });
});

describe('an upstream that does not answer', () => {
  it('is reported at start-up, and every call is a reported failure (502), never a pass', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const proxy = await startProxy({ upstream: dead });
    try {
      expect(proxy.upstreamCheck).toMatchObject({ answered: false });
      expect(proxy.upstreamCheck.reason).toMatch(/ECONNREFUSED/);
      const reply = await send(proxy.url, '/api/monitors', { headers: auth });
      expect(reply.status).toBe(502);
      expect(reply.json).toMatchObject({ code: 502 });
      expect(reply.json.message).toMatch(/^Bad Gateway: the upstream http:\/\/127\.0\.0\.1:\d+\/ did not answer: .*ECONNREFUSED/);
      const report = proxy.reports.at(-1)!;
      expect(report.violations).toEqual([expect.objectContaining({ side: 'response', location: 'upstream', severity: 'Error' })]);
      expect(formatReport(report)).toMatch(/^✖ GET \/api\/monitors → 502/);
      expect(summarizeReports(proxy.reports)).toMatch(/1 broke it .*; the upstream did not answer 1\./);
    } finally {
      await proxy.stop();
    }
  });

  it('an upstream slower than the time limit: 504, reported', async () => {
    const slow = await startBrokenService({ delayMs: 2000 });
    const proxy = await startProxy({ upstream: slow.url, timeoutMs: 200 });
    try {
      const reply = await send(proxy.url, '/api/short/msp/customers', { headers: auth });
      expect(reply.status).toBe(504);
      expect(reply.json.message).toMatch(/did not answer: no answer within 200 ms/);
      expect(proxy.reports.at(-1)!.violations[0]).toMatchObject({ location: 'upstream', severity: 'Error' });
    } finally {
      await proxy.stop();
      await slow.close();
    }
  });

  it('a 5xx of the upstream is never a silent pass', async () => {
    const { reply, report } = await exchange('/api/monitors', { headers: auth });
    expect(reply.status).toBe(500);
    expect(report.violations.some((violation) => violation.location === 'status' && /server error/.test(violation.message))).toBe(true);
    expect(formatReport(report)).not.toMatch(/^✔/);
  });
});

describe('monitoring-service-api proxy (the command line)', () => {
  it('prints a readable report of each violation, a summary on SIGTERM, a JSON-lines file, and leaves no process', async () => {
    const reportFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'proxy-report-')), 'violations.jsonl');
    const command = startCommand(process.execPath, [
      compiledBin,
      'proxy',
      '--upstream',
      service.url,
      '--port',
      '0',
      '--quiet',
      '--report',
      reportFile,
    ]);
    try {
      const [, url] = await command.waitFor(/Send your calls to (\S+) /);
      const [, pid] = await command.waitFor(/Process: pid (\d+)/);
      await send(url!, '/api/monitors/169863000000025001', { headers: auth });
      await send(url!, '/api/short/msp/customers', { headers: auth });
      await command.waitFor(
        /✖ GET \/api\/monitors\/169863000000025001 → 200 {2}\(getMonitor GET \/api\/monitors\/\{monitor_id\}\)\n {4}response body: must have required property 'message'/,
      );
      process.kill(command.child.pid!, 'SIGTERM');
      await command.waitFor(/2 exchanges checked against the contract; 1 broke it \(0 request violations, 1 response violation\)/);
      expect((await command.exited).code).toBe(0);
      expect(command.output()).not.toMatch(/✔/); // --quiet
      const lines = readFileSync(reportFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ExchangeReport);
      expect(lines.map((line) => [line.url, line.violations.length])).toEqual([
        ['/api/monitors/169863000000025001', 1],
        ['/api/short/msp/customers', 0],
      ]);
      expect(await waitUntil(() => !isRunning(Number(pid)), 5000)).toBe(true);
    } finally {
      signalTree(command.child.pid!, 'SIGKILL');
    }
  });

  it('leaves the report file as it was when the proxy does not start, and refuses a report path it cannot write', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'proxy-report-'));
    const reportFile = path.join(folder, 'earlier.jsonl');
    writeFileSync(reportFile, '{"earlier":"run"}\n');
    for (const [args, message] of [
      [['--upstream', 'ftp://x', '--report', reportFile], /--upstream/],
      [['--upstream', service.url, '--report', path.join(folder, 'missing', 'r.jsonl')], /--report .*cannot write it/],
    ] as const) {
      const command = startCommand(process.execPath, [compiledBin, 'proxy', '--port', '0', ...args]);
      const { code } = await command.exited;
      expect(code, command.output()).toBe(2);
      expect(command.output()).toMatch(message);
    }
    expect(readFileSync(reportFile, 'utf8')).toBe('{"earlier":"run"}\n');
  });

  it('warns at start-up when the upstream does not answer', async () => {
    const command = startCommand(process.execPath, [
      compiledBin,
      'proxy',
      '--upstream',
      `http://127.0.0.1:${await freePort()}`,
      '--port',
      '0',
    ]);
    try {
      await command.waitFor(/Process: pid \d+/); // serving: the check of the upstream is done
      signalTree(command.child.pid!, 'SIGTERM');
      await command.closed; // every line it printed is read
      expect(command.output()).toMatch(
        /Warning: the upstream http:\/\/127\.0\.0\.1:\d+\/ does not answer \(.*ECONNREFUSED.*\): every call will be reported as a failure/,
      );
    } finally {
      signalTree(command.child.pid!, 'SIGKILL');
    }
  });

  it('--detach: returns once it answers, with its warning; kill stops it, and its summary goes to --log-file', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'proxy-detach-'));
    const [pidFile, logFile] = [path.join(folder, 'proxy.pid'), path.join(folder, 'proxy.log')];
    const upstream = `http://127.0.0.1:${await freePort()}`;
    const args = ['proxy', '--upstream', upstream, '--port', '0', '--detach', '--pid-file', pidFile, '--log-file', logFile];
    const command = startCommand(process.execPath, [compiledBin, ...args]);
    await command.closed;
    expect((await command.exited).code).toBe(0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    try {
      expect(command.output()).toMatch(/Validating proxy .* is listening[\s\S]*It runs in the background: stop it with kill/);
      expect(command.output()).toMatch(/Warning: the upstream http:\/\/127\.0\.0\.1:\d+\/ does not answer/);
      const [, url] = /Send your calls to (\S+) /.exec(command.output())!;
      expect((await send(url!, '/api/monitors', { headers: auth })).status).toBe(502);
      process.kill(pid, 'SIGTERM');
      expect(await waitUntil(() => !isRunning(pid), 10_000)).toBe(true);
      expect(readFileSync(logFile, 'utf8')).toMatch(/SIGTERM: stopping the proxy\.\n1 exchange checked against the contract;/);
    } finally {
      signalTree(pid, 'SIGKILL');
    }
  });

  it('without --upstream: exit 2 with the usage', async () => {
    const command = startCommand(process.execPath, [compiledBin, 'proxy']);
    expect((await command.exited).code).toBe(2);
    expect(command.output()).toMatch(/--upstream is required[\s\S]*Usage: monitoring-service-api proxy/);
  });
});
