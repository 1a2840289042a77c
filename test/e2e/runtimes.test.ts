// The packed package's client in every runtime TypeScript runs in, against the mock's simulator over loopback: a
// Chromium page on another origin (bundled by esbuild: CORS, the Service-oauthtoken header), Deno, Bun and workerd
// (Cloudflare's Workers runtime), each installed once per machine from the npm registry (tool()). Each runs one
// scenario: an access token refused (401), renewed once from the refresh token, the call retried; a list of
// monitors; a missing monitor read as a ServiceError with the service's code 1002. A runtime that cannot be
// installed on this platform is skipped with the reason printed; Node (20, 22 and 24) is proven by consumer.test.ts.
// The client bundled alone (no node: module) works in a page with a fetch given, and says why forAccount cannot.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, root } from '../../scripts/lib/paths.js';
import { exchangeGrantCode } from '../../src/index.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { cleanEnv, execOk, scratchRoot, tool } from '../support/consumer-project.js';
import { launchChromium } from '../support/docs-browser.js';
import { sharedPackage } from '../support/shared-package.js';

/** The runtimes from the npm registry, at the versions proven here (their binaries come in optional dependencies). */
const runtimes = { bun: 'bun@1.4.5', deno: 'deno@2.9.6', workerd: 'workerd@1.20261117.1' } as const;
type Runtime = keyof typeof runtimes;

/** The platforms all three publish binaries for on the npm registry; elsewhere their tests are skipped, saying why. */
const builtFor = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];
const platform = `${process.platform}-${process.arch}`;

/** What every runtime runs: the user's code, importing the package by its name. */
const scenarioSource = `import { createServiceClient, ServiceError } from 'monitoring-service-api';

export async function scenario({ baseUrl, authUrl, clientId, clientSecret, refreshToken }) {
  const renewals = [];
  const client = createServiceClient({
    baseUrl,
    authUrl,
    // An access token the mock did not issue: refused with a 401, renewed once from the refresh token, retried.
    auth: { clientId, clientSecret, refreshToken, accessToken: 'not-issued-by-the-mock' },
    onTokenRenewed: (token) => renewals.push(token.expiresIn),
  });
  const monitors = await client.GET('/monitors');
  let failure;
  try {
    await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '123' } } });
  } catch (error) {
    failure = error;
  }
  return {
    monitors: monitors.map((monitor) => monitor.monitor_id),
    renewals,
    error: ServiceError.is(failure)
      ? { instance: failure instanceof ServiceError, status: failure.status, code: failure.code, message: failure.message }
      : String(failure),
  };
}
`;

interface Credentials {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

const scratch = mkdtempSync(path.join(scratchRoot(), 'runtimes-'));
let project = '';
let mock: RunningMock;
/** Each runtime's binary: installed on the first run on the machine (while the project installs), reused after. */
const installed = new Map<Runtime, Promise<string>>();
/** Every answer of the mock, as `METHOD target status`. */
const answers: string[] = [];

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'src', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test compiles it first).');
  if (builtFor.includes(platform)) {
    for (const [name, spec] of Object.entries(runtimes) as [Runtime, string][]) {
      const binary = tool(spec, name);
      binary.catch(() => {}); // reported by the test that needs it
      installed.set(name, binary);
    }
  }
  // The package installed alone, as the consumer test's client-only project has it; copied, to write files in it.
  project = path.join(scratch, 'app');
  cpSync(await sharedPackage().clientOnly, project, { recursive: true, verbatimSymlinks: true });
  writeFileSync(path.join(project, 'scenario.mjs'), scenarioSource);
  mock = await startMock({ strictTokens: true, onAnswer: (method, target, status) => answers.push(`${method} ${target} ${status}`) });
}, 180_000);

