// npm run bench: measures the pipeline, the mock and the client on this machine and prints one table. Every figure
// comes from this one run; the anchors (the `prism mock` command line, plain fetch) are measured beside them, on the
// same document, with the same load generator and the same requests. Everything listens on 127.0.0.1 and is
// stopped at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { build } from './build.js';
import { bin, outputs, root } from './lib/paths.js';
import { numberOption, runScript, type ScriptLine } from '../src/cli/args.js';
import { mockDocument } from '../src/description/mock-document.js';
import { sampleRequests, type SampleRequest } from './lib/sample-requests.js';
import { journalRows } from './lib/bench-journal.js';

export const benchLine = {
  usage: `Usage: npm run bench -- [--requests 2000] [--skip-build]
  --requests N   requests per load measurement (10 to 100000). Default 2000.
  --skip-build   measure generated/ and dist/ as they are, without the build rows.
  -h, --help     this help.
Prints a table of figures; the anchors are measured in the same run.`,
  options: { requests: { type: 'string', default: '2000' }, 'skip-build': { type: 'boolean', default: false } },
} satisfies ScriptLine;

interface Row {
  measure: string;
  figure: string;
  anchor: string;
  notes: string;
}

const rows: Row[] = [];
const row = (measure: string, figure: string, anchor = '', notes = '') => {
  rows.push({ measure, figure, anchor, notes });
  console.error(`  ${measure}: ${figure}${anchor ? ` | ${anchor}` : ''}${notes ? `  (${notes})` : ''}`);
};
const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(0)} ms`);
const since = (start: number) => performance.now() - start;
const distBin = path.join(root, 'dist', 'src', 'bin.js');
const distMock = path.join(root, 'dist', 'src', 'mock', 'index.js');

/** RSS of a process and every process below it, in MB. */
function treeRssMb(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirProc()) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), entry]);
    } catch {
      // gone
    }
  }
  let kb = 0;
  for (const queue = [pid]; queue.length > 0; ) {
    const current = queue.shift()!;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${current}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
    queue.push(...(children.get(current) ?? []));
  }
  return kb / 1024;
}

function readdirProc(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

// ---------------------------------------------------------------------------------------------------------------
// The load generator: keep-alive HTTP, `concurrency` requests in flight, `total` requests, bounded in time.

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function sendSample(origin: URL, sample: SampleRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers =
      sample.body === undefined ? sample.headers : { ...sample.headers, 'Content-Length': String(Buffer.byteLength(sample.body)) };
    const request = http.request(
      { agent, host: origin.hostname, port: origin.port, method: sample.method, path: sample.path, headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.setTimeout(10_000, () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
    request.end(sample.body);
  });
}

async function load(origin: string, samples: SampleRequest[], total: number, concurrency: number) {
  const url = new URL(origin);
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const deadline = Date.now() + 120_000;
  const started = performance.now();
  const worker = async () => {
    while (next < total && Date.now() < deadline) {
      const sample = samples[next++ % samples.length]!;
      const begin = performance.now();
      const status = await sendSample(url, sample).catch(() => 0);
      latencies.push(performance.now() - begin);
      if (status !== sample.status) failures++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = since(started) / 1000;
  return { perSecond: latencies.length / seconds, ...percentiles(latencies), count: latencies.length, failures };
}

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * (sorted.length - 1)))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

// ---------------------------------------------------------------------------------------------------------------
// Servers started as their users start them.

interface Started {
  child: ChildProcess;
  origin: string;
  /** From the spawn to the first answer of GET /api/monitors. */
  startupMs: number;
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns a server on a known port and polls it until GET /api/monitors answers 200. */
async function startServer(command: string, args: string[], port: number, first: SampleRequest): Promise<Started> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited:\n${output}`);
      return (await sendSample(new URL(origin), first).catch(() => 0)) === 200 ? true : undefined;
    },
    60_000,
    `the first answer of ${args.join(' ')}`,
  );
  return { child, origin, startupMs: since(started) };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** A child Node process that runs `code` (an ES module) and prints one JSON line of figures. */
function nodeFigures(code: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split('\n').at(-1)!)) : reject(new Error(`figures script exited ${code}: ${output}`)),
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------

