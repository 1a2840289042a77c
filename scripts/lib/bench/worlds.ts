// What worlds cost (src/mock/worlds/): making 100 of them, in time and memory (target: under 1 s and 50 MB), in
// code and over HTTP as workers make them on first use; and a call in a world beside one in the default world.
import { distFile } from '../paths.js';
import { nodeFigures } from './processes.js';
import { type BenchSection, ms } from './section.js';

const distMock = distFile('mock', 'index.js');

// Runs in a fresh child process: the heap is measured after a full collection, before and after.
const worldsScript = `
  import v8 from 'node:v8';
  import vm from 'node:vm';
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const { createMockFetch, startMock } = await import(${JSON.stringify(distMock)});
  const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
  const mockFetch = createMockFetch();
  await mockFetch.ready;
  mockFetch.control.createWorld();
  const heapBefore = heap();
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) mockFetch.control.createWorld();
  const createMs = performance.now() - t0;
  const createBytes = heap() - heapBefore;
  const counted = mockFetch.control.worlds().held_bytes;

  // Over HTTP: 100 workers' first calls, each making its world.
  const mock = await startMock();
  const headers = { Authorization: 'Service-oauthtoken x' };
  for (let i = 0; i < 200; i++) await (await fetch(mock.baseUrl + '/monitors', { headers })).arrayBuffer();
  const rssBefore = (gc(), process.memoryUsage().rss);
  const httpBefore = heap();
  const t1 = performance.now();
  for (let i = 0; i < 100; i++) await (await fetch(mock.authUrl + '/worlds/gw' + i + '/api/monitors', { headers })).arrayBuffer();
  const httpMs = performance.now() - t1;
  const httpBytes = heap() - httpBefore;
  const rssGrowth = process.memoryUsage().rss - rssBefore;
  await mock.stop();

  // A call in a world beside a call in the default world: alternating blocks, the median of each.
  const world = mockFetch.control.world('bench');
  const call = async (base) => (await mockFetch(base + '/monitors', { headers })).arrayBuffer();
  const block = async (base) => { const begin = performance.now(); for (let i = 0; i < 200; i++) await call(base); return (performance.now() - begin) / 200; };
  for (let i = 0; i < 500; i++) { await call(mockFetch.baseUrl); await call(world.baseUrl); }
  const main = [], inWorld = [];
  for (let i = 0; i < 20; i++) { main.push(await block(mockFetch.baseUrl)); inWorld.push(await block(world.baseUrl)); }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(JSON.stringify({ createMs, createBytes, counted, httpMs, httpBytes, rssGrowth, mainUs: median(main) * 1000, worldUs: median(inWorld) * 1000 }));
`;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export const worlds: BenchSection = {
  part: 'worlds',
  title: 'worlds: 100 made, and a call in one',
  async run({ row }) {
    const figures = await nodeFigures(worldsScript);
    row(
      '100 worlds, control.createWorld()',
      `${ms(figures.createMs!)}, heap ${mb(figures.createBytes!)} (counted by the bound: ${mb(figures.counted!)})`,
      '',
      "target under 1 s and 50 MB; the heap after a full collection, before and after; from the mock's seed (the description's examples)",
    );
    row(
      '100 worlds made on first use, over HTTP',
      `${ms(figures.httpMs!)}, heap ${mb(figures.httpBytes!)}, RSS ${mb(figures.rssGrowth!)}`,
      '',
      "startMock(): 100 sequential GET /worlds/gwN/api/monitors, each a new world's first call, after 200 calls of the default world",
    );
    row(
      'a call in a world, createMockFetch()',
      `${figures.worldUs!.toFixed(0)} µs`,
      `the default world: ${figures.mainUs!.toFixed(0)} µs`,
      'GET /monitors, medians of 20 alternating blocks of 200 calls',
    );
  },
};
