// The coverage report without a server: what the counter counts of each exchange (operations, statuses against those
// documented, the global table's marked, refusals, documented errors, behaviours, near misses) within bounds the
// contract sets; the report's tallies, percent and the order of what is not covered; the merge of reports as a pure
// function; the gate; reading a report back; the forms it is written in, with hostile text escaped; its JSON Schema.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { coverageSchema } from '../../scripts/lib/coverage-schema.js';
import { outputs, root } from '../../scripts/lib/paths.js';
import { formatCoverage } from '../../src/coverage/format.js';
import { type CountedExchange, createCoverage, documentedErrors } from '../../src/coverage/index.js';
import { CoverageReportError, readCoverageReport } from '../../src/coverage/read.js';
import { checkCoverage, mergeCoverage } from '../../src/coverage/report.js';
import type { CoverageReport } from '../../src/coverage/types.js';
import { mockDocumentOf } from '../../src/description/mock-document.js';
import { compileRoutes, matchRoute } from '../../src/description/routes.js';
import { type Answer, createCall } from '../../src/http/exchange.js';
import { OptionError } from '../../src/options.js';
import { behaviours } from '../../src/simulator/behaviours.js';
import { loadBundle } from '../support/bundle.js';
import { markdownTable } from '../support/guide.js';

const bundle = loadBundle();
const document = mockDocumentOf(bundle);
const routes = compileRoutes(document);

