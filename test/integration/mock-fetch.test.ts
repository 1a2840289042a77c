// The mock in-process, without a port: createMockFetch() given to the client as its fetch, and to MSW as the
// answer of a catch-all handler. Same engine, same rules as the HTTP mock.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleToken } from '../../scripts/lib/sample-requests.js';
import { createServiceClient, type ServiceClient, ServiceError } from '../../src/index.js';
import { createMockFetch } from '../../src/mock/index.js';
import { loadBundle } from '../support/bundle.js';
import { schemaValidator } from '../support/validator.js';

const validate = schemaValidator(loadBundle());
const auth = { clientId: '1000.id', clientSecret: 'secret', refreshToken: '1000.refresh' };

describe("createMockFetch() as the client's fetch", () => {
  const mockFetch = createMockFetch();
  const sent: Request[] = [];
  let client: ServiceClient;
  beforeAll(async () => {
    await mockFetch.ready;
    client = createServiceClient({
      baseUrl: mockFetch.baseUrl,
      authUrl: mockFetch.authUrl,
      auth,
      retry: false,
      fetch: (request) => {
        sent.push(request.clone());
        return mockFetch(request);
      },
    });
  });

  it('answers at addresses that never resolve: nothing leaves the process', () => {
    expect(mockFetch.baseUrl).toBe('https://mock.invalid/api');
    expect(mockFetch.authUrl).toBe('https://mock.invalid');
  });

  it('renews the access token at the mock identity provider and lists the monitors', async () => {
    const monitors = await client.GET('/monitors');
    expect(monitors.length).toBeGreaterThan(0);
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /oauth/v2/token',
      'GET /api/monitors',
    ]);
    expect(sent[1]!.headers.get('Authorization')).toMatch(/^Service-oauthtoken \S+$/);
  });

  it('acts on a customer with the zaaid cookie', async () => {
    const customers = await client.GET('/short/msp/customers');
    const customer = client.forAccount(customers[0]!.zaaid);
    await expect(customer.GET('/monitors')).resolves.toBeInstanceOf(Array);
    expect(sent.at(-1)!.headers.get('Cookie')).toBe(`zaaid=${customers[0]!.zaaid}`);
  });

  it('plays the documented 404 (code 1002) on request', async () => {
    const error = await client
      .GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000099999' } }, headers: { Prefer: 'code=404' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 404, code: 1002, message: 'Monitor does not exist.' });
  });

  it('validates what it is sent: a 400 naming the fault', async () => {
    const error = (await client
      .POST('/monitor_groups', { body: { description: 'no name' } as never })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.message).toBe("Bad Request: body must have required property 'display_name'");
  });

  it('a call without a token gets the 401 of the HTTP mock', async () => {
    const response = await mockFetch(`${mockFetch.baseUrl}/monitors`);
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(validate('Error', body)).toEqual([]);
    expect(body.message).toMatch(/Authorization header is missing/);
  });

  it('takes a URL and init like fetch, and a Request', async () => {
    const viaInit = await mockFetch(new URL(`${mockFetch.baseUrl}/device_key`), { headers: { Authorization: sampleToken } });
    expect(viaInit.status).toBe(200);
    expect(viaInit.url).toBe(`${mockFetch.baseUrl}/device_key`);
    const viaRequest = await mockFetch(new Request(`${mockFetch.baseUrl}/device_key`, { headers: { Authorization: sampleToken } }));
    expect(await viaRequest.json()).toEqual(await viaInit.json());
  });

  it('a body over the limit: 413', async () => {
    const small = createMockFetch({ maxBodyBytes: 10 });
    const response = await small(`${small.baseUrl}/monitor_groups`, {
      method: 'POST',
      headers: { Authorization: sampleToken, 'Content-Type': 'application/json;charset=UTF-8' },
      body: JSON.stringify({ display_name: 'Payment services' }),
    });
    expect(response.status).toBe(413);
  });
});

describe('createMockFetch() behind MSW', () => {
  const mockFetch = createMockFetch();
  const server = setupServer(http.all('*', ({ request }) => mockFetch(request)));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('a client with the default fetch, configured for a data center, is answered by the mock', async () => {
    const client = createServiceClient({ dataCenter: 'eu', auth, retry: false });
    const [monitor] = await client.GET('/monitors');
    expect(monitor!.monitor_id).toMatch(/^\d+$/);
    const key = await client.GET('/device_key');
    expect(key.device_key).toBeTypeOf('string');
  });

  it('errors on demand come through MSW too', async () => {
    const client = createServiceClient({ dataCenter: 'eu', auth, retry: false });
    await expect(client.GET('/monitors', { headers: { Prefer: 'code=403, example=NotAuthorizedForAccount' } })).rejects.toMatchObject({
      status: 403,
      message: 'You are not authorized to perform this operation.',
    });
  });
});
