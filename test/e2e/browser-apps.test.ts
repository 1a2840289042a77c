// The client in a front-end toolchain, as a front-end developer builds an app: the packed package installed with zod,
// the app bundled by Vite 8 (its dev server, whose dependency pre-bundler is Rolldown, and its production build) and by
// webpack 5, each page run in Chromium on another origin than the mock's (pages on http://localhost:PORT, the mock on
// http://127.0.0.1:PORT). The app authenticates as the browser guide says (docs/03-browser-apps.md, its first block,
// compiled to JavaScript as it is): an access token from its own backend, renewed through the backend once the mock
// refuses it. In each page: the list, a 1002, an account named both ways (forAccount, params.cookie.zaaid) refused
// before anything is sent, validate both ways, calls with credentials ('include') whose errors and headers the page
// reads, and a network error in a browser without URL.canParse. Vite comes from devDependencies; webpack from the
// npm registry into the user's cache (tool()). One Chromium for the file; each build once.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { transform } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, root } from '../../scripts/lib/paths.js';
import { freePort } from '../../scripts/lib/ports.js';
import { exchangeGrantCode, refreshAccessToken } from '../../src/index.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { cleanEnv, exec, execOk, npmInstall, scratchRoot, tool } from '../support/consumer-project.js';
import { launchChromium } from '../support/docs-browser.js';
import { guideBlocks } from '../support/guide-blocks.js';
import { type Command, signalTree, startCommand } from '../support/processes.js';
import { sharedPackage } from '../support/shared-package.js';

const devDependencies = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
  .devDependencies;
/** webpack and its command line, at the versions proven here (installed once per machine). */
const webpack = { spec: 'webpack-cli@7.3.1', with: ['webpack@5.112.2'] };

/** The guide's example: how a browser app authenticates. */
const guideExample = guideBlocks('docs/03-browser-apps.md').find((block) => block.source.includes('export function serviceCalls'))!;

/** The app's page script: the scenario, run by the test with the addresses of the run. */
const mainSource = `import { createServiceClient, ServiceError } from 'monitoring-service-api';
import { answerSchema } from 'monitoring-service-api/zod';
import { serviceCalls } from './service.js';

const outcome = async (work) => {
  try {
    return { value: await work() };
  } catch (error) {
    return ServiceError.is(error)
      ? { kind: error.kind, status: error.status, code: error.code, message: error.message, retryAfterMs: error.retryAfterMs }
      : { name: error.name, message: error.message };
  }
};
const ids = (monitors) => monitors.map((monitor) => monitor.monitor_id);
const missing = (client) => client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '123' } } });

window.scenario = async ({ apiRoot, closedApiRoot }) => {
  const withService = serviceCalls(apiRoot);
  const list = await outcome(() => withService(async (client) => ids(await client.GET('/monitors'))));
  const { access_token: accessToken } = await (await fetch('/session/service-token', { method: 'POST' })).json();
  const auth = { accessToken };
  const client = createServiceClient({ baseUrl: apiRoot, auth });
  const credentialed = createServiceClient({ baseUrl: apiRoot, auth, fetch: (request) => fetch(request, { credentials: 'include' }) });
  return {
    list,
    missing: await outcome(() => missing(client)),
    forAccount: await outcome(async () => client.forAccount('700000123').account),
    cookieParam: await outcome(() =>
      client.POST('/monitor_groups', { params: { cookie: { zaaid: '700000123' } }, body: { display_name: 'Named by a cookie' } }),
    ),
    validateTrue: await outcome(async () => createServiceClient({ baseUrl: apiRoot, auth, validate: true }).baseUrl),
    validateSchemas: await outcome(async () => ids(await createServiceClient({ baseUrl: apiRoot, auth, validate: answerSchema }).GET('/monitors'))),
    credentialedList: await outcome(async () => ids(await credentialed.GET('/monitors'))),
    credentialedMissing: await outcome(() => missing(credentialed)),
    credentialedFault: await outcome(() => credentialed.POST('/monitor_groups', { body: { display_name: 'Refused' } })),
    olderBrowser: await outcome(async () => {
      delete URL.canParse; // as in Chrome 111 to 119 and Safari 16.4 to 16.6, inside Vite's default targets
      return createServiceClient({ baseUrl: closedApiRoot, auth, retry: false }).GET('/monitors');
    }),
  };
};
`;

const scratch = mkdtempSync(path.join(scratchRoot(), 'browser-apps-'));
const project = path.join(scratch, 'app');
let mock: RunningMock;
/** Every answer of the mock, as `METHOD target status`. */
const answers: string[] = [];
/** The app's backend: hands out the mock's access tokens; `stale` makes its next one a token the mock refuses. */
const backend = { stale: true, asked: 0, token: undefined as Promise<string> | undefined };
/** The built apps and the backend, on one origin: http://localhost:PORT. */
let site: http.Server;
let sitePort = 0;
let devServer: Command | undefined;
let devPort = 0;
let closedApiRoot = '';
/** What each bundler printed of its build. */
const buildOutput: Record<string, string> = {};

