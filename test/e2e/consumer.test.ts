// The package as its users get it: `npm pack`, then fresh projects that install the tarball from disk with the
// README's Install commands, word for word, and use it the way the guides say: plain Node 20 (ESM and require),
// Node 22 and 24, TypeScript 5.9 and 7 in the strictest settings, a vitest suite with the mock, the command line (the
// MCP server with an MCP client, configured as docs/10-mcp-server.md says), publint and arethetypeswrong, and the
// size of a client-only install. test/e2e/guides.test.ts checks every block of the guides.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, root } from '../../scripts/lib/paths.js';
import { startMock } from '../../src/mock/index.js';
import { cleanEnv, createProject, diskUse, exec, execOk, inTurns, type Result, scratchRoot, tool } from '../support/consumer-project.js';
import { guideBlocks } from '../support/guide-blocks.js';
import { descendants, isRunning, signalTree, startCommand, waitUntil } from '../support/processes.js';
import { sharedPackage } from '../support/shared-package.js';
import { initDefaults, tsc7Args, tsc7Path } from '../support/tsc.js';

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const scratch = mkdtempSync(path.join(scratchRoot(), 'consumer-'));

/** A server of an MCP client's configuration (`mcpServers`): a command it starts, or a remote server's address. */
interface McpServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
  url: string;
  headers: Record<string, string>;
}

let tarball = '';
/** The project of the README's Install commands, with TypeScript 5.9, vitest, MSW and Node's types (shared by the e2e files). */
let full = '';
/** A project with the package alone: what a user of the client, types and constants installs (shared: read only). */
let clientOnly = '';
let tsc7 = '';
let node22 = '';
let node24 = '';

// The installs and the compilers run while earlier tests run: the client-only project's tests (publint, attw) while
// the full project installs, the other tests of the full project while TypeScript compiles, one program at a time
// (tsc keeps more than one core busy) until the TypeScript suite waits for them, two from then on. A suite waits for
// what it needs in a hook of its own, so that a test's time and timeout are its own work alone.
let clientOnlyInstalled: Promise<unknown>;
let fullInstalled: Promise<unknown>;
/** What each compiler says of each TypeScript program, by `program|compiler`. */
let compiled: Promise<Map<string, Compiled>>;
const compileTurns = inTurns(1);
const started: Promise<unknown>[] = [];
function start<T>(work: Promise<T>): Promise<T> {
  // Its failure is reported by the suite that waits for it, not as an unhandled rejection in between.
  work.catch(() => {});
  started.push(work);
  return work;
}
/** A suite's hook that waits for work started earlier. */
const needs = (work: () => Promise<unknown>) => beforeAll(async () => void (await work()), 600_000);

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'src', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test compiles it first).');
  const packed = sharedPackage();
  tarball = await packed.tarball;
  clientOnlyInstalled = start(packed.clientOnly.then((project) => (clientOnly = project)));
  const install = async () => ({ project: full } = await packed.full);
  fullInstalled = start(
    (async () => {
      [, tsc7, node22, node24] = await Promise.all([install(), tsc7Path(), tool('node@22.23.3', 'node'), tool('node@24.21.0', 'node')]);
    })(),
  );
  compiled = start(fullInstalled.then(compileAll));
}, 120_000);

afterAll(async () => {
  // With a filter (-t) that leaves the TypeScript suite out, its programs still waiting are not compiled.
  compileTurns.stop();
  await Promise.allSettled(started);
  rmSync(scratch, { recursive: true, force: true });
}, 600_000);

/** Writes a file of the project and returns its path. */
const file = (project: string, name: string, text: string) => {
  const target = path.join(project, name);
  writeFileSync(target, text);
  return target;
};

