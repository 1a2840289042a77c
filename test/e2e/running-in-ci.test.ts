// docs/07-running-in-ci.md as a CI runs it: each shape's shell blocks, word for word (the port aside), in a project
// of its own that uses the packages of the README's Install commands (the packed package and Prism's engine: the
// run's shared project, its node_modules linked rather than installed again), each step a bash process of its own that must end for
// the next to start: the mock started in the background, then a new process (the project's `npm test`) that calls it,
// then the stop, with nothing left running. The GitHub Actions examples run the same commands as the shell blocks.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { root } from '../../scripts/lib/paths.js';
import { cleanEnv, createProject, exec, type Result, scratchRoot } from '../support/consumer-project.js';
import { guideSection } from '../support/guide.js';
import { guideBlocks } from '../support/guide-blocks.js';
import { send } from '../support/http-client.js';
import { freePort, isRunning, signalTree, waitUntil } from '../support/processes.js';
import { sharedPackage } from '../support/shared-package.js';

const guideFile = 'docs/07-running-in-ci.md';
const guide = readFileSync(path.join(root, guideFile), 'utf8');

/** The blocks of one language in a part of the guide: a `## ` section, or the opening (before the first one). */
const blocksOf = (language: string, section?: string) =>
  guideBlocks(guideFile, section === undefined ? guide.slice(0, guide.indexOf('\n## ')) : guideSection(guide, section))
    .filter((block) => block.language === language)
    .map((block) => block.source);

const oneStep = blocksOf('sh');
const twoSteps = blocksOf('sh', 'Two steps: start the mock in one, run the tests in a later one');

/** The project's own test suite, what `npm test` runs: it calls the mock at the addresses the step gives it. */
const suite = `import { writeFileSync } from 'node:fs';
const monitors = await fetch(\`\${process.env.API_ROOT}/monitors\`, { headers: { Authorization: 'Service-oauthtoken any' } });
const token = await fetch(\`\${process.env.AUTH_URL}/oauth/v2/token\`, {
  method: 'POST',
  body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'c', client_secret: 's', refresh_token: 'r' }),
});
writeFileSync('tests-ran.json', JSON.stringify({ monitors: monitors.status, token: token.status }));
if (monitors.status !== 200 || token.status !== 200 || process.env.BREAK_THE_TESTS) process.exit(1);
`;

let project = '';
/** Mocks a failed test may have left running. */
const loose: number[] = [];

