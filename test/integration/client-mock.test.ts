// The client against the Prism mock of the description: every resource operation gives its typed data, the token
// endpoints work as the client calls them, and the documented errors become ServiceErrors.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createServiceClient,
  type DeviceKey,
  exchangeGrantCode,
  type ManagedAccount,
  type Monitor,
  type MonitorTypeEntry,
  refreshAccessToken,
  revokeRefreshToken,
  type ServiceClient,
  ServiceError,
} from '../../src/index.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { loadBundle, operationsOf } from '../support/bundle.js';
import { schemaValidator } from '../support/validator.js';

const bundle = loadBundle();
const validate = schemaValidator(bundle);
const covered = new Set<string>();

let mock: RunningMock;
let client: ServiceClient;
/** Every request the client sends to the mock, as the client sent it. */
const sent: Request[] = [];

beforeAll(async () => {
  mock = await startMock();
  client = createServiceClient({
    baseUrl: mock.baseUrl,
    authUrl: mock.authUrl,
    auth: { clientId: '1000.id', clientSecret: 'secret', refreshToken: '1000.refresh' },
    retry: { retries: 1, baseDelayMs: 10, maxDelayMs: 20 },
    fetch: async (request) => {
      sent.push(request.clone());
      return fetch(request);
    },
  });
});
afterAll(() => mock?.stop());

describe('every resource operation through the client, against the mock', () => {
  it('GET /device_key', async () => {
    const result = await client.request('GET', '/device_key');
    expectTypeOf(result.data).toEqualTypeOf<DeviceKey>();
    expect(result.response.url).toBe(`${mock.baseUrl}/device_key`);
    expect(validate('DeviceKeyResponse', result.body)).toEqual([]);
    expect(result.data.device_key).toBeTypeOf('string');
    covered.add(result.operation.operationId!);
  });

  it('GET /monitor_type_constants', async () => {
    const types = await client.GET('/monitor_type_constants');
    expectTypeOf(types).toEqualTypeOf<MonitorTypeEntry[]>();
    expect(types.map((entry) => entry.id)).toContain('CAPACITY');
    covered.add('listMonitorTypes');
  });

  it('GET /monitors', async () => {
    const monitors = await client.GET('/monitors');
    expectTypeOf(monitors).toEqualTypeOf<Monitor[]>();
    expect(monitors.length).toBeGreaterThan(0);
    for (const monitor of monitors) expect(monitor.monitor_id).toMatch(/^\d+$/);
    covered.add('listMonitors');
  });

  it('GET /monitors/{monitor_id}', async () => {
    const monitor = await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000025001' } } });
    expectTypeOf(monitor).toEqualTypeOf<Monitor>();
    expect(monitor.monitor_id).toMatch(/^\d+$/);
    covered.add('getMonitor');
  });

  it('POST /monitor_groups', async () => {
    const result = await client.request('POST', '/monitor_groups', {
      body: { display_name: 'Payment services', description: 'Checkout and billing' },
    });
    expect([200, 201]).toContain(result.response.status);
    expect(validate('Envelope', result.body)).toEqual([]);
    expect(sent.at(-1)!.headers.get('Content-Type')).toBe('application/json;charset=UTF-8');
    covered.add('createMonitorGroup');
  });

  it('GET /short/msp/customers, then act on a customer', async () => {
    const customers = await client.GET('/short/msp/customers');
    expectTypeOf(customers).toEqualTypeOf<ManagedAccount[]>();
    expect(customers.length).toBeGreaterThan(0);
    const customer = client.forAccount(customers[0]!.zaaid);
    await expect(customer.GET('/monitors')).resolves.toBeInstanceOf(Array);
    expect(sent.at(-1)!.headers.get('Cookie')).toBe(`zaaid=${customers[0]!.zaaid}`);
    covered.add('listMspCustomers');
  });

  it('GET /short/bu/business_units', async () => {
    const units = await client.GET('/short/bu/business_units');
    expectTypeOf(units).toEqualTypeOf<ManagedAccount[]>();
    expect(units[0]!.zaaid).toBeTypeOf('string');
    covered.add('listBusinessUnits');
  });

  it('GET /admin/monitors (response not documented: whatever the body holds)', async () => {
    const result = await client.request('get', '/admin/monitors');
    expectTypeOf(result.data).toEqualTypeOf<unknown>();
    expect(result.response.status).toBe(200);
    covered.add('getAdminMonitors');
  });

  it('covered every resource operation of the bundled description', () => {
    const resourceOperations = operationsOf(bundle)
      .filter(({ path }) => !path.startsWith('/oauth/'))
      .map(({ operation }) => operation.operationId);
    expect([...covered].sort()).toEqual(resourceOperations.sort());
  });

  it('the client got one access token from the mock identity provider and sent it on every call', () => {
    const tokenCalls = sent.filter((request) => request.url.startsWith(`${mock.authUrl}/oauth/`));
    expect(tokenCalls).toHaveLength(1);
    const resourceCalls = sent.filter((request) => request.url.startsWith(mock.baseUrl));
    expect(resourceCalls.length).toBeGreaterThanOrEqual(9);
    const authorizations = new Set(resourceCalls.map((request) => request.headers.get('Authorization')));
    expect(authorizations.size).toBe(1);
    expect([...authorizations][0]).toMatch(/^Service-oauthtoken \S+$/);
    for (const request of resourceCalls) expect(request.headers.get('Accept')).toBe('application/json; version=2.0');
  });
});

