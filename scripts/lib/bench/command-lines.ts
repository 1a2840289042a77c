// The mock's command line beside `prism mock`, on the same document and the same requests: start-up, requests per
// second and CPU time per request at concurrency 1 and 50, then the memory of each process tree. With `--profile DIR`
// the mock runs under `node --cpu-prof` through the same load, and where its busy time went is printed at the end.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockDocument } from '../../../src/description/mock-document.js';
import { outputs, root } from '../paths.js';
import { freePort } from '../ports.js';
import { treeCpuMs, treeRssMb } from '../proc.js';
import type { SampleRequest } from '../sample-requests.js';
import { describeNewestProfile } from './cpu-profile.js';
import { type LoadResult, load } from './load.js';
import { type Started, startMockCommand, startServer, stop } from './processes.js';
import { type BenchContext, type BenchSection, ms } from './section.js';

const prismCli = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export const commandLines: BenchSection = {
  part: 'mock',
  title: 'the command lines, ours and prism mock',
  async run(context) {
    const samples = context.samples();
    const first = samples.find((entry) => entry.operationId === 'listMonitors')!;
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-prism-'));
    const prismDocument = path.join(scratch, 'openapi.json');
    writeFileSync(prismDocument, JSON.stringify(mockDocument(JSON.parse(readFileSync(outputs().bundleJson, 'utf8')))));
    const started: Started[] = [];
    try {
      const profiling = context.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', path.resolve(context.profileDir)];
      const ours = await startMockCommand(first, [], profiling);
      started.push(ours);
      const prismPort = await freePort();
      const prism = await startServer(
        process.execPath,
        [prismCli, 'mock', prismDocument, '--port', String(prismPort), '-v', 'warn'],
        prismPort,
        first,
      );
      started.push(prism);
      context.row(
        'command line to first answer',
        ms(ours.startupMs),
        `prism mock: ${ms(prism.startupMs)}`,
        `node dist/src/bin.js mock (what npx monitoring-service-api mock runs) against the @stoplight/prism-cli command on the same document${profiling.length > 0 ? '; ours under node --cpu-prof, in this row and the next' : ''}`,
      );
      await compareLoad(context, samples, ours, prism);
      context.row(
        'memory (RSS) after the load, all processes',
        `${treeRssMb(ours.child.pid!).toFixed(0)} MB`,
        `prism mock: ${treeRssMb(prism.child.pid!).toFixed(0)} MB`,
        'the mock is one process; the prism command line forks a worker',
      );
      await stop(ours.child);
      started.push(await smallerMemory(context, samples, first));
    } finally {
      for (const server of started) await stop(server.child);
      // The profile is written when the mock exits (after the SIGTERM of stop()).
      if (context.profileDir !== undefined)
        console.error(`The mock's CPU profile (start-up and load): ${describeNewestProfile(path.resolve(context.profileDir))}`);
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

/**
 * Node's options that bound the mock's memory, which only the command that starts the process can give (Node
 * refuses the second in NODE_OPTIONS; docs/04-testing-against-the-mock.md): a young generation of V8's heap that does not grow past
 * 1 MiB per half, and the collector on the main thread alone (no helper threads, each with its own allocation arena).
 */
const smallerMemoryOptions = ['--max-semi-space-size=1', '--single-threaded-gc'];

/** The mock under smallerMemoryOptions through the same load as above, at concurrency 50: its memory and rate. */
async function smallerMemory({ requests, row }: BenchContext, samples: SampleRequest[], first: SampleRequest): Promise<Started> {
  const server = await startMockCommand(first, [], smallerMemoryOptions);
  await load(server.origin, samples, requests, 50); // warm-up, as long as the load
  const cpuBefore = treeCpuMs(server.child.pid!);
  const result = await load(server.origin, samples, requests, 50);
  const cpuUs = ((treeCpuMs(server.child.pid!) - cpuBefore) * 1000) / result.count;
  row(
    `memory (RSS) after the load, node ${smallerMemoryOptions.join(' ')}`,
    `${treeRssMb(server.child.pid!).toFixed(0)} MB (at concurrency 50: ${result.perSecond.toFixed(0)} req/s, CPU ${cpuUs.toFixed(0)} µs/request)`,
    '',
    `node ${smallerMemoryOptions.join(' ')} dist/src/bin.js mock, through ${requests} requests at concurrency 50`,
  );
  return server;
}

/** One load round of a server, with the CPU time its process tree used during it. */
type Round = LoadResult & { cpuMs: number };

async function compareLoad({ requests, row }: BenchContext, samples: SampleRequest[], ours: Started, prism: Started) {
  // Warm-up, as long as the load's rounds of a row: both servers' compilers have settled before the first row (with
  // 500 requests each, prism mock's CPU per request still fell by a quarter between the first rows and the last).
  for (let round = 0; round < 2; round++)
    for (const origin of [ours.origin, prism.origin]) await load(origin, samples, Math.ceil(requests / 2), 10, { distinct: round === 1 });
  for (const [concurrency, distinct] of [
    [1, false],
    [50, false],
    [1, true],
    [50, true],
  ] as const) {
    // Alternating rounds in the order ours, prism, prism, ours, so that a busy moment of the machine, or one that
    // comes and goes, weighs on both. The CPU time each server used is read around its rounds: on a machine shared
    // with other work it says more than the rate, which the other work lowers for both.
    const rounds = { ours: [] as Round[], prism: [] as Round[] };
    for (const which of ['ours', 'prism', 'prism', 'ours'] as const) {
      const server = which === 'ours' ? ours : prism;
      const cpuBefore = treeCpuMs(server.child.pid!);
      const result = await load(server.origin, samples, Math.ceil(requests / 2), concurrency, { distinct });
      rounds[which].push({ ...result, cpuMs: treeCpuMs(server.child.pid!) - cpuBefore });
    }
    const a = summary(rounds.ours);
    const b = summary(rounds.prism);
    row(
      `requests per second, concurrency ${concurrency}${distinct ? ', every request distinct' : ''}`,
      `${a.perSecond.toFixed(0)} req/s (${(a.perSecond / b.perSecond).toFixed(2)}x), p50 ${a.p50.toFixed(2)} ms, p99 ${a.p99.toFixed(1)} ms, CPU ${a.cpuUs.toFixed(0)} µs/request`,
      `prism mock: ${b.perSecond.toFixed(0)} req/s, p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(1)} ms, CPU ${b.cpuUs.toFixed(0)} µs/request`,
      `${requests} requests each, in two rounds, the ${samples.length} operations' sample requests in turn${distinct ? ', each with a header numbered per request (so the mock judges each one anew: no verdict is kept for it)' : ''}${a.failures + b.failures ? `; unexpected statuses: ours ${a.failures}, prism ${b.failures} (the simulator refuses the sample grant token after its first use, and the sample refresh token once revoked)` : ''}`,
    );
  }
}

/** The rounds of one server: mean rate and median, worst p99, all failures, CPU time per answered request. */
function summary(rounds: Round[]) {
  const total = (key: 'perSecond' | 'p50' | 'failures' | 'cpuMs' | 'count') => rounds.reduce((sum, round) => sum + round[key], 0);
  return {
    perSecond: total('perSecond') / rounds.length,
    p50: total('p50') / rounds.length,
    p99: Math.max(...rounds.map((round) => round.p99)),
    failures: total('failures'),
    cpuUs: (total('cpuMs') * 1000) / total('count'),
  };
}