afterAll(async () => {
  await mock?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** A client registered with the mock and a refresh token of its own, for one runtime (the limits are per token). */
async function credentials(): Promise<Credentials> {
  const { client_id, client_secret } = mock.control.registerClient();
  const { code } = mock.control.grantCode({ client_id, scope: 'Service.Admin.Read' });
  const tokens = await exchangeGrantCode({ authUrl: mock.authUrl, clientId: client_id, clientSecret: client_secret, code });
  return {
    baseUrl: mock.baseUrl,
    authUrl: mock.authUrl,
    clientId: client_id,
    clientSecret: client_secret,
    refreshToken: tokens.refreshToken,
  };
}

/** What the scenario must give in every runtime. */
function expectScenario(result: unknown): void {
  expect(result).toMatchObject({
    monitors: expect.arrayContaining([expect.stringMatching(/^\d+$/)]),
    renewals: [3600],
    error: { instance: true, status: 404, code: 1002, message: 'Monitor does not exist.' },
  });
}

/** A file of the project that runs the scenario with these credentials and prints its result as JSON. */
function runner(name: string, given: Credentials): string {
  const source = `import { scenario } from './scenario.mjs';\nconsole.log(JSON.stringify(await scenario(${JSON.stringify(given)})));\n`;
  writeFileSync(path.join(project, name), source);
  return name;
}

/** The last line of a runtime's output, as JSON. */
const lastJson = (stdout: string): unknown => JSON.parse(stdout.trim().split('\n').at(-1)!);

/**
 * A runtime's binary. Where it publishes none for this platform the test is skipped, with the reason printed; where
 * it does, a failed install fails the test.
 */
async function runtime(name: Runtime, skip: (note: string) => never): Promise<string> {
  const binary = installed.get(name);
  if (!binary) {
    const reason = `${runtimes[name]} publishes no binary for ${platform} on the npm registry (only ${builtFor.join(', ')})`;
    console.warn(`skipped: ${reason}`);
    skip(reason);
  }
  return binary;
}

/** Bundles an entry of the project into one ES module (esbuild, as a front-end or a Workers build would). */
async function bundle(entry: string, outfile: string, platform: 'browser' | 'neutral', conditions: string[] = []): Promise<string> {
  const args = [entry, '--bundle', '--minify', '--format=esm', `--platform=${platform}`, `--outfile=${outfile}`, '--log-level=warning'];
  if (conditions.length > 0) args.push(`--conditions=${conditions.join(',')}`, '--main-fields=module,main');
  await execOk(bin('esbuild'), args, { cwd: project });
  return readFileSync(path.join(project, outfile), 'utf8');
}

/** One Chromium for the tests of this file, launched by the first that needs it (a launch costs a second of CPU). */
let chromium: Promise<Browser> | undefined;
const browser = () => (chromium ??= launchChromium());
afterAll(async () => {
  await (await chromium?.catch(() => undefined))?.close();
});

describe('the client in a Chromium page on another origin', () => {
  let site: http.Server | undefined;
  afterAll(async () => {
    site?.closeAllConnections();
    if (site) await new Promise((resolve) => site!.close(resolve));
  });

  it('calls the mock across origins: CORS preflight, Service-oauthtoken, a renewal after a 401, error 1002', async () => {
    writeFileSync(path.join(project, 'browser-entry.mjs'), "import { scenario } from './scenario.mjs';\nwindow.scenario = scenario;\n");
    const code = await bundle('browser-entry.mjs', 'browser.js', 'browser');
    // The page's own server: http://localhost:PORT, another origin than the mock's http://127.0.0.1:PORT.
    site = http.createServer((request, response) => {
      const script = request.url === '/app.js';
      response.writeHead(200, { 'Content-Type': script ? 'text/javascript' : 'text/html' });
      response.end(script ? code : '<!doctype html><title>app</title><script type="module" src="/app.js"></script>');
    });
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    const page = await (await browser()).newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => typeof (window as unknown as { scenario?: unknown }).scenario === 'function');
    const given = await credentials();
    const result = await page.evaluate(
      (config) => (window as unknown as { scenario: (config: Credentials) => Promise<unknown> }).scenario(config),
      given,
    );
    expectScenario(result);
    expect(pageErrors).toEqual([]);
    // The browser asked the mock before sending the Authorization header across origins.
    expect(answers).toContainEqual(expect.stringMatching(/^OPTIONS \/api\/monitors 204$/));
  });
});

describe('the client bundled for a browser page', () => {
  it('bundles for browsers, works there with a fetch, and forAccount fails clearly where Cookie cannot be set', async () => {
    writeFileSync(
      path.join(project, 'fetch-entry.mjs'),
      `import { createServiceClient } from 'monitoring-service-api';
window.run = async () => {
  const seen = [];
  const client = createServiceClient({
    baseUrl: 'https://mock.invalid/api',
    auth: { accessToken: 'token' },
    fetch: async (request) => {
      seen.push(request.headers.get('Authorization'));
      return new Response(JSON.stringify({ message: 'success', data: [{ monitor_id: '1' }] }), { headers: { 'Content-Type': 'application/json' } });
    },
  });
  const monitors = await client.GET('/monitors');
  let account;
  try {
    client.forAccount('700000123');
    account = 'no error';
  } catch (error) {
    account = error.message;
  }
  return { monitors, seen, account };
};
`,
    );
    const outfile = path.join(project, 'fetch-bundle.js');
    await execOk(
      bin('esbuild'),
      ['fetch-entry.mjs', '--bundle', '--platform=browser', '--format=iife', `--outfile=${outfile}`, '--log-level=warning'],
      { cwd: project },
    );
    const code = readFileSync(outfile, 'utf8');
    expect(code).not.toMatch(/require\("node:|from "node:/);
    console.log(`browser bundle of the client: ${(Buffer.byteLength(code) / 1024).toFixed(0)} kB (unminified)`);
    const page = await (await browser()).newPage();
    await page.setContent('<!doctype html><title>client</title>');
    await page.addScriptTag({ content: code });
    const result = await page.evaluate(() => (window as unknown as { run: () => Promise<unknown> }).run());
    expect(result).toMatchObject({ monitors: [{ monitor_id: '1' }], seen: ['Service-oauthtoken token'] });
    expect((result as { account: string }).account).toMatch(/forAccount needs the Cookie header.*cannot set it/);
  });
});

describe('the client in Deno', () => {
  it('runs the scenario from the installed package (node_modules, no bundle)', { timeout: 240_000 }, async ({ skip }) => {
    const deno = await runtime('deno', skip);
    const given = await credentials();
    const { port } = new URL(given.baseUrl);
    const result = await execOk(deno, ['run', `--allow-net=127.0.0.1:${port}`, '--allow-read=.', runner('deno-run.mjs', given)], {
      cwd: project,
      env: cleanEnv({ DENO_DIR: path.join(scratch, 'deno-cache'), DENO_NO_UPDATE_CHECK: '1' }),
      timeoutMs: 60_000,
    });
    expectScenario(lastJson(result.stdout));
  });
});

describe('the client in Bun', () => {
  it('runs the scenario from the installed package (node_modules, no bundle)', { timeout: 240_000 }, async ({ skip }) => {
    const bun = await runtime('bun', skip);
    const result = await execOk(bun, ['run', runner('bun-run.mjs', await credentials())], {
      cwd: project,
      env: cleanEnv({ BUN_INSTALL_CACHE_DIR: path.join(scratch, 'bun-cache'), DO_NOT_TRACK: '1' }),
      timeoutMs: 60_000,
    });
    expectScenario(lastJson(result.stdout));
  });
});

describe('the client in workerd, the Workers runtime', () => {
  it("runs the scenario in a worker's test handler (one bundle, as a Workers build makes it)", { timeout: 240_000 }, async ({ skip }) => {
    const workerd = await runtime('workerd', skip);
    const given = await credentials();
    writeFileSync(
      path.join(project, 'worker-entry.mjs'),
      `import { scenario } from './scenario.mjs';
export default {
  async test() {
    console.log('RESULT ' + JSON.stringify(await scenario(${JSON.stringify(given)})));
  },
};
`,
    );
    await bundle('worker-entry.mjs', 'worker.js', 'neutral', ['workerd', 'worker', 'browser']);
    const dir = path.join(project, 'workerd');
    mkdirSync(dir, { recursive: true });
    // The worker may reach loopback addresses ("local"): the mock listens there.
    writeFileSync(
      path.join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "../worker.js")],
  compatibilityDate = "2026-11-01",
  globalOutbound = "internet",
);
`,
    );
    const result = await execOk(workerd, ['test', '--verbose', 'config.capnp'], { cwd: dir, timeoutMs: 60_000 });
    const output = `${result.stdout}\n${result.stderr}`;
    const line = output.split('\n').find((text) => text.includes('RESULT {'));
    expect(line, output).toBeDefined();
    expectScenario(JSON.parse(line!.slice(line!.indexOf('RESULT ') + 7)));
    expect(output).toMatch(/\[ PASS \]/);
  });
});