/** An exchange as the mock's handler gives it to the counter. */
function exchange(method: string, url: string, status: number, body: unknown = {}, extra: Partial<CountedExchange> = {}): CountedExchange {
  const call = createCall({ method, url, headers: {}, body: Buffer.alloc(0) });
  const answer: Answer = { status, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
  return { call, answer, match: matchRoute(routes, call.segments, method), refused: false, behaviours: [], ...extra };
}

const counter = () => createCoverage(document, { behaviours });

/** The names of the covered items of a report, by kind. */
function covered(report: CoverageReport) {
  const missing = new Set(report.uncovered.map((item) => item.name));
  return {
    operations: report.operations.filter((operation) => !missing.has(operation.operation)).map((operation) => operation.operation),
    statuses: report.operations.flatMap((operation) =>
      operation.statuses
        .filter((status) => status.documented && status.calls > 0)
        .map((status) => `${operation.operation}:${status.status}`),
    ),
    errors: report.errors.filter((error) => error.calls > 0).map((error) => error.name),
    behaviours: report.behaviours.filter((behaviour) => behaviour.calls > 0).map((behaviour) => behaviour.name),
  };
}

/** A report of a few exchanges: a list, an unknown monitor, a refused body, a near miss. */
function sampleReport(): CoverageReport {
  const coverage = counter();
  coverage.count(exchange('GET', '/api/monitors', 200, {}, { behaviours: ['customer-account'] }));
  coverage.count(exchange('GET', '/api/monitors/1', 404, { code: 1002, message: 'Monitor does not exist.' }));
  coverage.count(exchange('POST', '/api/monitor_groups', 400, { code: 400, message: 'Bad Request' }, { refused: true }));
  coverage.count(exchange('GET', '/api/monitor', 404, { code: 404 }));
  return coverage.report();
}

describe('the counter', () => {
  it('counts per operation its calls, its statuses against those documented (the global table marked), and the refused', () => {
    const report = sampleReport();
    const list = report.operations.find((operation) => operation.operation === 'listMonitors')!;
    expect(list).toMatchObject({ method: 'GET', path: '/api/monitors', summary: expect.any(String), calls: 1, refused: 0 });
    expect(list.statuses).toEqual([
      { status: 200, documented: true, global_table: false, calls: 1 },
      { status: 400, documented: true, global_table: true, calls: 0 },
      { status: 401, documented: true, global_table: true, calls: 0 },
      { status: 403, documented: true, global_table: true, calls: 0 },
      { status: 404, documented: true, global_table: true, calls: 0 },
      { status: 500, documented: true, global_table: true, calls: 0 },
    ]);
    // The documents show GET /monitors/{monitor_id} answering 404 with code 1002: its own status, not the table's.
    const get = report.operations.find((operation) => operation.operation === 'getMonitor')!;
    expect(get.statuses.find((status) => status.status === 404)).toEqual({ status: 404, documented: true, global_table: false, calls: 1 });
    const create = report.operations.find((operation) => operation.operation === 'createMonitorGroup')!;
    expect([create.calls, create.refused]).toEqual([1, 1]);
    // The identity provider's 400 is listed from the global table too.
    const token = report.operations.find((operation) => operation.operation === 'requestToken')!;
    expect(token.statuses.map((status) => [status.status, status.global_table])).toEqual([
      [200, false],
      [400, true],
    ]);
    expect(report.operations.map((operation) => operation.operation)).toEqual([
      'getDeviceKey',
      'listMonitorTypes',
      'listMonitors',
      'getMonitor',
      'createMonitorGroup',
      'listMspCustomers',
      'listBusinessUnits',
      'getAdminMonitors',
      'requestToken',
      'revokeToken',
    ]);
    expect(report.exchanges).toBe(4);
  });

  it('lists a status an operation answered without documenting it after the documented ones', () => {
    const coverage = counter();
    coverage.count(exchange('GET', '/api/monitors', 503));
    coverage.count(exchange('GET', '/api/monitors', 429));
    const list = coverage.report().operations.find((operation) => operation.operation === 'listMonitors')!;
    expect(list.statuses.slice(-2)).toEqual([
      { status: 429, documented: false, global_table: false, calls: 1 },
      { status: 503, documented: false, global_table: false, calls: 1 },
    ]);
  });

  it("reads each documented error from the answer, whatever made it: 1002, not authorized, the identity provider's codes, 405, 406", () => {
    const coverage = counter();
    coverage.count(exchange('GET', '/api/monitors/1', 404, { code: 1002, message: 'Monitor does not exist.' }));
    coverage.count(exchange('GET', '/api/monitors', 403, { code: 403, message: 'You are not authorized to perform this operation.' }));
    coverage.count(exchange('GET', '/api/monitors', 403, { code: 403, message: 'Forbidden URL: a scope' }));
    for (const error of ['invalid_grant', 'invalid_client', 'invalid_request', 'unsupported_grant_type', 'too_many_requests'])
      coverage.count(exchange('POST', '/oauth/v2/token', 400, { code: 400, message: 'Bad Request', error }));
    coverage.count(exchange('POST', '/oauth/v2/token', 400, { code: 400, message: 'Bad Request', error: 'made_up' }));
    coverage.count(exchange('DELETE', '/api/monitors', 405, { code: 405 }));
    coverage.count(exchange('GET', '/api/monitors', 406, { code: 406 }));
    // Not an error of the list: a 404 of a path no operation has, a 1002 too large to be one the mock made.
    coverage.count(exchange('GET', '/api/nothing', 404, { code: 1002 }));
    coverage.count(exchange('GET', '/api/monitors/1', 404, { code: 1002, message: 'x'.repeat(5000) }));
    expect(Object.fromEntries(coverage.report().errors.map((error) => [error.name, error.calls]))).toEqual({
      'monitor-does-not-exist': 1,
      'identity-invalid-grant': 1,
      'not-authorized': 1,
      'identity-too-many-requests': 1,
      'identity-invalid-client': 1,
      'not-acceptable': 1,
      'method-not-allowed': 1,
      'identity-invalid-request': 1,
      'identity-unsupported-grant-type': 1,
    });
  });

  it('counts the behaviours the simulator played, by the names of its list, in its order', () => {
    const coverage = counter();
    coverage.count(exchange('GET', '/api/monitors', 401, {}, { behaviours: ['access-token-expired'] }));
    coverage.count(exchange('GET', '/api/monitors', 503, {}, { behaviours: ['fault-retry-after', 'fault-delay'] }));
    coverage.count(exchange('GET', '/api/monitors', 503, {}, { behaviours: ['fault-retry-after'] }));
    const report = coverage.report();
    expect(report.behaviours.map((behaviour) => behaviour.name)).toEqual(Object.keys(behaviours));
    expect(report.behaviours.filter((behaviour) => behaviour.calls > 0).map((behaviour) => [behaviour.name, behaviour.calls])).toEqual([
      ['access-token-expired', 1],
      ['fault-retry-after', 2],
      ['fault-delay', 1],
    ]);
  });

  it('counts calls that matched no operation by the operation each came closest to, in bounds the contract sets', () => {
    const coverage = counter();
    coverage.count(exchange('GET', '/api/monitor', 404));
    coverage.count(exchange('DELETE', '/api/monitors', 405));
    coverage.count(exchange('GET', '/elsewhere/entirely/and/far/away', 404));
    // Ten thousand distinct paths add counts, not entries: what the report holds does not grow with the traffic.
    for (let index = 0; index < 10_000; index++) coverage.count(exchange('GET', `/api/monitor${index % 2 ? '' : 's'}/x/${index}`, 404));
    const report = coverage.report();
    expect(report.unmatched.calls).toBe(10_003);
    expect(report.unmatched.near_misses.length).toBeLessThanOrEqual(4);
    expect(report.unmatched.near_misses).toContainEqual({
      operation: 'listMonitors',
      method: 'GET',
      path: '/api/monitors',
      differs: ['path'],
      calls: 1,
    });
    expect(report.unmatched.near_misses).toContainEqual({
      operation: 'listMonitors',
      method: 'GET',
      path: '/api/monitors',
      differs: ['method'],
      calls: 1,
    });
    expect(JSON.stringify(report).length).toBeLessThan(40_000);
  });

  it('starts again from nothing on clear', () => {
    const coverage = counter();
    coverage.count(exchange('GET', '/api/monitors', 200, {}, { behaviours: ['customer-account'] }));
    coverage.count(exchange('GET', '/api/monitor', 404));
    coverage.clear();
    const report = coverage.report();
    expect([report.exchanges, report.covered, report.unmatched.calls]).toEqual([0, 0, 0]);
    expect(report.operations.every((operation) => operation.calls === 0 && operation.statuses.every((status) => status.calls === 0))).toBe(
      true,
    );
  });
});

describe('the report', () => {
  it('counts in its percent the operations, their own statuses, the documented errors and the behaviours; not the global table', () => {
    const report = sampleReport();
    expect(report.tally).toEqual({
      operations: { covered: 2, total: 10 },
      statuses: { covered: 2, total: 12 },
      errors: { covered: 1, total: 9 },
      behaviours: { covered: 1, total: Object.keys(behaviours).length },
      global_statuses: { covered: 1, total: 41 },
    });
    // A call the contract refused does not cover its operation; its status (400, of the global table) is answered.
    expect(covered(report).operations).toEqual(['listMonitors', 'getMonitor']);
    expect(report.total).toBe(10 + 12 + 9 + Object.keys(behaviours).length);
    expect(report.covered).toBe(6);
    expect(report.percent).toBe(Math.floor((6 * 1000) / report.total) / 10);
  });

  it('lists what is not covered as production meets it: behaviours, errors, operations, their statuses, then the global table', () => {
    const kinds = sampleReport().uncovered.map((item) => `${item.kind}${item.counted ? '' : ' (global table)'}`);
    const order = [...new Set(kinds)];
    expect(order).toEqual(['behaviour', 'error', 'operation', 'status', 'status (global table)']);
    expect(sampleReport().uncovered[0]).toEqual({
      kind: 'behaviour',
      name: 'access-token-expired',
      description: behaviours['access-token-expired'],
      counted: true,
    });
  });

  it('rounds its percent down: never more than was covered', () => {
    const report = sampleReport();
    const nearly = mergeCoverage([report]);
    expect(nearly.percent * nearly.total).toBeLessThanOrEqual(nearly.covered * 100);
  });
});

describe('mergeCoverage', () => {
  it('gives the union of reports: counts added, an item covered when one of them covered it', () => {
    const a = counter();
    a.count(exchange('GET', '/api/monitors', 200, {}, { behaviours: ['access-token-renewed'] }));
    a.count(exchange('GET', '/api/monitor', 404));
    const b = counter();
    b.count(exchange('GET', '/api/monitors', 503, {}, { behaviours: ['access-token-renewed', 'fault-retry-after'] }));
    b.count(exchange('GET', '/api/monitors/1', 404, { code: 1002 }));
    b.count(exchange('GET', '/api/monitor', 404));
    const [first, second] = [a.report(), b.report()];
    const merged = mergeCoverage([first, second]);
    expect(merged.exchanges).toBe(5);
    expect(covered(merged)).toEqual({
      operations: ['listMonitors', 'getMonitor'],
      statuses: ['listMonitors:200', 'getMonitor:404'],
      errors: ['monitor-does-not-exist'],
      behaviours: ['access-token-renewed', 'fault-retry-after'],
    });
    const union = (kind: keyof ReturnType<typeof covered>) => [...new Set([...covered(first)[kind], ...covered(second)[kind]])].sort();
    for (const kind of ['operations', 'statuses', 'errors', 'behaviours'] as const)
      expect([...covered(merged)[kind]].sort()).toEqual(union(kind));
    expect(merged.behaviours.find((behaviour) => behaviour.name === 'access-token-renewed')?.calls).toBe(2);
    const list = merged.operations.find((operation) => operation.operation === 'listMonitors')!;
    expect(list.statuses.map((status) => [status.status, status.calls])).toEqual([
      [200, 1],
      [400, 0],
      [401, 0],
      [403, 0],
      [404, 0],
      [500, 0],
      [503, 1],
    ]);
    expect(merged.unmatched).toEqual({
      calls: 2,
      near_misses: [{ operation: 'listMonitors', method: 'GET', path: '/api/monitors', differs: ['path'], calls: 2 }],
    });
    // Pure: what it merged is as it was; merging in another order or in steps gives the same.
    expect([first, second]).toEqual([a.report(), b.report()]);
    expect(mergeCoverage([second, first]).tally).toEqual(merged.tally);
    expect(mergeCoverage([mergeCoverage([first]), second])).toEqual(merged);
  });

  it('refuses no report, and reports of different contracts', () => {
    expect(() => mergeCoverage([])).toThrow(/one coverage report or more/);
    const other = { ...sampleReport(), contract: { title: 'Monitoring Service REST API', version: '3.0' } };
    expect(() => mergeCoverage([sampleReport(), other])).toThrow(/different contracts \(Monitoring Service REST API 2\.0 and .* 3\.0\)/);
  });

  it('trusts only the counts: a tally or percent written in a report is made again', () => {
    const forged = { ...sampleReport(), covered: 999, percent: 100, uncovered: [] };
    expect(mergeCoverage([forged])).toEqual(sampleReport());
  });
});

describe('checkCoverage', () => {
  it('passes at or above the minimum and with every required item covered', () => {
    const report = sampleReport();
    expect(checkCoverage(report, { min: report.percent, require: ['listMonitors', 'getMonitor:404', 'customer-account'] })).toEqual({
      passed: true,
      failures: [],
      missing: [],
    });
  });

  it('names the percent below the minimum and each required item not covered', () => {
    const check = checkCoverage(sampleReport(), { min: 90, require: ['access-token-expired', 'listMonitors', 'revokeToken:200'] });
    expect(check.passed).toBe(false);
    expect(check.failures).toEqual([
      expect.stringMatching(/^\d+(\.\d)?% covered \(6 of \d+\), below the minimum of 90%$/),
      `access-token-expired is not covered (behaviour: ${behaviours['access-token-expired']})`,
      'revokeToken:200 is not covered (status: POST /oauth/v2/token/revoke answering 200)',
    ]);
    expect(check.missing.map((item) => item.name)).toEqual(['access-token-expired', 'revokeToken:200']);
  });

  it('refuses a minimum out of 0 to 100 and a name that is no item, naming the option', () => {
    expect(() => checkCoverage(sampleReport(), { min: 101 })).toThrow(OptionError);
    expect(() => checkCoverage(sampleReport(), { require: ['listMonitor', 'getMonitor:999'] })).toThrow(
      /require names "listMonitor", "getMonitor:999", not an item of the report/,
    );
    // Thousands of names, repeated: ten named once each, the rest counted.
    const many = Array.from({ length: 5000 }, (_, index) => `no-such-item-${index % 2500}`);
    const message = (() => {
      try {
        checkCoverage(sampleReport(), { require: many });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/"no-such-item-9" and 2490 more, not an item of the report/);
    expect(message!.length).toBeLessThan(1000);
  });
});

describe('readCoverageReport', () => {
  it('reads back what a report is, its derived parts made again', () => {
    const report = sampleReport();
    expect(readCoverageReport(JSON.parse(JSON.stringify(report)), 'a.json')).toEqual(report);
    const { covered: _c, total: _t, percent: _p, tally: _y, uncovered: _u, ...counts } = report;
    expect(readCoverageReport(JSON.parse(JSON.stringify(counts)), 'a.json')).toEqual(report);
  });

  it('names where a value is not a report, by its JSON pointer', () => {
    const report = JSON.parse(JSON.stringify(sampleReport()));
    const fault = (change: (value: Record<string, any>) => unknown) => {
      const value = structuredClone(report);
      change(value);
      try {
        readCoverageReport(value, 'shard-2.json');
        return 'read';
      } catch (error) {
        expect(error).toBeInstanceOf(CoverageReportError);
        return (error as Error).message;
      }
    };
    expect(fault((value) => (value.report = 'seed'))).toBe(
      'shard-2.json is not a coverage report: /report must be "contract coverage", not "seed"',
    );
    expect(fault((value) => (value.format = 2))).toMatch(/\/format must be 1 \(the format this version reads\), not 2$/);
    expect(fault((value) => (value.operations[2].calls = -1))).toMatch(/\/operations\/2\/calls must be a whole number >= 0, not -1$/);
    expect(fault((value) => (value.operations[2].refused = 5))).toMatch(/\/operations\/2\/refused must be at most the calls \(1\), not 5$/);
    expect(fault((value) => (value.operations[0].statuses[1].status = 99))).toMatch(/statuses\/1\/status must be a status from 100 to 599/);
    expect(fault((value) => (value.behaviours[0].name = 'x'.repeat(2000)))).toMatch(/\/behaviours\/0\/name must be a text of at most 1000/);
    expect(fault((value) => (value.unmatched.near_misses[0].differs = ['everything']))).toMatch(
      /\/unmatched\/near_misses\/0\/differs\/0 must be method, path or server/,
    );
    expect(fault(() => undefined)).toBe('read');
    expect(() => readCoverageReport([], 'x')).toThrow('x is not a coverage report: (the whole) must be an object, not []');
  });
});

describe('formatCoverage', () => {
  /** A report whose texts carry what a terminal, Markdown and XML would act on. */
  const hostile = () => {
    const report = JSON.parse(JSON.stringify(sampleReport())) as CoverageReport;
    report.contract.title = 'API \u001b[31mred\u001b[0m <img src=x onerror=alert(1)> | [link](http://x) & "q"';
    report.behaviours[0]!.name = 'evil\u001b]0;title\u0007';
    report.behaviours[0]!.description = '<script>alert(1)</script> *bold* `code`';
    return readCoverageReport(report, 'hostile.json');
  };

  it('says what the percent counts, each kind, and what production meets first, for a terminal', () => {
    const text = formatCoverage(sampleReport());
    expect(text).toMatch(/^Contract coverage of Monitoring Service REST API 2\.0: 4 exchanges\.\nCovered 6 of \d+ \(\d+(\.\d)?%\)/);
    expect(text.replace(/\n/g, ' ')).toContain(
      "The percent counts the operations called with a request the contract accepts, the statuses each operation documents itself that were answered, the documented errors answered and the behaviours the simulator played. The 41 statuses the operations list from the core document's global table (section 7, marked *) are shown, not counted (1 answered).",
    );
    expect(text).toContain('  ✔ listMonitors');
    expect(text).toContain('      answered 200 ×1; never 400*, 401*, 403*, 404*, 500*');
    expect(text).toContain('  ✘ createMonitorGroup  POST /api/monitor_groups          1 call (1 refused by the contract)');
    expect(text).toContain('  1 near listMonitors (GET /api/monitors): the path differs');
    expect(text).toMatch(/Not covered, in the order production meets it:\n {2}behaviour access-token-expired: /);
  });

  it('escapes the text of a report for a terminal, Markdown and XML', () => {
    const report = hostile();
    const table = formatCoverage(report);
    expect(table).not.toContain('\u001b');
    expect(table).not.toContain('\u0007');
    expect(table).toContain('\\e[31mred');
    const markdown = formatCoverage(report, { format: 'markdown' });
    // Each character Markdown reads as syntax is escaped: no tag, no link.
    expect(markdown).not.toMatch(/<img|<script|[^\\]\]\(http/);
    expect(markdown).toContain('&lt;script&gt;');
    expect(markdown).toContain('\\*bold\\*');
    const junit = formatCoverage(report, { format: 'junit' });
    expect(junit).not.toMatch(/<script|<img| & /);
    expect(junit).toContain('&amp; &quot;q&quot;');
    expect(junit).toContain('\\e]0;title\\u0007');
  });

  it('writes JUnit: an item covered passes, one not covered is skipped, a required one and a percent below the minimum fail', () => {
    const junit = formatCoverage(sampleReport(), { format: 'junit', min: 50, require: ['access-token-expired', 'listMonitors'] });
    const cases = junit.match(/<testcase /g)!.length;
    expect(cases).toBe(10 + 12 + Object.keys(documentedErrors).length + Object.keys(behaviours).length + 41 + 1);
    expect(junit).toMatch(/<testsuites name="monitoring-service-api coverage" tests="\d+" failures="2" errors="0" skipped="\d+">/);
    expect(junit).toMatch(/name="access-token-expired: [^"]*">\n {6}<failure message="required, not covered" type="coverage"\/>/);
    expect(junit).toMatch(/name="listMonitors: GET \/api\/monitors"\/>/);
    expect(junit).toMatch(/name="fault-delay: [^"]*">\n {6}<skipped message="not covered"\/>/);
    expect(junit).toMatch(/name="at least 50% covered">\n {6}<failure message="[\d.]+% covered \(6 of \d+\), below the minimum of 50%"/);
  });

  it('writes JSON that reads back as the same report', () => {
    const report = sampleReport();
    expect(readCoverageReport(JSON.parse(formatCoverage(report, { format: 'json' })), 'x')).toEqual(report);
  });
});

describe('the guide (docs/06-coverage.md)', () => {
  const guide = readFileSync(path.join(root, 'docs', '06-coverage.md'), 'utf8');

  it('lists every behaviour and every documented error, in the order the report does', () => {
    expect(markdownTable(guide, 'Behaviour', 'What the simulator played').map(([name]) => name)).toEqual(Object.keys(behaviours));
    expect(markdownTable(guide, 'Error', 'The answer').map(([name]) => name)).toEqual(Object.keys(documentedErrors));
  });
});

describe('coverage.schema.json', () => {
  const schema = JSON.parse(readFileSync(outputs().coverageSchema, 'utf8'));
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

  it('is what scripts/lib/coverage-schema.ts makes of the description and the lists of behaviours and errors', () => {
    expect(coverageSchema(bundle)).toEqual(schema);
  });

  it('takes the reports the mock makes, merged or not', () => {
    for (const report of [sampleReport(), counter().report(), mergeCoverage([sampleReport(), sampleReport()])])
      expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses what the reader refuses', () => {
    const report = JSON.parse(JSON.stringify(sampleReport()));
    for (const change of [
      (value: any) => (value.report = 'seed'),
      (value: any) => (value.operations[2].calls = -1),
      (value: any) => (value.behaviours[0].calls = 1.5),
      (value: any) => (value.unmatched.near_misses[0].differs = ['everything']),
      (value: any) => delete value.errors,
    ]) {
      const value = structuredClone(report);
      change(value);
      expect(validate(value)).toBe(false);
      expect(() => readCoverageReport(value, 'x')).toThrow(CoverageReportError);
    }
  });
});