/** A refresh token of a client registered with the mock: the backend's secret. */
async function backendToken(): Promise<string> {
  const { client_id, client_secret } = mock.control.registerClient();
  const { code } = mock.control.grantCode({ client_id, scope: 'Service.Admin.Read,Service.Admin.Create' });
  const grant = await exchangeGrantCode({ authUrl: mock.authUrl, clientId: client_id, clientSecret: client_secret, code });
  const renewed = await refreshAccessToken({
    authUrl: mock.authUrl,
    clientId: client_id,
    clientSecret: client_secret,
    refreshToken: grant.refreshToken,
  });
  return renewed.accessToken;
}

function serveSite(): http.Server {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  return http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/session/service-token' && request.method === 'POST') {
      backend.asked += 1;
      const token = backend.stale ? Promise.resolve('expired-in-the-backend-cache') : (backend.token ??= backendToken());
      backend.stale = false;
      token.then(
        (access_token) => {
          response.writeHead(200, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ access_token }));
        },
        (error: Error) => {
          response.writeHead(500);
          response.end(error.message);
        },
      );
      return;
    }
    // /vite/... and /webpack/...: the files each build wrote.
    const [, build, ...rest] = url.pathname.split('/');
    const file = path.join(project, `${build}-dist`, ...(rest.join('/') || 'index.html').split('/'));
    try {
      const body = readFileSync(file.endsWith(path.sep) ? path.join(file, 'index.html') : file);
      response.writeHead(200, { 'Content-Type': types[path.extname(file) || '.html'] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end();
    }
  });
}