const entriesScript = `
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const main = await import('monitoring-service-api');
const constants = await import('monitoring-service-api/constants');
const lowLevel = await import('monitoring-service-api/client');
const types = await import('monitoring-service-api/types');
const mock = await import('monitoring-service-api/mock');
const proxy = await import('monitoring-service-api/proxy');
const verify = await import('monitoring-service-api/verify');
const zod = await import('monitoring-service-api/zod');
const mcp = await import('monitoring-service-api/mcp');
const asset = (name) => fileURLToPath(import.meta.resolve('monitoring-service-api/' + name));
const require = createRequire(import.meta.url);
console.log(JSON.stringify({
  client: typeof main.createServiceClient, error: typeof main.ServiceError,
  constants: constants.MonitorStatus.ConfigurationError, meaning: constants.MonitorStatusMeanings[10],
  dataCenters: Object.keys(lowLevel.dataCenters).length, types: Object.keys(types).length,
  mock: [typeof mock.startMock, typeof mock.createMockFetch], proxy: typeof proxy.startProxy, verify: typeof verify.verifyService, mcp: [typeof mcp.createMcpServer, mcp.operationTools.length],
  zod: zod.answerSchema('getMonitor', 200).safeParse({ code: 0, message: 'success', data: { monitor_id: '1' } }).success,
  openapiJson: JSON.parse(readFileSync(asset('openapi.json'), 'utf8')).openapi,
  openapiYaml: readFileSync(asset('openapi.yaml'), 'utf8').startsWith('openapi: 3.1'),
  openapi30: [JSON.parse(readFileSync(asset('openapi-3.0.json'), 'utf8')).openapi, readFileSync(asset('openapi-3.0.yaml'), 'utf8').startsWith('openapi: 3.0.3')],
  dereferenced: JSON.stringify(JSON.parse(readFileSync(asset('openapi.dereferenced.json'), 'utf8'))).includes('"$ref"'),
  markdown: [readFileSync(asset('reference.md'), 'utf8').startsWith('# '), readFileSync(asset('llms.txt'), 'utf8').includes('](reference.md#')],
  postman: [
    JSON.parse(readFileSync(asset('postman/collection.json'), 'utf8')).info.schema.endsWith('/v2.1.0/collection.json'),
    JSON.parse(readFileSync(asset('postman/mock.postman_environment.json'), 'utf8')).values.map((value) => value.key).includes('api_root'),
    JSON.parse(readFileSync(asset('postman/eu.postman_environment.json'), 'utf8')).values.map((value) => value.key).includes('auth_url'),
  ],
  docs: readFileSync(asset('docs'), 'utf8').includes('<html'),
  version: require('monitoring-service-api/package.json').version,
}));
`;

const requireScript = `
const api = require('monitoring-service-api');
const constants = require('monitoring-service-api/constants');
const zod = require('monitoring-service-api/zod');
console.log(JSON.stringify({
  client: typeof api.createServiceClient, status: constants.MonitorStatus.Down,
  zod: [zod.answerSchema('getMonitor', 404).safeParse({ code: 1002, message: 'Monitor does not exist.' }).success, zod.MonitorStatusSchema.safeParse(4).success],
}));
`;
const requireExpected = { client: 'function', status: 0, zod: [true, false] };

const mockScript = `
import { startMock } from 'monitoring-service-api/mock';
import { createServiceClient } from 'monitoring-service-api';
const mock = await startMock();
const client = createServiceClient({ baseUrl: mock.baseUrl, authUrl: mock.authUrl, auth: { clientId: 'id', clientSecret: 'secret', refreshToken: 'refresh' } });
const monitors = await client.GET('/monitors');
await mock.stop();
console.log(JSON.stringify({ monitors: monitors.length, node: process.version }));
`;

/** For Node 22 and 24: the two ESM scripts above in one process, each printing its line. */
const entriesAndMockScript = `await import('./entries.mjs');
await import('./mock.mjs');
`;

const expectedEntries = {
  client: 'function',
  error: 'function',
  constants: 10,
  meaning: 'Configuration Error',
  dataCenters: 10,
  types: 0,
  mock: ['function', 'function'],
  proxy: 'function',
  verify: 'function',
  mcp: ['function', JSON.parse(readFileSync(path.join(root, 'generated', 'mcp-tools.json'), 'utf8')).tools.length],
  zod: true,
  openapiJson: '3.1.0',
  openapiYaml: true,
  openapi30: ['3.0.3', true],
  dereferenced: false,
  markdown: [true, true],
  postman: [true, true, true],
  docs: true,
  version: manifest.version,
};

