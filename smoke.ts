import { startMock, createMockFetch } from './src/mock/index.js';
const t0 = performance.now();
const mock = await startMock();
const h = { Authorization: 'Service-oauthtoken x' };
let r = await fetch(`${mock.baseUrl}/monitors`, { headers: h });
console.log('first answer', (performance.now() - t0).toFixed(0), 'ms', r.status, await r.text());
for (const [p, extra] of [['/monitors/12ab', {}], ['/monitors/1', { Prefer: 'code=404' }], ['/monitors', { Accept: 'text/html' }], ['/monitors', { Accept: 'application/json; version=3.0' }], ['/nope', {}]] as const) {
  r = await fetch(`${mock.baseUrl}${p}`, { headers: { ...h, ...extra } });
  console.log(p, r.status, await r.text(), r.headers.get('sl-violations')?.slice(0, 100));
}
r = await fetch(`${mock.authUrl}/oauth/v2/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'client_id=a&client_secret=b&grant_type=refresh_token&refresh_token=c' });
console.log('refresh', r.status, await r.text());
r = await fetch(`${mock.authUrl}/oauth/v2/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'client_id=a&client_secret=b&grant_type=password' });
console.log('bad grant', r.status, await r.text());
r = await fetch(`${mock.baseUrl}/monitor_groups`, { method: 'POST', headers: { ...h, 'Content-Type': 'application/json' }, body: '{"description":"x"}' });
console.log('group', r.status, await r.text());
r = await fetch(`${mock.baseUrl}/monitors`, { headers: { ...h, Prefer: 'dynamic=true' } });
console.log('dynamic', r.status, (await r.text()).slice(0, 200));
await mock.stop();
const mf = createMockFetch();
await mf.ready;
const t1 = performance.now(); const N = 2000;
for (let i = 0; i < N; i++) { const x = await mf(`${mf.baseUrl}/monitors`, { headers: h }); await x.arrayBuffer(); }
console.log('mockFetch per call', ((performance.now() - t1) / N * 1000).toFixed(0), 'µs');
