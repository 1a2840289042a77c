// MSW handlers typed by openapi-msw over the package's types: `PlainJsonPaths` keys the versioned JSON media types
// (`application/json; version=2.0`) as `application/json`, the key openapi-msw types bodies by, so that a handler's
// success and error bodies are checked by tsc --strict (the typecheck test compiles this file) and answer at run time.
import { http as mswHttp } from 'msw';
import { setupServer } from 'msw/node';
import { createOpenApiHttp } from 'openapi-msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type PlainJsonPaths, ServiceError } from '../../src/index.js';

const baseUrl = 'https://api.example.com/api';
const http = createOpenApiHttp<PlainJsonPaths>({ baseUrl });

const server = setupServer(
  http.get('/monitors/{monitor_id}', ({ params, response }) => {
    if (params.monitor_id === '1') return response(404).json({ code: 1002, message: 'Monitor does not exist.' });
    return response(200).json({ code: 0, message: 'success', data: { monitor_id: params.monitor_id } });
  }),
  http.get('/device_key', ({ response }) => response(200).json({ code: 0, message: 'success', data: { device_key: 'key-1' } })),
  mswHttp.all('*', () => new Response(null, { status: 599 })),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('openapi-msw handlers over PlainJsonPaths', () => {
  const client = createServiceClient({ baseUrl, auth: { accessToken: 'any' }, retry: false });

  it('answer the typed success bodies', async () => {
    expect(await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '169863000000025001' } } })).toEqual({
      monitor_id: '169863000000025001',
    });
    expect(await client.GET('/device_key')).toEqual({ device_key: 'key-1' });
  });

  it('answer the typed error bodies', async () => {
    const failure = await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } }).catch((error: unknown) => error);
    expect(ServiceError.is(failure) && failure.code).toBe(1002);
  });
});
