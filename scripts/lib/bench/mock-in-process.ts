// startMock() and createMockFetch(), in fresh Node processes: what a test suite pays.
import { distFile } from '../paths.js';
import { median } from './load.js';
import { nodeFigures } from './processes.js';
import { type BenchSection, ms } from './section.js';

const distMock = distFile('mock', 'index.js');

// Runs in a fresh child process: the import, a first mock (the engine loads), then a second one.
const startScript = `
  const t0 = performance.now();
  const { startMock } = await import(${JSON.stringify(distMock)});
  const imported = performance.now();
  const mock = await startMock();
  const response = await fetch(mock.baseUrl + '/monitors', { headers: { Authorization: 'Service-oauthtoken x' } });
  await response.arrayBuffer();
  const answered = performance.now();
  await mock.stop();
  const again = performance.now();
  const second = await startMock();
  await (await fetch(second.baseUrl + '/monitors', { headers: { Authorization: 'Service-oauthtoken x' } })).arrayBuffer();
  const againAnswered = performance.now();
  await second.stop();
  console.log(JSON.stringify({ importMs: imported - t0, startMs: answered - imported, secondMs: againAnswered - again }));
`;

// Runs in the child process: calls of createMockFetch(), and the simulator's token round trip (a grant token, its
// exchange, a refresh, a call with the new token).
const callsScript = `
  const { createMockFetch } = await import(${JSON.stringify(distMock)});
  const mockFetch = createMockFetch();
  await mockFetch.ready;
  const times = [];
  for (let i = 0; i < 3000; i++) {
    const begin = performance.now();
    const reply = await mockFetch(mockFetch.baseUrl + '/monitors', { headers: { Authorization: 'Service-oauthtoken x' } });
    await reply.arrayBuffer();
    if (i >= 500) times.push(performance.now() - begin);
  }
  times.sort((a, b) => a - b);
  const form = (fields) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const roundTrip = async () => {
    const client = mockFetch.control.registerClient();
    const { code } = mockFetch.control.grantCode({ client_id: client.client_id, scope: 'Service.Admin.Read' });
    const exchanged = await (await mockFetch(mockFetch.authUrl + '/oauth/v2/token', form({ ...client, code, grant_type: 'authorization_code' }))).json();
    const refreshed = await (await mockFetch(mockFetch.authUrl + '/oauth/v2/token', form({ ...client, refresh_token: exchanged.refresh_token, grant_type: 'refresh_token' }))).json();
    const reply = await mockFetch(mockFetch.baseUrl + '/device_key', { headers: { Authorization: 'Service-oauthtoken ' + refreshed.access_token } });
    if (reply.status !== 200) throw new Error('the token round trip ended with ' + reply.status);
    await reply.arrayBuffer();
  };
  const rounds = [];
  for (let i = 0; i < 600; i++) {
    const begin = performance.now();
    await roundTrip();
    if (i >= 100) rounds.push(performance.now() - begin);
  }
  rounds.sort((a, b) => a - b);
  console.log(JSON.stringify({ p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], tokenP50: rounds[Math.floor(rounds.length / 2)], tokenP99: rounds[Math.floor(rounds.length * 0.99)] }));
`;

export const mockInProcess: BenchSection = {
  part: 'mock',
  title: 'startMock() and createMockFetch()',
  async run({ row }) {
    // Start-up is mostly the loading of modules, which a busy machine slows in bursts: the median of three processes.
    const starts: Record<string, number>[] = [];
    for (let run = 0; run < 3; run++) starts.push(await nodeFigures(startScript));
    const medianOf = (key: string) => median(starts.map((figures) => figures[key]!));
    row(
      'startMock() to first answer',
      ms(medianOf('startMs')),
      '',
      `first in a fresh process: loads Prism's engine; importing monitoring-service-api/mock before it took ${ms(medianOf('importMs'))}; medians of 3 processes`,
    );
    row('startMock() to first answer, engine loaded', ms(medianOf('secondMs')), '', 'a second mock in the same process; median of 3');
    const figures = await nodeFigures(callsScript);
    row(
      'createMockFetch(), per call',
      `p50 ${figures.p50!.toFixed(2)} ms, p99 ${figures.p99!.toFixed(2)} ms`,
      '',
      'GET /api/monitors in-process, 2500 sequential calls after 500 of warm-up',
    );
    row(
      'token round trip, in-process',
      `p50 ${figures.tokenP50!.toFixed(2)} ms, p99 ${figures.tokenP99!.toFixed(2)} ms`,
      '',
      'createMockFetch(): a client and a grant token (control), the exchange, a refresh, GET /api/device_key with the new token; 500 rounds after 100 of warm-up',
    );
  },
};