beforeAll(async () => {
  project = createProject(mkdtempSync(path.join(scratchRoot(), 'running-in-ci-')));
  symlinkSync(path.join((await sharedPackage().full).project, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  writeFileSync(path.join(project, 'suite.mjs'), suite);
  await exec('npm', ['pkg', 'set', 'scripts.test=node suite.mjs'], { cwd: project });
}, 300_000);

afterEach(() => {
  for (const pid of loose.splice(0)) signalTree(pid, 'SIGKILL');
  for (const file of ['mock.pid', 'mock.log', 'tests-ran.json']) rmSync(path.join(project, file), { force: true });
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

/** One CI step: a block run by bash -e in the project, on `port`; resolves once it has exited and its output closed. */
async function step(block: string, port: number, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  const source = block.replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`).replaceAll('--port 4010', `--port ${port}`);
  return exec('bash', ['-e', '-c', source], { cwd: project, env: cleanEnv(env), timeoutMs: 60_000 });
}

/** The mock's pid, as its banner gives it. */
function mockPid(result: Result): number {
  const pid = Number(/Process: pid (\d+)/.exec(result.stdout)?.[1]);
  if (pid) loose.push(pid);
  return pid;
}

const read = (file: string) => readFileSync(path.join(project, file), 'utf8');

describe(`${guideFile}: one step`, () => {
  it('starts the mock, runs the tests against it and stops it', async () => {
    expect(oneStep).toHaveLength(1);
    const result = await step(oneStep[0]!, await freePort());
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const pid = mockPid(result);
    expect(JSON.parse(read('tests-ran.json'))).toEqual({ monitors: 200, token: 200 });
    expect(await waitUntil(() => !isRunning(pid), 10_000), 'the mock stopped').toBe(true);
    expect(existsSync(path.join(project, 'mock.pid'))).toBe(false);
  });

  it('stops the mock when the tests fail, and the step fails', async () => {
    const result = await step(oneStep[0]!, await freePort(), { BREAK_THE_TESTS: '1' });
    expect(result.code).not.toBe(0);
    const pid = mockPid(result);
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntil(() => !isRunning(pid), 10_000), 'the mock stopped').toBe(true);
  });
});

describe(`${guideFile}: two steps`, () => {
  it('a step starts the mock and ends; a later process runs the tests; the last step stops the mock', async () => {
    expect(twoSteps).toHaveLength(3);
    const [start, test, stop] = twoSteps as [string, string, string];
    const port = await freePort();
    const started = await step(start, port);
    expect(started.code, `${started.stdout}${started.stderr}`).toBe(0);
    const pid = mockPid(started);
    expect(Number(read('mock.pid'))).toBe(pid);
    const tested = await step(test, port);
    expect(tested.code, `${tested.stdout}${tested.stderr}`).toBe(0);
    expect(JSON.parse(read('tests-ran.json'))).toEqual({ monitors: 200, token: 200 });
    expect(isRunning(pid)).toBe(true);
    const stopped = await step(stop, port);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(await waitUntil(() => !isRunning(pid), 10_000), 'the mock stopped').toBe(true);
    expect(existsSync(path.join(project, 'mock.pid'))).toBe(false);
    expect(read('mock.log')).toMatch(/is listening[\s\S]*SIGTERM: stopping the mock\.\n$/);
  });
});

describe(`${guideFile}: the GitHub Actions examples`, () => {
  /** The `run` lines and `env` of every step of a workflow. */
  const stepsOf = (workflow: string) =>
    Object.values((parse(workflow) as { jobs: Record<string, { steps: { run?: string; env?: Record<string, string> }[] }> }).jobs)
      .flatMap((job) => job.steps)
      .filter((entry) => entry.run !== undefined && entry.run !== 'npm ci');

  it('run the commands of the shell blocks, with the same addresses', () => {
    const cases: [workflow: string, shell: string[]][] = [
      [blocksOf('yaml', 'One step: start the mock, run the tests, stop it')[0]!, oneStep],
      [blocksOf('yaml', 'Two steps: start the mock in one, run the tests in a later one')[0]!, twoSteps],
    ];
    for (const [workflow, shell] of cases) {
      const lines = shell.flatMap((block) => block.split('\n'));
      const steps = stepsOf(workflow).filter((entry) => entry.run !== 'cat mock.log');
      for (const { run, env = {} } of steps) {
        for (const line of run!.trim().split('\n')) expect(lines).toContain(line);
        for (const [name, value] of Object.entries(env)) expect(shell.join('\n')).toContain(`${name}=${value}`);
      }
      expect(steps.flatMap(({ run }) => run!.trim().split('\n')).sort()).toEqual(
        lines.filter((line) => !line.startsWith('export ')).sort(),
      );
    }
  });
});

describe(`${guideFile}: the compose file of parallel workers`, () => {
  interface Service {
    command?: string;
    environment?: Record<string, string>;
  }

  // The suite runs no containers: the file's mock command runs as written in the project, and each service's calls go
  // to it as the service sends them, to its address with the Host of the service name.
  it("its mock's command serves each service's world at the addresses the file gives it, by the service name", async () => {
    const compose = parse(blocksOf('yaml', 'Tests that run in parallel workers')[0]!) as { services: Record<string, Service> };
    const port = await freePort();
    const token = 'compose-token-0123456789abcdef';
    const started = await step(`${compose.services.mock!.command} --detach --pid-file mock.pid`, port, { MOCK_TEST_API_TOKEN: token });
    expect(started.code, `${started.stdout}${started.stderr}`).toBe(0);
    const pid = mockPid(started);
    const origin = `http://127.0.0.1:${port}`;
    /** A call of a service: to the mock's address in the file, with the Host the service name gives it. */
    const call = (address: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
      const url = new URL(address);
      return send(origin, url.pathname, { ...options, headers: { Host: url.host, ...options.headers } });
    };
    const workers = Object.entries(compose.services).filter(([, service]) => service.environment?.API_ROOT);
    expect(workers.map(([name]) => name)).toEqual(['tests-1', 'tests-2']);
    for (const [name, { environment: env }] of workers) {
      expect(env!.MOCK_TEST_API_TOKEN).toBe('${MOCK_TEST_API_TOKEN}');
      const bearer = { Authorization: `Bearer ${token}` };
      const body = JSON.stringify({ account: { monitors: [{ monitor_id: String(name.length * 100 + Number(name.at(-1))) }] } });
      expect(
        (await call(`${env!.MOCK_TEST_API}/state`, { method: 'PUT', body, headers: { ...bearer, 'Content-Type': 'application/json' } }))
          .status,
      ).toBe(200);
      expect((await call(`${env!.MOCK_TEST_API}/state`)).status).toBe(401); // the test API needs the token
    }
    for (const [name, { environment: env }] of workers) {
      const monitors = await call(`${env!.API_ROOT}/monitors`, { headers: { Authorization: 'Service-oauthtoken any' } });
      expect(monitors.json.data, name).toEqual([{ monitor_id: String(name.length * 100 + Number(name.at(-1))) }]);
      const token = await call(`${env!.AUTH_URL}/oauth/v2/token`, {
        method: 'POST',
        body: 'grant_type=refresh_token&client_id=c&client_secret=s&refresh_token=r',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(token.json.api_domain).toBe(`http://0.0.0.0:${port}/worlds/${name}/api`); // the mock's own address, as the default world's
    }
    process.kill(pid, 'SIGTERM');
    expect(await waitUntil(() => !isRunning(pid), 10_000), 'the mock stopped').toBe(true);
  });
});
