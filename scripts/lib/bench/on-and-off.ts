// A part of the mock measured beside the same build with it off (the request journal, the coverage), side by side
// in one run, in alternating rounds (on, off, off, on, twice) so that a busy moment of the machine weighs on both:
// `createMockFetch()`'s time per call, and the command line's requests per second and CPU time per request at
// concurrency 1 and 50.
import { distFile } from '../paths.js';
import { treeCpuMs } from '../proc.js';
import { type LoadResult, load, median } from './load.js';
import { nodeFigures, startMockCommand, stop } from './processes.js';
import type { BenchContext } from './section.js';

/** What is turned off, and how each interface turns it off. */
export interface Part {
  /** The row's name: `journal on`, `coverage on`. */
  on: string;
  /**
   * The command line's flags that turn it off (`--journal-size 0`), and createMockFetch's options (`{ journalSize: 0 }`).
   * No flags at all measure the same command twice: the difference two processes alike show in the run.
   */
  offFlags: string[];
  offOptions: Record<string, unknown>;
  /** The target, in words: `within 5% (0.95x or more)`. */
  target: string;
}

const ratio = (on: number, off: number) => `${(on / off).toFixed(2)}x`;

/** The option as code writes it: `journalSize: 0`. */
const optionText = (options: Record<string, unknown>) =>
  Object.entries(options)
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(', ');

/** The command line with the part on and off: requests per second and CPU per request at concurrency 1 and 50. */
export async function commandLineRows(context: BenchContext, part: Part): Promise<void> {
  const samples = context.samples();
  const first = samples.find((sample) => sample.operationId === 'listMonitors')!;
  const on = await startMockCommand(first);
  const off = await startMockCommand(first, part.offFlags);
  try {
    for (const server of [on, off, off, on]) await load(server.origin, samples, 500, 10); // warm-up
    for (const concurrency of [1, 50]) {
      // The CPU time of each server around its rounds: the other work of a shared machine moves it less than the rate.
      const results = { on: [] as LoadResult[], off: [] as LoadResult[] };
      const cpuMs = { on: 0, off: 0 };
      const share = Math.ceil(context.requests / 4);
      for (const which of ['on', 'off', 'off', 'on', 'on', 'off', 'off', 'on'] as const) {
        const server = which === 'on' ? on : off;
        const before = treeCpuMs(server.child.pid!);
        results[which].push(await load(server.origin, samples, share, concurrency));
        cpuMs[which] += treeCpuMs(server.child.pid!) - before;
      }
      const perSecond = (list: LoadResult[]) => median(list.map((result) => result.perSecond));
      const p50 = (list: LoadResult[]) => median(list.map((result) => result.p50));
      const cpuUs = (which: 'on' | 'off') => (cpuMs[which] * 1000) / results[which].reduce((sum, result) => sum + result.count, 0);
      context.row(
        `${part.on}, requests per second, concurrency ${concurrency}`,
        `${perSecond(results.on).toFixed(0)} req/s (${ratio(perSecond(results.on), perSecond(results.off))}), p50 ${p50(results.on).toFixed(2)} ms, CPU ${cpuUs('on').toFixed(0)} µs/request (${ratio(cpuUs('off'), cpuUs('on'))} of the speed)`,
        `${part.offFlags.length > 0 ? part.offFlags.join(' ') : 'the same command, another process'}: ${perSecond(results.off).toFixed(0)} req/s, p50 ${p50(results.off).toFixed(2)} ms, CPU ${cpuUs('off').toFixed(0)} µs/request`,
        `the same build, four rounds of ${share} requests each, alternating (on, off, off, on, twice); the median rate, the CPU of all; target: ${part.target}`,
      );
    }
  } finally {
    await stop(on.child);
    await stop(off.child);
  }
}

/**
 * createMockFetch() with the part on and off: time per call. Forty blocks of 200 calls each, the order alternating from
 * block to block; a side's figure is the median of its blocks' means, which a busy moment of the machine moves less
 * than the calls' own times. In one process the mock made first runs slower (two alike differ by some 0.86x), so two
 * fresh processes make them in either order, and each side's figure is the mean of its two.
 */
export async function inProcessRow(context: BenchContext, part: Part): Promise<void> {
  const mock = distFile('mock', 'index.js');
  const measure = (first: 'on' | 'off') =>
    nodeFigures(`
    const { createMockFetch } = await import(${JSON.stringify(mock)});
    const made = {};
    for (const which of ${JSON.stringify(first === 'on' ? ['on', 'off'] : ['off', 'on'])})
      made[which] = createMockFetch(which === 'on' ? {} : ${JSON.stringify(part.offOptions)});
    const { on, off } = made;
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
  const runs = [await measure('on'), await measure('off')];
  const mean = (which: 'on' | 'off') => (runs[0]![which]! + runs[1]![which]!) / 2;
  const [on, off] = [mean('on'), mean('off')];
  context.row(
    `${part.on}, createMockFetch() per call`,
    `${(on * 1000).toFixed(0)} µs (${ratio(off, on)} of the speed)`,
    `${Object.keys(part.offOptions).length > 0 ? optionText(part.offOptions) : 'the same options, another mock'}: ${(off * 1000).toFixed(0)} µs`,
    `GET /api/monitors, the median of 40 blocks of 200 calls each, alternating, in two processes that make them in either order; target: ${part.target}`,
  );
}
