// npm run bench: measures the pipeline, the mock and the client on this machine and prints one table. Every
// figure comes from this one run; everything it starts listens on 127.0.0.1 and is stopped at the end.
//
//   tsx scripts/bench.ts [--requests 2000] [--skip-build]
//
// Rows: the whole build cold (--force into a temporary folder) and with nothing changed; the mock's start-up to
// its first answer (programmatic and command line); requests per second and p50/p99 latency at concurrency 1 and
// 50, through the front and against the same Prism directly; the RSS of the mock's processes; the typed client's cost per call
// against plain fetch to the same local server; `tsc --noEmit` of a small consumer of the types and the client.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './build.js';
import { startMock } from './lib/mock-server.js';
import { bin, outputs, root } from './lib/paths.js';
import { sampleRequests, type SampleRequest } from './lib/sample-requests.js';
import { createServiceClient } from '../src/index.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, 'skip-build': { type: 'boolean', default: false } } });
const requestCount = Number(values.requests);
if (!Number.isInteger(requestCount) || requestCount < 10 || requestCount > 100_000) throw new Error('--requests must be a number from 10 to 100000');

interface Row {
  measure: string;
  figure: string;
  notes: string;
}
const rows: Row[] = [];
const row = (measure: string, figure: string, notes = '') => {
  rows.push({ measure, figure, notes });
  console.error(`  ${measure}: ${figure}${notes ? `  (${notes})` : ''}`);
};
const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(0)} ms`);
const since = (start: number) => performance.now() - start;

function rssMb(pid: number | undefined): string {
  if (!pid) return '-';
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return `${(kb / 1024).toFixed(0)} MB`;
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Load: keep-alive HTTP, `concurrency` requests in flight, `total` requests, bounded in time.

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function sendSample(origin: URL, sample: SampleRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = sample.body === undefined ? sample.headers : { ...sample.headers, 'Content-Length': String(Buffer.byteLength(sample.body)) };
    const request = http.request({ agent, host: origin.hostname, port: origin.port, method: sample.method, path: sample.path, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
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
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) => latencies[Math.min(latencies.length - 1, Math.floor(fraction * (latencies.length - 1)))] ?? NaN;
  return { perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), count: latencies.length, failures };
}

// ---------------------------------------------------------------------------------------------------------------
// Commands run as a user runs them.

interface Started {
  child: ChildProcess;
  output: () => string;
}

function startCli(args: string[]): Started {
  const child = spawn(bin('tsx'), args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stopCli(started: Started) {
  if (started.child.exitCode !== null) return;
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
}

/** Starts `tsx scripts/mock.ts` on a free port; resolves once the mock answers, with the time that took. */
async function mockCli() {
  const started = performance.now();
  const cli = startCli(['scripts/mock.ts', '--port', '0']);
  const banner = await waitFor(
    () => /API root \(\{base_url\}\): +(\S+)[\s\S]*Processes: mock pid (\d+), Prism pid (\d+) \(Prism itself answers on (\S+),/.exec(cli.output()) ?? undefined,
    60_000,
    'the mock banner',
  );
  const baseUrl = banner[1]!;
  const sample = samples.find((entry) => entry.operationId === 'listMonitors')!;
  await waitFor(async () => ((await sendSample(new URL(baseUrl), sample).catch(() => 0)) === 200 ? true : undefined), 30_000, 'the first answer');
  return { cli, origin: new URL(baseUrl).origin, prismOrigin: banner[4]!, startupMs: since(started), frontPid: Number(banner[2]), prismPid: Number(banner[3]) };
}

// ---------------------------------------------------------------------------------------------------------------

const bundle = JSON.parse(readFileSync(outputs().bundleJson, 'utf8'));
const samples = sampleRequests(bundle);
console.error(`Benchmarks on ${os.cpus().length} CPU(s), Node ${process.version}, load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}:`);

// 1. The pipeline.
if (!values['skip-build']) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-build-'));
  try {
    let started = performance.now();
    const cold = await build({ out: scratch, force: true });
    row('build, cold (all steps, --force, temp dir)', ms(since(started)), cold.map((step) => `${step.step} ${ms(step.ms)}`).join(', '));
    await build(); // brings generated/ up to date, if it was not
    started = performance.now();
    const noop = await build();
    row('build, nothing changed', ms(since(started)), `${noop.filter((step) => step.ran).length} of ${noop.length} steps ran`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// 2. Start-up to the first answer.
{
  const started = performance.now();
  const mock = await startMock();
  const first = await sendSample(new URL(mock.authUrl), samples.find((entry) => entry.operationId === 'listMonitors')!);
  row('mock start-up to first answer, startMock()', ms(since(started)), `front + Prism, in-process; first answer ${first}`);
  await mock.stop();
}

// 3. Load and memory: the mock as `npm run mock` runs it. The same Prism process is also loaded directly (it
// listens on loopback behind the front), in alternation, to show what the front costs.
{
  const mock = await mockCli();
  try {
    row('mock start-up to first answer, command line', ms(mock.startupMs), 'tsx scripts/mock.ts --port 0: tsx, front, Prism');
    for (const origin of [mock.origin, mock.prismOrigin, mock.origin, mock.prismOrigin]) await load(origin, samples, 300, 10); // warm-up (JIT)
    for (const concurrency of [1, 50]) {
      for (const [label, origin] of [
        ['mock (front + Prism)', mock.origin],
        ['Prism alone, same process', mock.prismOrigin],
      ] as const) {
        const result = await load(origin, samples, requestCount, concurrency);
        row(
          `${label}, concurrency ${concurrency}`,
          `${result.perSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`,
          `${result.count} requests, the ${samples.length} operations' sample requests in turn${result.failures ? `, ${result.failures} unexpected answers` : ''}`,
        );
      }
    }
    row('mock memory (RSS) after the load', `Prism ${rssMb(mock.prismPid)}, front ${rssMb(mock.frontPid)}`, 'the front: the node process of scripts/mock.ts (with the tsx loader)');
  } finally {
    await stopCli(mock.cli);
  }
}

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
    const baseUrl = `http://127.0.0.1:${port}/api`;
    const headers = { Authorization: 'Service-oauthtoken 1000.bench', Accept: 'application/json; version=2.0' };
    const client = createServiceClient({ baseUrl, auth: { accessToken: '1000.bench' }, retry: false });
    const calls = Math.max(500, Math.floor(requestCount / 2));
    const raw = async () => {
      const response = await fetch(`${baseUrl}/monitors`, { headers });
      await response.json();
    };
    const typed = async () => {
      await client.GET('/monitors');
    };
    const time = async (call: () => Promise<void>) => {
      for (let index = 0; index < 200; index++) await call(); // warm-up
      const started = performance.now();
      for (let index = 0; index < calls; index++) await call();
      return (since(started) * 1000) / calls; // µs per call
    };
    // Interleaved rounds, so that a busy moment of the machine weighs on both.
    let rawUs = 0;
    let typedUs = 0;
    for (let round = 0; round < 2; round++) {
      rawUs += await time(raw);
      typedUs += await time(typed);
    }
    rawUs /= 2;
    typedUs /= 2;
    row('client overhead per call (GET /monitors)', `${(typedUs / rawUs).toFixed(2)}x raw fetch`, `createServiceClient ${typedUs.toFixed(0)} µs, fetch + json ${rawUs.toFixed(0)} µs per call, ${calls} sequential calls each, same local server`);
  } finally {
    server.kill('SIGTERM');
  }
}

