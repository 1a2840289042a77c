// The mock's command line beside `prism mock`, on the same document and the same requests: start-up, requests per
// second at concurrency 1 and 50, then the memory of each process tree.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockDocument } from '../../../src/description/mock-document.js';
import { outputs, root } from '../paths.js';
import { freePort } from '../ports.js';
import type { SampleRequest } from '../sample-requests.js';
import { type LoadResult, load } from './load.js';
import { type Started, startServer, stop, treeRssMb } from './processes.js';
import { type BenchContext, type BenchSection, ms } from './section.js';

const distBin = path.join(root, 'dist', 'src', 'bin.js');
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
      const ourPort = await freePort();
      const ours = await startServer(process.execPath, [distBin, 'mock', '--port', String(ourPort)], ourPort, first);
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
        'node dist/src/bin.js mock (what npx monitoring-service-api mock runs) against the @stoplight/prism-cli command on the same document',
      );
      await compareLoad(context, samples, ours, prism);
      context.row(
        'memory (RSS) after the load, all processes',
        `${treeRssMb(ours.child.pid!).toFixed(0)} MB`,
        `prism mock: ${treeRssMb(prism.child.pid!).toFixed(0)} MB`,
        'the mock is one process; the prism command line forks a worker',
      );
    } finally {
      for (const server of started) await stop(server.child);
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

async function compareLoad({ requests, row }: BenchContext, samples: SampleRequest[], ours: Started, prism: Started) {
  for (let round = 0; round < 2; round++) for (const origin of [ours.origin, prism.origin]) await load(origin, samples, 500, 10); // warm-up
  for (const concurrency of [1, 50]) {
    // Alternating halves, so that a busy moment of the machine weighs on both.
    const totals = { ours: [] as LoadResult[], prism: [] as LoadResult[] };
    for (let round = 0; round < 2; round++) {
      totals.ours.push(await load(ours.origin, samples, Math.ceil(requests / 2), concurrency));
      totals.prism.push(await load(prism.origin, samples, Math.ceil(requests / 2), concurrency));
    }
    const a = mean(totals.ours);
    const b = mean(totals.prism);
    row(
      `requests per second, concurrency ${concurrency}`,
      `${a.perSecond.toFixed(0)} req/s (${(a.perSecond / b.perSecond).toFixed(2)}x), p50 ${a.p50.toFixed(2)} ms, p99 ${a.p99.toFixed(1)} ms`,
      `prism mock: ${b.perSecond.toFixed(0)} req/s, p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(1)} ms`,
      `${requests} requests each, the ${samples.length} operations' sample requests in turn${a.failures + b.failures ? `; unexpected statuses: ours ${a.failures}, prism ${b.failures} (the simulator refuses the sample grant token after its first use, and the sample refresh token once revoked)` : ''}`,
    );
  }
}

/** The rounds of one server: mean rate and median, worst p99, all failures. */
function mean(results: LoadResult[]) {
  return {
    perSecond: results.reduce((total, result) => total + result.perSecond, 0) / results.length,
    p50: results.reduce((total, result) => total + result.p50, 0) / results.length,
    p99: Math.max(...results.map((result) => result.p99)),
    failures: results.reduce((total, result) => total + result.failures, 0),
  };
}
