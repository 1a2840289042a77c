// The description, served by the Prism mock, exercised through the generated client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, createAuthClient } from '../../generated/client.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { loadBundle, operationsOf } from '../support/bundle.js';
import { schemaValidator } from '../support/validator.js';

const bundle = loadBundle();
const validate = schemaValidator(bundle);
const token = 'Service-oauthtoken 1000.test-access-token';
const form = (body?: Record<string, string>) => new URLSearchParams(body).toString();
const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded' };

let mock: RunningMock;
let api: ReturnType<typeof createApiClient>;
let auth: ReturnType<typeof createAuthClient>;
const covered = new Set<string>();

beforeAll(async () => {
  mock = await startMock();
  api = createApiClient({ baseUrl: mock.baseUrl, headers: { Authorization: token, Accept: 'application/json; version=2.0' } });
  auth = createAuthClient({ baseUrl: mock.authUrl });
});
afterAll(() => mock?.stop());

describe('success path of every operation, at the URL shape of a data center', () => {
  it('GET /device_key', async () => {
    const { data, response } = await api.GET('/device_key');
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${mock.baseUrl}/device_key`);
    expect(validate('DeviceKeyResponse', data)).toEqual([]);
    expect(data?.data.device_key).toBeTypeOf('string');
    covered.add('getDeviceKey');
  });

  it('GET /monitor_type_constants', async () => {
    const { data, response } = await api.GET('/monitor_type_constants');
    expect(response.status).toBe(200);
    expect(validate('MonitorTypeListResponse', data)).toEqual([]);
    expect(data?.data.map((entry) => entry.id)).toContain('CAPACITY');
    covered.add('listMonitorTypes');
  });

  it('GET /monitors', async () => {
    const { data, response } = await api.GET('/monitors');
    expect(response.status).toBe(200);
    expect(validate('MonitorListResponse', data)).toEqual([]);
    expect(data?.data.length).toBeGreaterThan(0);
    covered.add('listMonitors');
  });

  it('GET /monitors/{monitor_id}', async () => {
    const { data, response } = await api.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000025001' } } });
    expect(response.status).toBe(200);
    expect(validate('MonitorResponse', data)).toEqual([]);
    expect(data?.data.monitor_id).toMatch(/^\d+$/);
    covered.add('getMonitor');
  });

  it('POST /monitor_groups', async () => {
    const { data, response } = await api.POST('/monitor_groups', {
      body: { display_name: 'Payment services', description: 'Checkout and billing' },
      headers: { 'Content-Type': 'application/json;charset=UTF-8' },
    });
    expect([200, 201]).toContain(response.status);
    expect(validate('Envelope', data)).toEqual([]);
    covered.add('createMonitorGroup');
  });

  it('GET /short/msp/customers, then act on a customer with the zaaid cookie', async () => {
    const { data, response } = await api.GET('/short/msp/customers');
    expect(response.status).toBe(200);
    expect(validate('ManagedAccountListResponse', data)).toEqual([]);
    const zaaid = data!.data[0]!.zaaid;
    const onCustomer = await api.GET('/monitors', { headers: { Cookie: `zaaid=${zaaid}` } });
    expect(onCustomer.response.status).toBe(200);
    covered.add('listMspCustomers');
  });

  it('GET /short/bu/business_units', async () => {
    const { data, response } = await api.GET('/short/bu/business_units');
    expect(response.status).toBe(200);
    expect(validate('ManagedAccountListResponse', data)).toEqual([]);
    covered.add('listBusinessUnits');
  });

  it('GET /admin/monitors (response not documented)', async () => {
    const { response } = await api.GET('/admin/monitors');
    expect(response.status).toBe(200);
    covered.add('getAdminMonitors');
  });

  it('POST /oauth/v2/token with the authorization-code grant, as form fields: tokens with a refresh token', async () => {
    const { data, response } = await auth.POST('/oauth/v2/token', {
      body: { client_id: 'id', client_secret: 'secret', code: '1000.grant', grant_type: 'authorization_code' },
      bodySerializer: form,
      headers: formHeaders,
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${mock.authUrl}/oauth/v2/token`);
    expect(validate('AuthorizationCodeTokenResponse', data)).toEqual([]);
    covered.add('requestToken');
  });

  it('POST /oauth/v2/token with the refresh-token grant, as a query string: an access token without a refresh token', async () => {
    const { data, response } = await auth.POST('/oauth/v2/token', {
      params: { query: { client_id: 'id', client_secret: 'secret', refresh_token: '1000.refresh', grant_type: 'refresh_token' } },
      headers: { Prefer: 'example=RefreshedAccessToken' },
    });
    expect(response.status).toBe(200);
    expect(validate('RefreshTokenResponse', data)).toEqual([]);
    expect(data).not.toHaveProperty('refresh_token');
  });

  it('POST /oauth/v2/token/revoke', async () => {
    const { data, response } = await auth.POST('/oauth/v2/token/revoke', {
      body: { token: '1000.refresh' },
      bodySerializer: form,
      headers: formHeaders,
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 'success' });
    covered.add('revokeToken');
  });

  it('covered every operation of the bundled document', () => {
    expect([...covered].sort()).toEqual(
      operationsOf(bundle)
        .map(({ operation }) => operation.operationId)
        .sort(),
    );
  });
});