// 5. Type-checking a small consumer of the generated types and the client.
{
  const dir = path.join(root, 'node_modules', '.cache', 'bench-consumer');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'consumer.ts'),
    `import { createApiClient, dataCenters } from '../../../generated/client.js';
import type { components } from '../../../generated/types.js';
import { createServiceClient, type Monitor } from '../../../src/index.js';

type DeviceKey = components['schemas']['DeviceKey'];
export async function run(): Promise<[string | undefined, DeviceKey | undefined, Monitor[]]> {
  const api = createApiClient({ baseUrl: dataCenters.eu.baseUrl, headers: { Authorization: 'Service-oauthtoken x' } });
  const { data } = await api.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } });
  const key = await api.GET('/device_key');
  const client = createServiceClient({ dataCenter: 'eu', auth: { accessToken: 'x' } });
  return [data?.data.monitor_id, key.data?.data, await client.GET('/monitors')];
}
`,
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: '../../../tsconfig.json', include: [], files: ['consumer.ts'], compilerOptions: { noEmit: true, incremental: false } }, null, 2),
  );
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(bin('tsc'), ['-p', path.join(dir, 'tsconfig.json'), '--noEmit'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  row('tsc --noEmit, a small consumer of the types and the client', ms(since(started)), code === 0 ? 'strict, noUncheckedIndexedAccess; whole program from a cold start' : `tsc failed (exit ${code})`);
}

agent.destroy();
const widths = [Math.max(7, ...rows.map((entry) => entry.measure.length)), Math.max(6, ...rows.map((entry) => entry.figure.length))];
console.log(`\n| ${'Measure'.padEnd(widths[0]!)} | ${'Figure'.padEnd(widths[1]!)} | Notes |`);
console.log(`|${'-'.repeat(widths[0]! + 2)}|${'-'.repeat(widths[1]! + 2)}|-------|`);
for (const entry of rows) console.log(`| ${entry.measure.padEnd(widths[0]!)} | ${entry.figure.padEnd(widths[1]!)} | ${entry.notes} |`);