describe('identity-provider helpers against the mock', () => {
  it('exchangeGrantCode, refreshAccessToken, revokeRefreshToken', async () => {
    const tokens = await exchangeGrantCode({ authUrl: mock.authUrl, clientId: 'id', clientSecret: 'secret', code: '1000.grant' });
    expect(tokens.accessToken).toBeTypeOf('string');
    expect(tokens.refreshToken).toBeTypeOf('string');
    expect(tokens.expiresIn).toBe(3600);
    const renewed = await refreshAccessToken({
      authUrl: mock.authUrl,
      clientId: 'id',
      clientSecret: 'secret',
      refreshToken: tokens.refreshToken,
    });
    expect(renewed.accessToken).toBeTypeOf('string');
    await expect(revokeRefreshToken({ authUrl: mock.authUrl, refreshToken: tokens.refreshToken })).resolves.toBeUndefined();
  });
});

describe('documented errors from the mock', () => {
  it('Prefer: code=404 on a monitor: ServiceError 404, code 1002, "Monitor does not exist."', async () => {
    const error = await client
      .GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000099999' } }, headers: { Prefer: 'code=404' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      kind: 'http',
      status: 404,
      code: 1002,
      message: 'Monitor does not exist.',
      attempts: 1,
      operation: { method: 'GET', path: '/monitors/{monitor_id}', operationId: 'getMonitor' },
    });
  });

  it("Prism's 422 problem+json for an invalid monitor_id: the violation in the message", async () => {
    const error = (await client
      .GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '12ab' } } })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
    expect(error.message).toMatch(/monitor_id must match pattern/);
  });

  it("Prefer: code=500 on a GET is retried, then a ServiceError with the body's code and message", async () => {
    const error = (await client.GET('/monitors', { headers: { Prefer: 'code=500' } }).catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'http', status: 500, attempts: 2 });
    expect(error.code).toBeTypeOf('number');
    expect(error.message).not.toBe('');
  });

  it('Prefer: example=NotAuthorizedForAccount on a 403: the MSP message', async () => {
    const error = await client
      .forAccount('700000123')
      .GET('/monitors', { headers: { Prefer: 'code=403, example=NotAuthorizedForAccount' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 403, message: 'You are not authorized to perform this operation.' });
  });
});
