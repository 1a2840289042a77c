// The bench's rows of the request journal: what recording every exchange costs. The same build with the journal on
// (the default) and off (`--journal-size 0`, `journalSize: 0`), side by side in one run, in alternating rounds (on,
// off, off, on) so that a busy moment of the machine weighs on both: the command line's requests per second at
// concurrency 1 and 50, and `createMockFetch()`'s time per call. The target: within 5% of the journal off.
// scripts/bench.ts gives its load generator and servers, so that both measure with the same tools.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { root } from './paths.js';
import type { SampleRequest } from './sample-requests.js';

interface LoadResult {
  perSecond: number;
  p50: number;
  failures: number;
}

/** What the bench lends: its load generator, its way of starting and stopping a server, its figures in a child. */
export interface BenchTools {
  requestCount: number;
  samples: SampleRequest[];
  first: SampleRequest;
  load(origin: string, samples: SampleRequest[], total: number, concurrency: number): Promise<LoadResult>;
  startServer(command: string, args: string[], port: number, first: SampleRequest): Promise<{ child: ChildProcess; origin: string }>;
  stop(child: ChildProcess): Promise<void>;
  freePort(): Promise<number>;
  nodeFigures(code: string): Promise<Record<string, number>>;
  row(measure: string, figure: string, anchor?: string, notes?: string): void;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ratio = (on: number, off: number) => `${(on / off).toFixed(2)}x`;

/** The command line with the journal on and off: requests per second at concurrency 1 and 50. */
async function commandLineRows(tools: BenchTools): Promise<void> {
  const bin = path.join(root, 'dist', 'src', 'bin.js');
  const start = async (extra: string[]) => {
    const port = await tools.freePort();
    return tools.startServer(process.execPath, [bin, 'mock', '--port', String(port), ...extra], port, tools.first);
  };
  const on = await start([]);
  const off = await start(['--journal-size', '0']);
  try {
    for (const server of [on, off, off, on]) await tools.load(server.origin, tools.samples, 500, 10); // warm-up
    for (const concurrency of [1, 50]) {
      const results = { on: [] as LoadResult[], off: [] as LoadResult[] };
      const share = Math.ceil(tools.requestCount / 2);
      for (const [which, server] of [
        ['on', on],
        ['off', off],
        ['off', off],
        ['on', on],
      ] as const)
        results[which].push(await tools.load(server.origin, tools.samples, share, concurrency));
      const perSecond = (list: LoadResult[]) => median(list.map((result) => result.perSecond));
      const p50 = (list: LoadResult[]) => median(list.map((result) => result.p50));
      tools.row(
        `journal on, requests per second, concurrency ${concurrency}`,
        `${perSecond(results.on).toFixed(0)} req/s (${ratio(perSecond(results.on), perSecond(results.off))}), p50 ${p50(results.on).toFixed(2)} ms`,
        `--journal-size 0: ${perSecond(results.off).toFixed(0)} req/s, p50 ${p50(results.off).toFixed(2)} ms`,
        `the same build, two rounds of ${share} requests each, alternating (on, off, off, on); target: within 5% (0.95x or more)`,
      );
    }
  } finally {
    await tools.stop(on.child);
    await tools.stop(off.child);
  }
}

/**
 * createMockFetch() with the journal on and off: time per call, in one fresh process. Forty blocks of 200 calls
 * each, the order alternating from block to block; the figure is the median of the blocks' means, which a busy
 * moment of the machine moves less than the calls' own times.
 */
async function inProcessRow(tools: BenchTools): Promise<void> {
  const mock = path.join(root, 'dist', 'src', 'mock', 'index.js');
  const figures = await tools.nodeFigures(`
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
  tools.row(
    'journal on, createMockFetch() per call',
    `${(figures.on! * 1000).toFixed(0)} µs (${ratio(figures.off!, figures.on!)} of the speed)`,
    `journalSize: 0: ${(figures.off! * 1000).toFixed(0)} µs`,
    'GET /api/monitors, the median of 40 blocks of 200 calls each, alternating; target: within 5% (0.95x or more)',
  );
}

/** The journal's rows of the bench table. */
export async function journalRows(tools: BenchTools): Promise<void> {
  await inProcessRow(tools);
  await commandLineRows(tools);
}
