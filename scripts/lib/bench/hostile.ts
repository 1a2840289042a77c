// The mock's command line under hostile and huge input, beside the same build with its journal off
// (`--journal-size 0`), in one run:
// - a token request whose body holds thousands of values under a credential's name (`{"code":["v000000",...]}`),
//   sent as text/plain (no preflight: any web page can send it), of 128 KB and of 1 MiB: how long the mock takes to
//   answer it, and the longest a `GET /api/monitors` sent meanwhile waits (target at 1 MiB: under 50 ms);
// - its memory after a hostile run (800 token requests of 64 KB of empty objects, 20 monitor groups of 1 MiB of
//   them), and how long `GET /__mock/state` then takes.
import http from 'node:http';
import { treeRssMb } from '../proc.js';
import { median } from './load.js';
import { type Started, startMockCommand, stop } from './processes.js';
import { type BenchContext, type BenchSection, ms } from './section.js';

const token = { Authorization: 'Service-oauthtoken 1000.bench-access-token' };

/** One request on a connection of its own; resolves with its status, its body's length and its time. */
function send(origin: string, target: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}) {
  return new Promise<{ status: number; bytes: number; ms: number }>((resolve, reject) => {
    const start = performance.now();
    const request = http.request(
      `${origin}${target}`,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, ms: performance.now() - start }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** `{"code":["v000000","v000001",...]}` of about `bytes` bytes. */
function hostileTokenBody(bytes: number): Buffer {
  const values: string[] = [];
  for (let length = 12; length < bytes - 12; length += 10) values.push(`"v${String(values.length).padStart(6, '0')}"`);
  return Buffer.from(`{"code":[${values.join(',')}]}`);
}

/** The hostile request's answer time, and the longest wait of the GETs sent one after another while it is handled. */
async function hostileRound(origin: string, body: Buffer): Promise<{ answerMs: number; waitMs: number }> {
  let answered = false;
  const hostile = send(origin, '/oauth/v2/token', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body }).then((result) => {
    answered = true;
    return result;
  });
  const waits: number[] = [];
  while (!answered) waits.push((await send(origin, '/api/monitors', { headers: token })).ms);
  return { answerMs: (await hostile).ms, waitMs: Math.max(...waits) };
}

async function tokenRequestRows(context: BenchContext, on: Started, off: Started): Promise<void> {
  for (const [label, bytes] of [
    ['128 KB', 128 * 1024],
    ['1 MiB', 1024 * 1024 - 64],
  ] as const) {
    const body = hostileTokenBody(bytes);
    const rounds = { on: [] as { answerMs: number; waitMs: number }[], off: [] as { answerMs: number; waitMs: number }[] };
    // Five rounds each, alternating (on, off, off, on, ...): a busy moment of the machine weighs on both.
    for (let round = 0; round < 10; round++) {
      const which = round % 4 === 0 || round % 4 === 3 ? 'on' : 'off';
      rounds[which].push(await hostileRound((which === 'on' ? on : off).origin, body));
    }
    const figure = (list: { answerMs: number; waitMs: number }[]) =>
      `answered in ${ms(median(list.map((round) => round.answerMs)))}, a concurrent GET waits ${ms(median(list.map((round) => round.waitMs)))}`;
    context.row(
      `a hostile token request of ${label} (${body.length} bytes, ${Math.round(body.length / 10)} values under "code")`,
      figure(rounds.on),
      `--journal-size 0: ${figure(rounds.off)}`,
      `text/plain to POST /oauth/v2/token, and GET /api/monitors sent one after another until it is answered (the longest wait); medians of 5 rounds each, alternating (on, off, off, on...)${label === '1 MiB' ? '; target: the wait under 50 ms' : ''}`,
    );
  }
}

/** 800 token requests of 64 KB of empty objects, 20 monitor groups of 1 MiB of them; then GET /__mock/state. */
async function hostileRun(origin: string): Promise<{ stateMs: number; stateBytes: number }> {
  const empties = (count: number) => Array.from({ length: count }, () => '{}').join(',');
  const tokenBody = Buffer.from(`[${empties(21_800)}]`);
  const json = { 'Content-Type': 'application/json' };
  for (let batch = 0; batch < 100; batch++)
    await Promise.all(Array.from({ length: 8 }, () => send(origin, '/oauth/v2/token', { method: 'POST', headers: json, body: tokenBody })));
  const groupBody = Buffer.from(`{"display_name":"x","e":[${empties(349_000)}]}`);
  for (let group = 0; group < 20; group++)
    await send(origin, '/api/monitor_groups', { method: 'POST', headers: { ...json, ...token }, body: groupBody });
  const state = await send(origin, '/__mock/state');
  return { stateMs: state.ms, stateBytes: state.bytes };
}

async function memoryRow(context: BenchContext, on: Started, off: Started): Promise<void> {
  const figures = new Map<Started, string>();
  for (const server of [on, off]) {
    const before = treeRssMb(server.child.pid!);
    const { stateMs, stateBytes } = await hostileRun(server.origin);
    figures.set(
      server,
      `${treeRssMb(server.child.pid!).toFixed(0)} MB (${before.toFixed(0)} MB before); GET /__mock/state then ${ms(stateMs)}, ${(stateBytes / 1024 / 1024).toFixed(1)} MB`,
    );
  }
  context.row(
    'memory (RSS) after a hostile run',
    figures.get(on)!,
    `--journal-size 0: ${figures.get(off)!}`,
    '800 POST /oauth/v2/token of 64 KB of empty objects (the journal keeps its 1,000 newest, 32 MiB), 20 POST /api/monitor_groups of 1 MiB of them (the mock keeps 16 MiB of created groups, counted as they are held)',
  );
}

export const hostile: BenchSection = {
  part: 'hostile',
  title: 'the mock under hostile and huge input, with its journal on and off',
  async run(context) {
    const first = context.samples().find((sample) => sample.operationId === 'listMonitors')!;
    const on = await startMockCommand(first);
    const off = await startMockCommand(first, ['--journal-size', '0']);
    try {
      await tokenRequestRows(context, on, off);
      await memoryRow(context, on, off);
    } finally {
      await stop(on.child);
      await stop(off.child);
    }
  },
};
