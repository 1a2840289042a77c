// The load generator: keep-alive HTTP, `concurrency` requests in flight, `total` requests, bounded in time.
import http from 'node:http';
import type { SampleRequest } from '../sample-requests.js';
import { since } from './section.js';

export function sendSample(origin: URL, sample: SampleRequest, agent?: http.Agent): Promise<number> {
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

export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  count: number;
  /** Answers whose status was not the sample's documented one (or no answer). */
  failures: number;
}

/** The number of the next distinct request, in the whole run: no two loads send the same one. */
let distinctNumber = 0;

/**
 * Sends `total` requests, `concurrency` at a time, the samples in turn. With `distinct`, each request carries a
 * header numbered per request in the whole run (`X-Bench-Request`), so that no two are the same: the mock keeps the
 * engine's verdict on a request it has judged (decision 0018), and distinct requests measure the engine's judging of
 * each.
 */
export async function load(
  origin: string,
  samples: SampleRequest[],
  total: number,
  concurrency: number,
  { distinct = false } = {},
): Promise<LoadResult> {
  const url = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const deadline = Date.now() + 120_000;
  const started = performance.now();
  const worker = async () => {
    while (next < total && Date.now() < deadline) {
      const sample = samples[next++ % samples.length]!;
      const sent = distinct ? { ...sample, headers: { ...sample.headers, 'X-Bench-Request': String(distinctNumber++) } } : sample;
      const begin = performance.now();
      const status = await sendSample(url, sent, agent).catch(() => 0);
      latencies.push(performance.now() - begin);
      if (status !== sample.status) failures++;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = since(started) / 1000;
  return { perSecond: latencies.length / seconds, ...percentiles(latencies), count: latencies.length, failures };
}

export function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * (sorted.length - 1)))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

/** The middle value (of an even count, the lower of the two middle ones). */
export const median = (values: number[]) => percentiles(values).p50;