describe('what the package weighs and lints to', () => {
  needs(() => clientOnlyInstalled);

  it('a client-only install brings at most 2 MB of dependencies, and the mock says how to add its engine', async () => {
    const modules = path.join(clientOnly, 'node_modules');
    const dependencies = (await diskUse(modules)) - (await diskUse(path.join(modules, manifest.name)));
    console.log(
      `client-only install: ${(dependencies / 1024 / 1024).toFixed(2)} MB of dependencies besides the package (${((await diskUse(path.join(modules, manifest.name))) / 1024 / 1024).toFixed(1)} MB)`,
    );
    expect(dependencies).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(existsSync(path.join(modules, '@stoplight'))).toBe(false);
    const result = await exec(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import('monitoring-service-api/mock').then((m) => m.startMock()).catch((error) => { console.log(error.message); process.exit(3); })",
      ],
      { cwd: clientOnly },
    );
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/need Prism's HTTP engine[\s\S]*npm install --save-dev --save-exact @stoplight\/prism-http@5\.12\.0/);
  });

  it('publint finds nothing to report', async () => {
    const result = await exec(bin('publint'), [path.join(clientOnly, 'node_modules', manifest.name), '--strict'], { cwd: root });
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/All good!/);
  });

  it('arethetypeswrong finds no problem (an ESM-only package: require() of it works from Node 20.19)', async () => {
    // The YAML description and the HTML page are files to read, not modules to import.
    const result = await exec(
      bin('attw'),
      [
        tarball,
        '--profile',
        'esm-only',
        '--format',
        'ascii',
        '--exclude-entrypoints',
        'openapi.yaml',
        'openapi-3.0.yaml',
        'docs',
        'reference.md',
        'llms.txt',
      ],
      { cwd: root },
    );
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    // Every warning it prints concerns the resolutions an ESM-only package leaves out (node10, and CommonJS
    // through TypeScript's node16 rules, which predate require() of ESM).
    const problems = result.stdout.split('\n').filter((line) => /⚠️|💀|❌|🐛|🥴|❗/u.test(line) && !line.includes('(ignored'));
    expect(problems).toEqual([]);
    expect(result.stdout).toMatch(/ignoring resolutions: 'node10', 'node16-cjs'/);
  });
});