describe('errors', () => {
  it('no Authorization header: 401 with the error body', async () => {
    const bare = createApiClient({ baseUrl: mock.baseUrl });
    const { error, response } = await bare.GET('/monitors');
    expect(response.status).toBe(401);
    expect(validate('Error', error)).toEqual([]);
    expect(error?.message).toMatch(/Authorization header is missing/);
  });

  it('a monitor_id that is not digits: 4xx naming the parameter and its rule', async () => {
    const { error, response } = await api.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '12ab' } } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(JSON.stringify(error)).toMatch(/monitor_id must match pattern/);
  });

  it('a monitor group without display_name: 400 whose body and violation name the field', async () => {
    const { error, response } = await api.POST('/monitor_groups', {
      // @ts-expect-error display_name is required by the types too
      body: { description: 'no name' },
    });
    expect(response.status).toBe(400);
    expect(error).toEqual({ code: 400, message: "Bad Request: body must have required property 'display_name'" });
    expect(response.headers.get('sl-violations')).toMatch(/required property 'display_name'/);
  });

  it('Prefer: code=404 on a monitor plays code 1002, "Monitor does not exist."', async () => {
    const { error, response } = await api.GET('/monitors/{monitor_id}', {
      params: { path: { monitor_id: '169863000000099999' } },
      headers: { Prefer: 'code=404' },
    });
    expect(response.status).toBe(404);
    expect(error).toEqual({ code: 1002, message: 'Monitor does not exist.' });
  });

  it('an invalid grant type: 400 naming grant_type, as form field and as query parameter', async () => {
    const asForm = await fetch(`${mock.authUrl}/oauth/v2/token`, {
      method: 'POST',
      headers: formHeaders,
      body: form({ client_id: 'id', client_secret: 'secret', code: 'c', grant_type: 'password' }),
    });
    expect(asForm.status).toBe(400);
    expect(asForm.headers.get('sl-violations')).toMatch(/grant_type/);
    expect((await asForm.json()).message).toMatch(/grant_type/);
    const asQuery = await fetch(`${mock.authUrl}/oauth/v2/token?grant_type=password&client_id=id&client_secret=s&code=c`, {
      method: 'POST',
    });
    expect(asQuery.status).toBe(400);
    expect(asQuery.headers.get('sl-violations')).toMatch(/grant_type/);
  });

  it('a resource path without the /api root is not found, like on a real data center', async () => {
    const response = await fetch(`${mock.authUrl}/monitors`, { headers: { Authorization: token } });
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(/"\/monitors" is not an operation of the API/);
  });
});
