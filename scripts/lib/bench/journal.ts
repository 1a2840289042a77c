// The request journal's cost: the same build with the journal on (the default) and off (`--journal-size 0`,
// `journalSize: 0`), side by side in one run, in alternating rounds (on, off, off, on) so that a busy moment of the
// machine weighs on both: `createMockFetch()`'s time per call, and the command line's requests per second at
// concurrency 1 and 50. The target: within 5% of the journal off.
import path from 'node:path';
import { root } from '../paths.js';
import { treeCpuMs } from '../proc.js';
import { type LoadResult, load, median } from './load.js';
import { nodeFigures, startMockCommand, stop } from './processes.js';
import type { BenchContext, BenchSection } from './section.js';

const ratio = (on: number, off: number) => `${(on / off).toFixed(2)}x`;

/** The command line with the journal on and off: requests per second at concurrency 1 and 50. */
async function commandLineRows(context: BenchContext): Promise<void> {
  const samples = context.samples();
  const first = samples.find((sample) => sample.operationId === 'listMonitors')!;
  const on = await startMockCommand(first);
  const off = await startMockCommand(first, ['--journal-size', '0']);
  try {
    for (const server of [on, off, off, on]) await load(server.origin, samples, 500, 10); // warm-up
    for (const concurrency of [1, 50]) {
      // The CPU time of each server around its rounds: the other work of a shared machine moves it less than the rate.
      const results = { on: [] as LoadResult[], off: [] as LoadResult[] };
      const cpuMs = { on: 0, off: 0 };
      const share = Math.ceil(context.requests / 2);
      for (const [which, server] of [
        ['on', on],
        ['off', off],
        ['off', off],
        ['on', on],
      ] as const) {
        const before = treeCpuMs(server.child.pid!);
        results[which].push(await load(server.origin, samples, share, concurrency));
        cpuMs[which] += treeCpuMs(server.child.pid!) - before;
      }
      const perSecond = (list: LoadResult[]) => median(list.map((result) => result.perSecond));
      const p50 = (list: LoadResult[]) => median(list.map((result) => result.p50));
      const cpuUs = (which: 'on' | 'off') => (cpuMs[which] * 1000) / results[which].reduce((sum, result) => sum + result.count, 0);
      context.row(
        `journal on, requests per second, concurrency ${concurrency}`,
        `${perSecond(results.on).toFixed(0)} req/s (${ratio(perSecond(results.on), perSecond(results.off))}), p50 ${p50(results.on).toFixed(2)} ms, CPU ${cpuUs('on').toFixed(0)} µs/request (${ratio(cpuUs('off'), cpuUs('on'))} of the speed)`,
        `--journal-size 0: ${perSecond(results.off).toFixed(0)} req/s, p50 ${p50(results.off).toFixed(2)} ms, CPU ${cpuUs('off').toFixed(0)} µs/request`,
        `the same build, two rounds of ${share} requests each, alternating (on, off, off, on); target: within 5% (0.95x or more)`,
      );
    }
  } finally {
    await stop(on.child);
    await stop(off.child);
  }
}

/**
 * createMockFetch() with the journal on and off: time per call, in one fresh process. Forty blocks of 200 calls
 * each, the order alternating from block to block; the figure is the median of the blocks' means, which a busy
 * moment of the machine moves less than the calls' own times.
 */
async function inProcessRow(context: BenchContext): Promise<void> {
  const mock = path.join(root, 'dist', 'src', 'mock', 'index.js');
  const figures = await nodeFigures(`
    const { createMockFetch } = await import(${JSON.stringify(mock)});
    const on = createMockFetch();
    const off = createMockFetch({ journalSize: 0 });
    await Promise.all([on.ready, off.ready]);
    const headers = { Authorization: 'Service-oauthtoken 1000.bench-access-token' };
    const block = async (mockFetch) => {
      const begin = performance.now();
      for (let i = 0; i < 200; i++) await (await mockFetch(mockFetch.baseUrl + '/monitors', { headers })).arrayBuffer();
      return (performance.now() - begin) / 200;
    };
    for (let i = 0; i < 5; i++) { await block(on); await block(off); }
    const times = { on: [], off: [] };
    for (let i = 0; i < 40; i++) {
      const order = i % 2 ? ['on', 'off'] : ['off', 'on'];
      for (const which of order) times[which].push(await block(which === 'on' ? on : off));
    }
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    console.log(JSON.stringify({ on: median(times.on), off: median(times.off) }));
  `);
  context.row(
    'journal on, createMockFetch() per call',
    `${(figures.on! * 1000).toFixed(0)} µs (${ratio(figures.off!, figures.on!)} of the speed)`,
    `journalSize: 0: ${(figures.off! * 1000).toFixed(0)} µs`,
    'GET /api/monitors, the median of 40 blocks of 200 calls each, alternating; target: within 5% (0.95x or more)',
  );
}

export const journal: BenchSection = {
  part: 'journal',
  title: 'the request journal: the mock with it on and off',
  async run(context) {
    await inProcessRow(context);
    await commandLineRows(context);
  },
};