describe("the README's Install section, word for word, in an empty folder", () => {
  needs(() => fullInstalled);

  it("installs the tarball it names and Prism's engine", () => {
    expect(path.basename(tarball)).toBe(`${manifest.name}-${manifest.version}.tgz`);
    const installed = JSON.parse(readFileSync(path.join(full, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(installed.dependencies[manifest.name]).toMatch(/monitoring-service-api-\d/);
    expect(installed.devDependencies['@stoplight/prism-http']).toBe(manifest.peerDependencies['@stoplight/prism-http']);
  });
});

describe('plain Node imports the package', () => {
  needs(async () => {
    await fullInstalled;
    file(full, 'entries.mjs', entriesScript);
    file(full, 'require.cjs', requireScript);
    file(full, 'mock.mjs', mockScript);
    file(full, 'entries-and-mock.mjs', entriesAndMockScript);
  });

  it('Node 20: every entry and asset as ESM, and the main entry, the constants and the zod schemas with require()', async () => {
    const [esm, cjs] = await Promise.all([
      execOk(process.execPath, [path.join(full, 'entries.mjs')], { cwd: full }),
      execOk(process.execPath, [path.join(full, 'require.cjs')], { cwd: full }),
    ]);
    expect(JSON.parse(esm.stdout)).toEqual(expectedEntries);
    expect(JSON.parse(cjs.stdout)).toEqual(requireExpected);
  });

  it('Node 22 and 24: every entry, require(), and a client calling startMock()', async () => {
    for (const node of [node22, node24]) {
      const [esm, cjs] = await Promise.all([
        execOk(node, [path.join(full, 'entries-and-mock.mjs')], { cwd: full }),
        execOk(node, [path.join(full, 'require.cjs')], { cwd: full }),
      ]);
      const lines = esm.stdout.trim().split('\n');
      expect(lines, esm.stdout).toHaveLength(2);
      expect(JSON.parse(lines[0]!)).toEqual(expectedEntries);
      expect(JSON.parse(cjs.stdout)).toEqual(requireExpected);
      expect(JSON.parse(lines[1]!)).toMatchObject({ monitors: 2, node: expect.stringMatching(node === node22 ? /^v22\./ : /^v24\./) });
    }
  });
});

const consumerSource = `import { createServiceClient, formatTimestamp, parseTimestamp, ServiceError, type Monitor, type ServiceClient } from 'monitoring-service-api';
import type { components, paths } from 'monitoring-service-api/types';
import { MonitorStatus, MonitorStatusMeanings, supportedGranularities, type MonitorType } from 'monitoring-service-api/constants';
import { createApiClient, dataCenters, type DataCenterId } from 'monitoring-service-api/client';
import { createMockFetch, startMock, type MockFetch, type RunningMock } from 'monitoring-service-api/mock';
import { formatReport, startProxy, type ExchangeReport } from 'monitoring-service-api/proxy';
import { verifyService, type VerifyReport } from 'monitoring-service-api/verify';
import { answerSchema, MonitorSchema } from 'monitoring-service-api/zod';

type DeviceKey = components['schemas']['DeviceKey'];
type MonitorsPath = paths['/monitors'];

export async function run(): Promise<string[]> {
  const mockFetch: MockFetch = createMockFetch();
  const client: ServiceClient = createServiceClient({
    baseUrl: mockFetch.baseUrl,
    authUrl: mockFetch.authUrl,
    fetch: mockFetch,
    auth: { clientId: 'id', clientSecret: 'secret', refreshToken: 'refresh' },
  });
  const monitors: Monitor[] = await client.GET('/monitors');
  const ids: string[] = monitors.map((monitor) => monitor.monitor_id);
  ids.push(String(MonitorSchema.safeParse(monitors[0]).success), String(answerSchema('getMonitor', 404)?.safeParse({ code: 1002 }).success));
  const key: DeviceKey = await client.GET('/device_key');
  const customer = client.forAccount('700000123');
  await customer.POST('/monitor_groups', { body: { display_name: 'Payment services' } });
  try {
    await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000025001' } } });
  } catch (error) {
    if (ServiceError.is(error) && error.code === 1002) ids.push(error.message);
  }
  const status: MonitorStatus = MonitorStatus.ConfigurationError;
  const meaning: string = MonitorStatusMeanings[status];
  const type: MonitorType = 'URL';
  const units = supportedGranularities(2) ?? [];
  const center: DataCenterId = 'eu';
  const api = createApiClient({ baseUrl: dataCenters[center].baseUrl, fetch: mockFetch });
  const { data } = await api.GET('/monitors');
  const when: Date = parseTimestamp('2026-11-21T10:00:00+0530');
  const mock: RunningMock = await startMock({ port: 0 });
  const proxy = await startProxy({ upstream: mock.authUrl, onReport: (report: ExchangeReport) => ids.push(formatReport(report)) });
  await proxy.stop();
  const verified: VerifyReport = await verifyService({ baseUrl: mock.baseUrl, auth: { accessToken: 'any' }, ratePerSecond: 100 });
  ids.push(String(verified.exitCode));
  await mock.stop();
  const operation: MonitorsPath['get'] | undefined = undefined;
  void operation;
  return [...ids, key.device_key, meaning, type, String(units.length), String(data?.data.length), formatTimestamp(when, '+0530')];
}
`;

// The declarations of every library are checked (skipLibCheck off): the package's, and those it brings (openapi-fetch,
// zod). TypeScript's own (lib.dom.d.ts and the rest, the same whatever a package declares: ours declares no global)
// are not, which saves a fifth of each compile.
const strictest = {
  ...initDefaults,
  noPropertyAccessFromIndexSignature: true,
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  noEmit: true,
};
const configurations: Record<string, object> = {
  'tsc --init defaults': { ...initDefaults, noEmit: true },
  'strictest, nodenext': { ...strictest, moduleResolution: 'nodenext' },
  'strictest, bundler': { ...strictest, module: 'preserve', moduleResolution: 'bundler' },
};

interface Compiled {
  command: string;
  result: Result;
}

/**
 * Every TypeScript program of the tests, each compiled once by each compiler, in turns (the longest first): the
 * consumer file in each configuration (without Node's types: the package's declarations need none).
 */
async function compileAll(): Promise<Map<string, Compiled>> {
  file(full, 'consumer.ts', consumerSource);
  const program = (name: string) =>
    file(
      full,
      `tsconfig.${name.replace(/\W+/g, '-')}.json`,
      JSON.stringify({ compilerOptions: configurations[name], files: ['consumer.ts'] }, null, 2),
    );
  const programs: Record<string, string> = {
    'strictest, bundler': program('strictest, bundler'),
    'strictest, nodenext': program('strictest, nodenext'),
    'tsc --init defaults': program('tsc --init defaults'),
  };
  const runs = Object.entries(compilerPaths()).flatMap(([compilerName, compiler]) =>
    Object.entries(programs).map(([name, config]) =>
      compileTurns.run(async (): Promise<[string, Compiled]> => {
        const args = compilerName === 'TypeScript 7' ? ['-p', config, ...tsc7Args] : ['-p', config];
        const result = await exec(compiler, args, { cwd: full });
        return [`${name}|${compilerName}`, { command: `${compiler} ${args.join(' ').replace(config, path.basename(config))}`, result }];
      }),
    ),
  );
  return new Map(await Promise.all(runs));
}

/** The compilers, by name: TypeScript 5.9 of the project, TypeScript 7 of the npm registry. */
const compilerPaths = () => ({ 'TypeScript 5.9': path.join(full, 'node_modules', '.bin', 'tsc'), 'TypeScript 7': tsc7 });

describe('a vitest suite of the consumer that runs the mock', () => {
  needs(() => fullInstalled);

  it('a globalSetup starts startMock(), a test calls it through createServiceClient', async () => {
    file(
      full,
      'global-setup.mjs',
      `import { startMock } from 'monitoring-service-api/mock';
export default async function setup({ provide }) {
  const mock = await startMock();
  provide('mock', { baseUrl: mock.baseUrl, authUrl: mock.authUrl });
  return () => mock.stop();
}
`,
    );
    file(full, 'vitest.config.mjs', `export default { test: { globalSetup: ['./global-setup.mjs'], include: ['*.test.mjs'] } };\n`);
    file(
      full,
      'monitors.test.mjs',
      `import { expect, inject, it } from 'vitest';
import { createServiceClient, ServiceError } from 'monitoring-service-api';

const { baseUrl, authUrl } = inject('mock');
const client = createServiceClient({ baseUrl, authUrl, auth: { clientId: 'id', clientSecret: 'secret', refreshToken: 'refresh' }, retry: false });

it('lists the monitors of the mock', async () => {
  const monitors = await client.GET('/monitors');
  expect(monitors[0].monitor_id).toMatch(/^\\d+$/);
});

it('reads the documented 1002 error', async () => {
  const error = await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } }, headers: { Prefer: 'code=404' } }).catch((e) => e);
  expect(ServiceError.is(error) && error.code).toBe(1002);
});
`,
    );
    const result = await exec(path.join(full, 'node_modules', '.bin', 'vitest'), ['run'], { cwd: full });
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/Tests\s+2 passed/);
  });
});

describe('the command line of the installed package', () => {
  needs(() => fullInstalled);

  it('npx monitoring-service-api mock --port 0 answers GET /api/monitors and stops on Ctrl-C with nothing left', async () => {
    const command = startCommand('npx', ['monitoring-service-api', 'mock', '--port', '0'], cleanEnv(), full);
    try {
      const [, baseUrl] = await command.waitFor(/API root \(\{base_url\}\): +(\S+)/);
      const response = await fetch(`${baseUrl}/monitors`, { headers: { Authorization: 'Service-oauthtoken any' } });
      expect(response.status).toBe(200);
      const tree = [command.child.pid!, ...descendants(command.child.pid!)];
      signalTree(command.child.pid!, 'SIGINT');
      await command.exited;
      expect(await waitUntil(() => tree.every((pid) => !isRunning(pid)), 15_000), `left running: ${tree.filter(isRunning)}`).toBe(true);
      expect(command.output()).toMatch(/SIGINT: stopping the mock/);
    } finally {
      signalTree(command.child.pid!, 'SIGKILL');
    }
  });

  it("the MCP guide's client configurations serve the API over stdio and Streamable HTTP, read-only unless allowed", async () => {
    const configs = guideBlocks('docs/10-mcp-server.md')
      .filter((block) => block.language === 'json')
      .map((block) => JSON.parse(block.source.replaceAll('/path/to/my-project', full)) as { mcpServers: Record<string, McpServerConfig> });
    expect(configs.map((config) => Object.keys(config.mcpServers))).toEqual([['monitoring'], ['monitoring-mock'], ['monitoring']]);
    const onMock = configs[1]!.mcpServers['monitoring-mock']!;
    const mock = await startMock();
    const connect = async (args: string[]) => {
      const client = new Client({ name: 'consumer-assistant', version: '1.0.0' });
      // An MCP client starts the command from its own folder, with the configuration's environment added to its own.
      const env = cleanEnv(onMock.env) as Record<string, string>;
      await client.connect(new StdioClientTransport({ command: onMock.command, args, cwd: os.tmpdir(), env, stderr: 'ignore' }));
      return client;
    };
    const args = onMock.args.map((arg) => (arg === 'http://127.0.0.1:4010/api' ? mock.baseUrl : arg));
    const [writing, readOnly] = await Promise.all([connect(args), connect(args.filter((arg) => arg !== '--allow-writes'))]);
    try {
      const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
      expect(await names(writing)).toEqual(expect.arrayContaining(['listMonitors', 'getMonitor', 'createMonitorGroup', 'lookupConstant']));
      expect(await names(readOnly)).not.toContain('createMonitorGroup');
      const text = async (client: Client, name: string, input: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: input })) as { content: { text: string }[] }).content[0]!.text;
      const data = async (client: Client, name: string) =>
        ((await client.callTool({ name, arguments: {} })) as unknown as { structuredContent: { data: unknown[] } }).structuredContent.data;
      expect((await data(readOnly, 'listMonitors'))[0]).toHaveProperty('monitor_id');
      expect(JSON.parse(await text(readOnly, 'lookupConstant', { enumeration: 'MonitorStatus', value: 10 }))[0].meaning).toBe(
        'Configuration Error',
      );

      // Over Streamable HTTP: the command started as the guide says, the client configured by its headers.
      const token = 'consumer-http-token-0123456789abcdef';
      const remote = configs[2]!.mcpServers.monitoring!;
      const command = startCommand(
        'npx',
        ['monitoring-service-api', 'mcp', '--http', '--port', '0', '--base-url', mock.baseUrl],
        cleanEnv({ ACCESS_TOKEN: 'any', MCP_HTTP_TOKEN: token }),
        full,
      );
      try {
        const [, url] = await command.waitFor(/Streamable HTTP at (\S+\/mcp)/);
        const headers = Object.fromEntries(
          Object.entries(remote.headers).map(([name, value]) => [name, value.replace('<MCP_HTTP_TOKEN>', token)]),
        );
        const hosted = new Client({ name: 'hosted-assistant', version: '1.0.0' });
        await hosted.connect(new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers } }));
        expect(await names(hosted)).not.toContain('createMonitorGroup');
        expect((await data(hosted, 'listMonitors'))[0]).toHaveProperty('monitor_id');
        await hosted.close();
      } finally {
        signalTree(command.child.pid!, 'SIGKILL');
      }
    } finally {
      await Promise.all([writing.close(), readOnly.close()]);
      await mock.stop();
    }
  });

  it('--help, and an unknown option: exit 2 naming it', async () => {
    const help = await execOk('npx', ['monitoring-service-api', '--help'], { cwd: full });
    expect(help.stdout).toMatch(/Usage: monitoring-service-api <command>[\s\S]*mock[\s\S]*proxy/);
    const unknown = await exec('npx', ['monitoring-service-api', 'mock', '--prot', '1'], { cwd: full });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--prot'/);
  });
});

