// The typed client against plain fetch, to the same small local server (a separate process).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { distFile, root } from '../paths.js';
import { nodeFigures, waitFor } from './processes.js';
import type { BenchSection } from './section.js';

const serverScript = `
  const http = require('node:http');
  const body = JSON.stringify({ code: 0, message: 'success', data: [{ monitor_id: '169863000000025001' }] });
  http.createServer((request, response) => {
    request.resume();
    request.on('end', () => { response.writeHead(200, { 'Content-Type': 'application/json' }); response.end(body); });
  }).listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });`;

// Runs in the child process: the same GET by plain fetch, by the client, and by the client with validate: answerSchema.
const figuresScript = (port: string, calls: number) => `
  const { createServiceClient } = await import(${JSON.stringify(distFile('index.js'))});
  const baseUrl = 'http://127.0.0.1:${port}/api';
  const headers = { Authorization: 'Service-oauthtoken 1000.bench', Accept: 'application/json; version=2.0' };
  const client = createServiceClient({ baseUrl, auth: { accessToken: '1000.bench' }, retry: false });
  const raw = async () => { const response = await fetch(baseUrl + '/monitors', { headers }); await response.json(); };
  const typed = async () => { await client.GET('/monitors'); };
  const { answerSchema } = await import(${JSON.stringify(path.join(root, 'dist', 'generated', 'zod.js'))});
  const checking = createServiceClient({ baseUrl, auth: { accessToken: '1000.bench' }, retry: false, validate: answerSchema });
  const validated = async () => { await checking.GET('/monitors'); };
  // Short rounds, each form in turn (the order rotating from round to round), and the median of each: on a
  // shared machine the load drifts within a run, and long rounds or a fixed order would charge that drift to
  // whichever form ran in the busy moment.
  const rounds = 10, perRound = Math.ceil(${calls} / 5);
  const time = async (call) => {
    const started = performance.now();
    for (let i = 0; i < perRound; i++) await call();
    return ((performance.now() - started) * 1000) / perRound;
  };
  for (const call of [raw, typed, validated]) for (let i = 0; i < 200; i++) await call();
  const forms = [['rawUs', raw], ['typedUs', typed], ['validatedUs', validated]];
  const samples = { rawUs: [], typedUs: [], validatedUs: [] };
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < forms.length; index++) {
      const [name, call] = forms[(index + round) % forms.length];
      samples[name].push(await time(call));
    }
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(JSON.stringify(Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]))));
`;

export const client: BenchSection = {
  part: 'client',
  title: 'the client',
  async run({ requests, row }) {
    const server = spawn(process.execPath, ['-e', serverScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    server.stdout!.on('data', (chunk) => (out += chunk));
    try {
      const port = await waitFor(() => /port (\d+)/.exec(out)?.[1], 10_000, 'the local server');
      const calls = Math.max(500, Math.floor(requests / 2));
      const figures = await nodeFigures(figuresScript(port, calls));
      row(
        'client, per call (GET /monitors)',
        `${figures.typedUs!.toFixed(0)} µs (${(figures.typedUs! / figures.rawUs!).toFixed(2)}x)`,
        `fetch + JSON: ${figures.rawUs!.toFixed(0)} µs`,
        `median of 10 rounds of ${Math.ceil(calls / 5)} sequential calls of each form, in rotating order, same local server`,
      );
      row(
        'client with validate: answerSchema, per call',
        `${figures.validatedUs!.toFixed(0)} µs (${(figures.validatedUs! / figures.rawUs!).toFixed(2)}x)`,
        `fetch + JSON: ${figures.rawUs!.toFixed(0)} µs`,
        'each answer checked by its zod schema',
      );
    } finally {
      server.kill('SIGTERM');
    }
  },
};