beforeAll(async () => {
  const webpackBin = tool(webpack.spec, 'webpack', webpack.with);
  webpackBin.catch(() => {}); // reported by the build below
  cpSync(await sharedPackage().clientOnly, project, { recursive: true, verbatimSymlinks: true });
  await npmInstall(project, [`zod@${devDependencies.zod}`]);
  mkdirSync(path.join(project, 'src'));
  // The guide's TypeScript as the app's build would compile it: types stripped, nothing else changed.
  writeFileSync(path.join(project, 'src', 'service.js'), (await transform(guideExample.source, { loader: 'ts', format: 'esm' })).code);
  writeFileSync(path.join(project, 'src', 'main.js'), mainSource);
  writeFileSync(path.join(project, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/src/main.js"></script>\n');
  writeFileSync(
    path.join(project, 'vite.config.mjs'),
    `export default {
  base: './',
  clearScreen: false,
  build: { outDir: 'vite-dist' },
  server: { proxy: { '/session': process.env.APP_BACKEND, '/api': process.env.APP_API } },
};
`,
  );
  writeFileSync(
    path.join(project, 'webpack.config.mjs'),
    `export default {
  mode: 'production',
  entry: './src/main.js',
  output: { path: new URL('./webpack-dist', import.meta.url).pathname, filename: 'app.js' },
  performance: { hints: false },
};
`,
  );
  mock = await startMock({ strictTokens: true, onAnswer: (method, target, status) => answers.push(`${method} ${target} ${status}`) });
  closedApiRoot = `http://127.0.0.1:${await freePort()}/api`;
  site = serveSite();
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
  const env = cleanEnv({ APP_BACKEND: `http://127.0.0.1:${sitePort}`, APP_API: mock.authUrl });
  // The two builds one after the other (each takes a core), the dev server last.
  buildOutput.vite = (await execOk(bin('vite'), ['build', '--logLevel', 'info'], { cwd: project, env })).stdout;
  buildOutput.webpack = (await execOk(await webpackBin, ['--config', 'webpack.config.mjs'], { cwd: project, env })).stdout;
  writeFileSync(path.join(project, 'webpack-dist', 'index.html'), '<!doctype html><title>app</title><script src="app.js"></script>\n');
  devPort = await freePort();
  devServer = startCommand(bin('vite'), ['--host', '127.0.0.1', '--port', String(devPort), '--strictPort'], env, project);
  await devServer.waitFor(/Local:\s+http:\/\/127\.0\.0\.1:\d+/, 60_000);
}, 300_000);

afterAll(async () => {
  if (devServer) {
    signalTree(devServer.child.pid!, 'SIGTERM');
    await devServer.closed;
  }
  site?.closeAllConnections();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await mock?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** One Chromium for the tests of this file. */
let chromium: Promise<Browser> | undefined;
const browser = () => (chromium ??= launchChromium());
afterAll(async () => {
  await (await chromium?.catch(() => undefined))?.close();
});

/** Runs the scenario in a page of the app at `url`, with what the page printed if it never gets ready. */
async function runScenario(url: string, apiRoot = mock.baseUrl): Promise<Record<string, any>> {
  const page = await (await browser()).newPage();
  const messages: string[] = [];
  page.on('pageerror', (error) => messages.push(`page error: ${error.message}`));
  page.on('console', (message) => messages.push(`console.${message.type()}: ${message.text()}`));
  page.on('response', (response) => {
    if (response.status() >= 500) messages.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(url);
    await page
      .waitForFunction(() => typeof (window as unknown as { scenario?: unknown }).scenario === 'function', undefined, { timeout: 20_000 })
      .catch((error: Error) => {
        throw new Error(`${url} never ran the app: ${error.message}\n${messages.join('\n')}`);
      });
    mock.control.fault({ operation: 'createMonitorGroup', status: 503, retry_after_s: 3 });
    backend.stale = true;
    answers.length = 0;
    return await page.evaluate(
      (config) => (window as unknown as { scenario: (config: object) => Promise<Record<string, any>> }).scenario(config),
      { apiRoot, closedApiRoot },
    );
  } finally {
    await page.close();
  }
}

/** What the scenario gives in every build. */
function expectScenario(result: Record<string, any>): void {
  const cookieRefusal = /needs the Cookie header \(Cookie: zaaid=\.\.\.\), and this runtime cannot set it/;
  expect(result).toMatchObject({
    list: { value: expect.arrayContaining([expect.stringMatching(/^\d+$/)]) },
    missing: { kind: 'http', status: 404, code: 1002, message: 'Monitor does not exist.' },
    forAccount: { name: 'TypeError', message: expect.stringMatching(cookieRefusal) },
    cookieParam: { name: 'TypeError', message: expect.stringMatching(cookieRefusal) },
    validateTrue: { name: 'TypeError', message: expect.stringMatching(/^validate: true loads the zod schemas .*validate: answerSchema/) },
    validateSchemas: { value: result.list.value },
    credentialedList: { value: result.list.value },
    credentialedMissing: { kind: 'http', status: 404, code: 1002 },
    credentialedFault: { kind: 'http', status: 503, retryAfterMs: 3000 },
    olderBrowser: { kind: 'network', message: expect.stringMatching(/^Network error/) },
  });
  // The made-up token was refused once, and renewed through the backend.
  expect(answers).toContain('GET /api/monitors 401');
  expect(backend.asked).toBeGreaterThanOrEqual(2);
  // Nothing was sent for the account named by a cookie: the only group POST is the one the fault refused.
  expect(answers.filter((answer) => answer.startsWith('POST /api/monitor_groups'))).toEqual(['POST /api/monitor_groups 503']);
}

describe('an app built by Vite 8, in Chromium on another origin than the mock', () => {
  it('the production build (vite build) runs the scenario', async () => {
    expectScenario(await runScenario(`http://localhost:${sitePort}/vite/`));
    console.log(`vite build:\n${buildOutput.vite}`);
  });

  it('the dev server (Rolldown pre-bundles the package) runs the scenario, and reaches the mock through its proxy too', async () => {
    expectScenario(await runScenario(`http://localhost:${devPort}/`));
    // The same app with the API behind the dev server's own origin: baseUrl '/api', no CORS at all.
    const proxied = await runScenario(`http://localhost:${devPort}/`, '/api');
    expect(proxied.list).toEqual({ value: expect.arrayContaining([expect.stringMatching(/^\d+$/)]) });
    expect(proxied.missing).toMatchObject({ status: 404, code: 1002 });
  });
});

describe('an app built by webpack 5, in Chromium on another origin than the mock', () => {
  it('the production build runs the scenario', async () => {
    expectScenario(await runScenario(`http://localhost:${sitePort}/webpack/`));
    const size = readFileSync(path.join(project, 'webpack-dist', 'app.js')).byteLength;
    console.log(`webpack 5 build: app.js ${(size / 1024).toFixed(1)} kB minified (zod and the schemas included: the app validates)`);
  });
});

describe('validate: true in Node without zod installed', () => {
  it('refuses before anything is sent', async () => {
    answers.length = 0;
    const script = `import { createServiceClient } from 'monitoring-service-api';
const client = createServiceClient({ baseUrl: ${JSON.stringify(mock.baseUrl)}, auth: { accessToken: 'token' }, validate: true });
try {
  await client.POST('/monitor_groups', { body: { display_name: 'Not sent' } });
  console.log('sent');
} catch (error) {
  console.log(error.name + ': ' + error.message);
}
`;
    const result = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: await sharedPackage().clientOnly });
    expect(result.stdout).toMatch(/^TypeError: validate: true loads the zod schemas installed beside this package, and needs zod 4/);
    expect(answers).toEqual([]);
  });
});