describe('TypeScript in a consumer project', () => {
  let outputs = new Map<string, Compiled>();
  needs(async () => {
    compileTurns.widen(2);
    outputs = await compiled;
  });

  it('tsc --init writes the defaults checked below (TypeScript 5.9 and 7)', async () => {
    for (const compiler of Object.values(compilerPaths())) {
      const dir = path.join(scratch, `init-${path.basename(path.dirname(path.dirname(path.dirname(compiler))))}`);
      createProject(dir);
      await execOk(compiler, ['--init'], { cwd: dir });
      const written = readFileSync(path.join(dir, 'tsconfig.json'), 'utf8');
      for (const [option, value] of Object.entries(initDefaults)) {
        expect(written, `${compiler}: ${option}`).toMatch(
          new RegExp(`^\\s*"${option}": ${JSON.stringify(value).replace(/[[\]]/g, '\\$&')},?$`, 'm'),
        );
      }
    }
  });

  for (const name of Object.keys(configurations)) {
    it(`compiles a consumer file with no error: ${name}, TypeScript 5.9 and 7`, () => {
      for (const compiler of Object.keys(compilerPaths())) {
        const { command, result } = outputs.get(`${name}|${compiler}`)!;
        expect(`${result.stdout}${result.stderr}`, command).toBe('');
        expect(result.code).toBe(0);
      }
    });
  }
});