async function main(values: Record<string, string | boolean | undefined>) {
  const requestCount = numberOption('requests', values.requests, benchLine.usage, { whole: true, range: [10, 100_000] })!;

  console.error(
    `Benchmarks on ${os.cpus().length} CPU(s), Node ${process.version}; load average before: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );

  // 1. The pipeline.
  if (!values['skip-build']) {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-build-'));
    try {
      let started = performance.now();
      const cold = await build({ out: scratch, force: true });
      row('build of generated/, cold (every step)', ms(since(started)), '', cold.map((step) => `${step.step} ${ms(step.ms)}`).join(', '));
      await build(); // brings generated/ and dist/ up to date, if they were not
      started = performance.now();
      const noop = await build();
      row('build, nothing changed', ms(since(started)), '', `${noop.filter((step) => step.ran).length} of ${noop.length} steps ran`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  const bundle = JSON.parse(readFileSync(outputs().bundleJson, 'utf8'));
  const samples = sampleRequests(bundle);
  const first = samples.find((entry) => entry.operationId === 'listMonitors')!;

  // 2. startMock() and createMockFetch(), in fresh Node processes: what a test suite pays.
  {
    const figures = await nodeFigures(`
      const t0 = performance.now();
      const { startMock, createMockFetch } = await import(${JSON.stringify(distMock)});
      const imported = performance.now();
      const mock = await startMock();
      const response = await fetch(mock.baseUrl + '/monitors', { headers: { Authorization: 'Service-oauthtoken x' } });
      await response.arrayBuffer();
      const answered = performance.now();
      await mock.stop();
      const again = performance.now();
      const second = await startMock();
      await (await fetch(second.baseUrl + '/monitors', { headers: { Authorization: 'Service-oauthtoken x' } })).arrayBuffer();
      const againAnswered = performance.now();
      await second.stop();
      const mockFetch = createMockFetch();
      await mockFetch.ready;
      const times = [];
      for (let i = 0; i < 3000; i++) {
        const begin = performance.now();
        const reply = await mockFetch(mockFetch.baseUrl + '/monitors', { headers: { Authorization: 'Service-oauthtoken x' } });
        await reply.arrayBuffer();
        if (i >= 500) times.push(performance.now() - begin);
      }
      times.sort((a, b) => a - b);
      // The token round trip of the simulator: a grant token, its exchange, a refresh, a call with the new token.
      const form = (fields) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
      const roundTrip = async () => {
        const client = mockFetch.control.registerClient();
        const { code } = mockFetch.control.grantCode({ client_id: client.client_id, scope: 'Service.Admin.Read' });
        const exchanged = await (await mockFetch(mockFetch.authUrl + '/oauth/v2/token', form({ ...client, code, grant_type: 'authorization_code' }))).json();
        const refreshed = await (await mockFetch(mockFetch.authUrl + '/oauth/v2/token', form({ ...client, refresh_token: exchanged.refresh_token, grant_type: 'refresh_token' }))).json();
        const reply = await mockFetch(mockFetch.baseUrl + '/device_key', { headers: { Authorization: 'Service-oauthtoken ' + refreshed.access_token } });
        if (reply.status !== 200) throw new Error('the token round trip ended with ' + reply.status);
        await reply.arrayBuffer();
      };
      const rounds = [];
      for (let i = 0; i < 600; i++) {
        const begin = performance.now();
        await roundTrip();
        if (i >= 100) rounds.push(performance.now() - begin);
      }
      rounds.sort((a, b) => a - b);
      console.log(JSON.stringify({ importMs: imported - t0, startMs: answered - imported, secondMs: againAnswered - again, p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], tokenP50: rounds[Math.floor(rounds.length / 2)], tokenP99: rounds[Math.floor(rounds.length * 0.99)] }));
    `);
    row(
      'startMock() to first answer',
      ms(figures.startMs!),
      '',
      `first in a fresh process: loads Prism's engine; importing monitoring-service-api/mock before it took ${ms(figures.importMs!)}`,
    );
    row('startMock() to first answer, engine loaded', ms(figures.secondMs!), '', 'a second mock in the same process');
    row(
      'createMockFetch(), per call',
      `p50 ${figures.p50!.toFixed(2)} ms, p99 ${figures.p99!.toFixed(2)} ms`,
      '',
      'GET /api/monitors in-process, 2500 sequential calls after 500 of warm-up',
    );
    row(
      'token round trip, in-process',
      `p50 ${figures.tokenP50!.toFixed(2)} ms, p99 ${figures.tokenP99!.toFixed(2)} ms`,
      '',
      'createMockFetch(): a client and a grant token (control), the exchange, a refresh, GET /api/device_key with the new token; 500 rounds after 100 of warm-up',
    );
  }

  // 3. The command lines side by side: start-up, then load and memory, on the same document and requests.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-prism-'));
  const prismDocument = path.join(scratch, 'openapi.json');
  writeFileSync(prismDocument, JSON.stringify(mockDocument(bundle)));
  const ourPort = await freePort();
  const ours = await startServer(process.execPath, [distBin, 'mock', '--port', String(ourPort)], ourPort, first);
  const prismPort = await freePort();
  const prism = await startServer(
    process.execPath,
    [
      path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'),
      'mock',
      prismDocument,
      '--port',
      String(prismPort),
      '-v',
      'warn',
    ],
    prismPort,
    first,
  );
  try {
    row(
      'command line to first answer',
      ms(ours.startupMs),
      `prism mock: ${ms(prism.startupMs)}`,
      'node dist/src/bin.js mock (what npx monitoring-service-api mock runs) against the @stoplight/prism-cli command on the same document',
    );
    for (let round = 0; round < 2; round++) for (const origin of [ours.origin, prism.origin]) await load(origin, samples, 500, 10); // warm-up
    for (const concurrency of [1, 50]) {
      // Alternating halves, so that a busy moment of the machine weighs on both.
      const totals = { ours: [] as Awaited<ReturnType<typeof load>>[], prism: [] as Awaited<ReturnType<typeof load>>[] };
      for (let round = 0; round < 2; round++) {
        totals.ours.push(await load(ours.origin, samples, Math.ceil(requestCount / 2), concurrency));
        totals.prism.push(await load(prism.origin, samples, Math.ceil(requestCount / 2), concurrency));
      }
      const sum = (results: Awaited<ReturnType<typeof load>>[]) => ({
        perSecond: results.reduce((total, result) => total + result.perSecond, 0) / results.length,
        p50: results.reduce((total, result) => total + result.p50, 0) / results.length,
        p99: Math.max(...results.map((result) => result.p99)),
        failures: results.reduce((total, result) => total + result.failures, 0),
      });
      const a = sum(totals.ours);
      const b = sum(totals.prism);
      row(
        `requests per second, concurrency ${concurrency}`,
        `${a.perSecond.toFixed(0)} req/s (${(a.perSecond / b.perSecond).toFixed(2)}x), p50 ${a.p50.toFixed(2)} ms, p99 ${a.p99.toFixed(1)} ms`,
        `prism mock: ${b.perSecond.toFixed(0)} req/s, p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(1)} ms`,
        `${requestCount} requests each, the ${samples.length} operations' sample requests in turn${a.failures + b.failures ? `; unexpected statuses: ours ${a.failures}, prism ${b.failures} (the simulator refuses the sample grant token after its first use, and the sample refresh token once revoked)` : ''}`,
      );
    }
    row(
      'memory (RSS) after the load, all processes',
      `${treeRssMb(ours.child.pid!).toFixed(0)} MB`,
      `prism mock: ${treeRssMb(prism.child.pid!).toFixed(0)} MB`,
      'the mock is one process; the prism command line forks a worker',
    );
  } finally {
    await stop(ours.child);
    await stop(prism.child);
    rmSync(scratch, { recursive: true, force: true });
  }

  // The request journal's cost: the same build with the journal off, side by side (scripts/lib/bench-journal.ts).
  await journalRows({ requestCount, samples, first, load, startServer, stop, freePort, nodeFigures, row });

  // 4. The typed client against plain fetch, to the same small local server (a separate process).
  {
    const serverCode = `
      const http = require('node:http');
      const body = JSON.stringify({ code: 0, message: 'success', data: [{ monitor_id: '169863000000025001' }] });
      http.createServer((request, response) => {
        request.resume();
        request.on('end', () => { response.writeHead(200, { 'Content-Type': 'application/json' }); response.end(body); });
      }).listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });`;
    const server = spawn(process.execPath, ['-e', serverCode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    server.stdout!.on('data', (chunk) => (out += chunk));
    try {
      const port = await waitFor(() => /port (\d+)/.exec(out)?.[1], 10_000, 'the local server');
      const calls = Math.max(500, Math.floor(requestCount / 2));
      const figures = await nodeFigures(`
        const { createServiceClient } = await import(${JSON.stringify(path.join(root, 'dist', 'src', 'index.js'))});
        const baseUrl = 'http://127.0.0.1:${port}/api';
        const headers = { Authorization: 'Service-oauthtoken 1000.bench', Accept: 'application/json; version=2.0' };
        const client = createServiceClient({ baseUrl, auth: { accessToken: '1000.bench' }, retry: false });
        const raw = async () => { const response = await fetch(baseUrl + '/monitors', { headers }); await response.json(); };
        const typed = async () => { await client.GET('/monitors'); };
        const checking = createServiceClient({ baseUrl, auth: { accessToken: '1000.bench' }, retry: false, validate: true });
        const validated = async () => { await checking.GET('/monitors'); };
        const time = async (call) => {
          for (let i = 0; i < 200; i++) await call();
          const started = performance.now();
          for (let i = 0; i < ${calls}; i++) await call();
          return ((performance.now() - started) * 1000) / ${calls};
        };
        let rawUs = 0, typedUs = 0, validatedUs = 0;
        for (let round = 0; round < 2; round++) { rawUs += await time(raw); typedUs += await time(typed); validatedUs += await time(validated); }
        console.log(JSON.stringify({ rawUs: rawUs / 2, typedUs: typedUs / 2, validatedUs: validatedUs / 2 }));
      `);
      row(
        'client, per call (GET /monitors)',
        `${figures.typedUs!.toFixed(0)} µs (${(figures.typedUs! / figures.rawUs!).toFixed(2)}x)`,
        `fetch + JSON: ${figures.rawUs!.toFixed(0)} µs`,
        `${calls} sequential calls each, same local server`,
      );
      row(
        'client with validate: true, per call',
        `${figures.validatedUs!.toFixed(0)} µs (${(figures.validatedUs! / figures.rawUs!).toFixed(2)}x)`,
        `fetch + JSON: ${figures.rawUs!.toFixed(0)} µs`,
        'each answer checked by its zod schema',
      );
    } finally {
      server.kill('SIGTERM');
    }
  }

  // 5. Type-checking a small consumer of the types and the client.
  {
    const dir = path.join(root, 'node_modules', '.cache', 'bench-consumer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'consumer.ts'),
      `import { createServiceClient, type Monitor } from '../../../dist/src/index.js';
import type { components } from '../../../dist/generated/types.js';

type DeviceKey = components['schemas']['DeviceKey'];
export async function run(): Promise<[DeviceKey, Monitor[]]> {
  const client = createServiceClient({ dataCenter: 'eu', auth: { accessToken: 'x' } });
  return [await client.GET('/device_key'), await client.GET('/monitors')];
}
`,
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify(
        { extends: '../../../tsconfig.json', include: [], files: ['consumer.ts'], compilerOptions: { noEmit: true, incremental: false } },
        null,
        2,
      ),
    );
    const started = performance.now();
    const code = await new Promise<number>((resolve) => {
      const child = spawn(bin('tsc'), ['-p', path.join(dir, 'tsconfig.json'), '--noEmit'], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.on('exit', (exitCode) => resolve(exitCode ?? 1));
    });
    row(
      'tsc --noEmit of a small consumer',
      ms(since(started)),
      '',
      code === 0 ? 'strict; the compiled declarations of dist/; whole program from a cold start' : `tsc failed (exit ${code})`,
    );
  }

  agent.destroy();
  console.error(
    `load average after: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  const widths = [7, 6, 6].map((minimum, index) =>
    Math.max(minimum, ...rows.map((entry) => [entry.measure, entry.figure, entry.anchor][index]!.length)),
  );
  const line = (cells: string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`;
  console.log(`\n${line(['Measure', 'Figure', 'Anchor, same run', 'Notes'])}`);
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|-------|`);
  for (const entry of rows) console.log(line([entry.measure, entry.figure, entry.anchor, entry.notes]));
}

runScript(benchLine, import.meta.url, main);
