// MSP customers and BU business units: `forAccount(zaaid)` sends `Cookie: zaaid=...` on exactly its own calls.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ManagedAccount, type ServiceClient } from '../../src/index.js';
import { envelope, type FaultServer, startFaultServer } from '../support/fault-server.js';
import { credentials, type IdentityProvider, startIdentityProvider, tokenOf, unauthorized } from '../support/identity-provider.js';

const customers: ManagedAccount[] = [
  { name: 'Acme Retail', zaaid: '700000123' },
  { name: 'Globex', zaaid: '700000456' },
];
const businessUnits: ManagedAccount[] = [{ name: 'Europe BU', zaaid: '800000001' }];

let idp: IdentityProvider;
let api: FaultServer;
let client: ServiceClient;

beforeAll(async () => {
  idp = await startIdentityProvider();
  api = await startFaultServer((request) => {
    const token = tokenOf(request);
    if (!token || !idp.issued.includes(token)) return unauthorized;
    if (request.path === '/api/short/msp/customers') return { json: envelope(customers) };
    if (request.path === '/api/short/bu/business_units') return { json: envelope(businessUnits) };
    if (request.method === 'POST') return { status: 201, json: envelope({ created: true }) };
    // Echo the account the request acts on, as the service would answer with that account's monitors.
    return { json: envelope([{ monitor_id: '1', account: request.headers.cookie ?? 'own' }]) };
  });
});
afterAll(async () => {
  await Promise.all([idp.stop(), api.stop()]);
});
beforeEach(() => {
  api.clear();
  client = createServiceClient({ baseUrl: `${api.origin}/api`, authUrl: idp.origin, auth: { ...credentials } });
});

const cookies = () => api.requests.map((request) => request.headers.cookie);

describe('acting on customer and business-unit accounts', () => {
  it('lists the customers of an MSP account and the business units of a BU portal account', async () => {
    const list = await client.GET('/short/msp/customers');
    expect(list).toEqual(customers);
    expect(list[0]!.zaaid).toBe('700000123');
    expect(await client.GET('/short/bu/business_units')).toEqual(businessUnits);
  });

  it('forAccount(zaaid) sends Cookie: zaaid=... on its calls and on no others', async () => {
    const [acme, globex] = (await client.GET('/short/msp/customers')).map((customer) => client.forAccount(customer.zaaid));
    expect(acme!.account).toBe('700000123');
    expect(client.account).toBeUndefined();
    api.clear();
    // Interleaved, concurrently: each request keeps its own account.
    const results = await Promise.all([
      acme!.GET('/monitors'),
      client.GET('/monitors'),
      globex!.GET('/monitors'),
      acme!.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } }),
      client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } }),
      acme!.POST('/monitor_groups', { body: { display_name: 'Stores' } }),
    ]);
    expect(results.slice(0, 3)).toEqual([
      [{ monitor_id: '1', account: 'zaaid=700000123' }],
      [{ monitor_id: '1', account: 'own' }],
      [{ monitor_id: '1', account: 'zaaid=700000456' }],
    ]);
    const byRequest = api.requests.map((request) => `${request.method} ${request.url} ${request.headers.cookie ?? '-'}`).sort();
    expect(byRequest).toEqual(
      [
        'GET /api/monitors zaaid=700000123',
        'GET /api/monitors -',
        'GET /api/monitors zaaid=700000456',
        'GET /api/monitors/1 zaaid=700000123',
        'GET /api/monitors/1 -',
        'POST /api/monitor_groups zaaid=700000123',
      ].sort(),
    );
  });

  it('the bound clients share the token cache and renewal: one token for all of them', async () => {
    idp.delayMs = 20;
    const before = idp.refreshRequests().length;
    const accounts = customers.map((customer) => client.forAccount(customer.zaaid));
    await Promise.all([
      client.GET('/monitors'),
      ...accounts.map((account) => account.GET('/monitors')),
      ...accounts.map((account) => account.GET('/monitors')),
    ]);
    expect(idp.refreshRequests().length - before).toBe(1);
    expect(new Set(api.requests.map(tokenOf)).size).toBe(1);
    idp.delayMs = 0;
  });

  it('forAccount on a bound client switches the account rather than adding one', async () => {
    await client.forAccount('700000123').forAccount('700000456').GET('/monitors');
    expect(cookies()).toEqual(['zaaid=700000456']);
  });

  it('params.cookie.zaaid (which openapi-fetch never sends) acts on that account for one call', async () => {
    await client.GET('/monitors', { params: { cookie: { zaaid: '700000123' } } });
    await client.GET('/monitors');
    expect(cookies()).toEqual(['zaaid=700000123', undefined]);
  });

  it('a zaaid that could break the Cookie header is refused', () => {
    for (const bad of ['', '1; admin=1', '1 2', '1,2', 'a"b']) expect(() => client.forAccount(bad)).toThrow(TypeError);
  });
});
