// docs/06-coverage.md's vitest recipe as a team uses it, in the project of the README's Install commands (the packed
// package): its blocks written word for word as the files they name, test files of the team's beside them, run by
// vitest in parallel workers. One mock for the run: the workers' calls are one report, written and printed at the end.
// A mock per test file: each file's report saved, the global setup merging them into their union. Then the command
// line as a CI step gates on the report written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoverageReport } from '../../src/coverage/types.js';
import { cleanEnv, exec } from '../support/consumer-project.js';
import { sectionBlocks } from '../support/guide-blocks.js';
import { sharedPackage } from '../support/shared-package.js';

const guideFile = 'docs/06-coverage.md';
/** The recipe's blocks, each the file its first line names (`// vitest.config.ts`). */
const recipe = new Map(
  sectionBlocks(guideFile, '## In a vitest suite', 'ts').map((source) => [/^\/\/ (\S+)/.exec(source)?.[1] ?? '(unnamed)', source]),
);

/** The team's test files: each plays part of a session, and notes the worker process it ran in. */
const teamTests = (addresses: string) => ({
  'test/expired.test.ts': `import { writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { createServiceClient } from 'monitoring-service-api';
${addresses}
writeFileSync(\`workers/expired-\${process.pid}\`, '');

test('renews an expired token', async () => {
  const client = createServiceClient({ baseUrl, authUrl, auth: { clientId: 'c', clientSecret: 's', refreshToken: 'expired-test' } });
  await client.GET('/monitors');
  await fetch(\`\${authUrl}/__mock/clock\`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"advance_ms":3600000}' });
  expect(await client.GET('/monitors')).toBeInstanceOf(Array);
});
`,
  'test/customer.test.ts': `import { writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { createServiceClient, ServiceError } from 'monitoring-service-api';
${addresses}
writeFileSync(\`workers/customer-\${process.pid}\`, '');

test("a customer's monitors, and one that does not exist", async () => {
  const client = createServiceClient({ baseUrl, authUrl, auth: { clientId: 'c', clientSecret: 's', refreshToken: 'customer-test' } });
  expect(await client.forAccount('700000123').GET('/monitors')).toBeInstanceOf(Array);
  const error = await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } }).catch((caught: unknown) => caught);
  expect(ServiceError.is(error) && error.code).toBe(1002);
});
`,
});

let project = '';
let folder = '';

beforeAll(async () => {
  ({ project } = await sharedPackage().full);
  folder = mkdtempSync(path.join(project, 'coverage-recipe-'));
}, 300_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A project of the team's in the folder: the recipe's files but those `left` out (`config` its vitest.config.ts), and
 * the team's test files.
 */
function teamProject(name: string, config: string, tests: Record<string, string>, left: string[] = []): string {
  const dir = path.join(folder, name);
  for (const sub of ['test', 'workers']) mkdirSync(path.join(dir, sub), { recursive: true });
  const files = { ...Object.fromEntries(recipe), 'vitest.config.ts': config, ...tests };
  for (const [file, source] of Object.entries(files)) if (!left.includes(file)) writeFileSync(path.join(dir, file), `${source}\n`);
  return dir;
}

/** `npx vitest run` in a project of the team's, three workers at a time. */
const vitest = (dir: string) =>
  exec(path.join(project, 'node_modules', '.bin', 'vitest'), ['run', '--maxWorkers=3'], { cwd: dir, env: cleanEnv(), timeoutMs: 120_000 });

/** The names of a report's covered items. */
function covered(report: CoverageReport): string[] {
  const uncovered = new Set(report.uncovered.map((item) => item.name));
  return [
    ...report.operations.filter((operation) => !uncovered.has(operation.operation)).map((operation) => operation.operation),
    ...[...report.errors, ...report.behaviours].filter((entry) => entry.calls > 0).map((entry) => entry.name),
  ].sort();
}

const sessionItems = [
  'access-token-expired',
  'access-token-renewed',
  'customer-account',
  'getMonitor',
  'listMonitors',
  'monitor-does-not-exist',
  'requestToken',
];

describe(`${guideFile}: the vitest recipe`, () => {
  it('names its files: the configuration, the global setup, a test, the setup file of a mock per test file', () => {
    expect([...recipe.keys()]).toEqual(['vitest.config.ts', 'test/contract-coverage.ts', 'test/monitors.test.ts', 'test/mock-per-file.ts']);
  });

  it('one mock for the run: the calls of parallel workers in one report, written and printed at the end; the command gates on it', async () => {
    const inject = "import { inject } from 'vitest';\nconst { baseUrl, authUrl } = inject('mock');";
    const dir = teamProject('one-mock', recipe.get('vitest.config.ts')!, teamTests(inject));
    const run = await vitest(dir);
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/Test Files +3 passed/);
    expect(new Set(readdirSync(path.join(dir, 'workers')).map((name) => name.split('-')[1])).size, 'worker processes').toBeGreaterThan(1);
    expect(run.stdout).toMatch(/Contract coverage of Monitoring Service REST API 2\.0: \d+ exchanges\.\nCovered \d+ of \d+/);
    const report = JSON.parse(readFileSync(path.join(dir, 'contract-coverage.json'), 'utf8')) as CoverageReport;
    expect(covered(report)).toEqual(sessionItems);

    const npx = (...args: string[]) =>
      exec('npx', ['monitoring-service-api', 'coverage', ...args], { cwd: dir, env: cleanEnv(), timeoutMs: 60_000 });
    const met = await npx('contract-coverage.json', '--require', 'access-token-expired,customer-account,getMonitor:404');
    expect([met.code, met.stderr]).toEqual([0, '']);
    const missing = await npx('contract-coverage.json', '--require', 'token-revoked', '--format', 'junit');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/token-revoked is not covered/);
    expect(missing.stdout).toMatch(/<testsuites name="monitoring-service-api coverage" .*failures="1"/);
  });

  it("a mock per test file: each file's report saved, the global setup's merge their union", async () => {
    const config = recipe
      .get('vitest.config.ts')!
      .replace("globalSetup: ['./test/contract-coverage.ts']", "$&, setupFiles: ['./test/mock-per-file.ts']");
    expect(config).toContain('setupFiles');
    const env = 'const baseUrl = process.env.API_ROOT!;\nconst authUrl = process.env.AUTH_URL!;';
    // The recipe's own test calls the run's mock: each file here has its own.
    const dir = teamProject('mock-per-file', config, teamTests(env), ['test/monitors.test.ts']);
    const run = await vitest(dir);
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
    const saved = readdirSync(path.join(dir, 'contract-coverage')).map(
      (file) => JSON.parse(readFileSync(path.join(dir, 'contract-coverage', file), 'utf8')) as CoverageReport,
    );
    expect(saved).toHaveLength(2);
    const report = JSON.parse(readFileSync(path.join(dir, 'contract-coverage.json'), 'utf8')) as CoverageReport;
    expect(report.exchanges).toBe(saved[0]!.exchanges + saved[1]!.exchanges);
    expect(covered(report)).toEqual([...new Set(saved.flatMap(covered))].sort());
    expect(covered(report)).toEqual(sessionItems);
    expect(run.stdout).toMatch(/Contract coverage of Monitoring Service REST API 2\.0/);
  });
});
