// The mock as other teams use it from their test suites: startMock() on a free port, every documented answer with
// its named examples, each error on demand, bad requests answered with a 4xx that names the fault, a clean stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SampleRequest, sampleRequests, sampleToken } from '../../scripts/lib/sample-requests.js';
import { exampleOf } from '../../src/description/examples.js';
import { mockDocument } from '../../src/description/mock-document.js';
import { parametersOf } from '../../src/description/openapi.js';
import { compileRoutes, type PairedExample, type RouteOperation } from '../../src/description/routes.js';
import { createEngine } from '../../src/engine/prism.js';
import { engineInput } from '../../src/engine/translate.js';
import { createCall } from '../../src/http/exchange.js';
import { createMockHandler } from '../../src/mock/handler.js';
import { createMockFetch, type RunningMock, startMock } from '../../src/mock/index.js';
import { loadBundle } from '../support/bundle.js';
import { type Reply, send } from '../support/http-client.js';
import { schemaValidator } from '../support/validator.js';

const bundle = loadBundle();
const validate = schemaValidator(bundle);
const samples = sampleRequests(bundle);
const sample = (operationId: string) => samples.find((entry) => entry.operationId === operationId)!;

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

const call = (
  request: SampleRequest,
  extra: { headers?: Record<string, string>; body?: string; path?: string; method?: string } = {},
): Promise<Reply> =>
  send(mock.authUrl, extra.path ?? request.path, {
    method: extra.method ?? request.method,
    headers: { ...request.headers, ...extra.headers },
    body: extra.body ?? request.body,
  });

/** A 4xx in the contract's error shape whose message matches `names`. */
function expectFault(reply: Reply, status: number, names: RegExp) {
  expect(reply.status, reply.text).toBe(status);
  expect(validate('Error', reply.json), reply.text).toEqual([]);
  expect(reply.json.message).toMatch(names);
}

describe('startMock()', () => {
  it('answers at the URL shape of a data center, on loopback', async () => {
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(mock.authUrl).toBe(mock.baseUrl.replace(/\/api$/, ''));
    const reply = await send(mock.authUrl, '/api/device_key', { headers: { Authorization: sampleToken } });
    expect(reply.status).toBe(200);
  });

  it('a second mock runs beside the first on another free port, and stop() closes it', async () => {
    const second = await startMock();
    expect(second.port).not.toBe(mock.port);
    expect((await send(second.authUrl, '/api/monitors', { headers: { Authorization: sampleToken } })).status).toBe(200);
    await second.stop();
    await second.stop(); // twice is fine
    await expect(second.closed).resolves.toBeUndefined();
    await expect(fetch(`${second.baseUrl}/monitors`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  });

  it('a busy port is refused with a message that says what to do', async () => {
    await expect(startMock({ port: mock.port })).rejects.toThrow(
      /^Port \d+ on 127\.0\.0\.1 is in use: give another port \(port: 0 takes a free one\)\.$/,
    );
  });
});

describe('every documented answer of every operation, with its named examples', () => {
  const cases = samples.flatMap((request) =>
    Object.entries<Record<string, any>>(request.operation.responses!).flatMap(([status, response]) => {
      const resolved = response.$ref ? bundle.components.responses[response.$ref.split('/').pop()] : response;
      const examples = Object.entries<Record<string, any>>(Object.values<Record<string, any>>(resolved.content ?? {})[0]?.examples ?? {});
      if (examples.length === 0) return [{ request, status, example: undefined as string | undefined, value: undefined as unknown }];
      return examples.map(([name, example]) => {
        const value = example.$ref ? bundle.components.examples[example.$ref.split('/').pop()].value : example.value;
        return { request, status, example: name as string | undefined, value: value as unknown };
      });
    }),
  );

  it('covers every response of the description', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(
    cases.map(
      (entry) => [`${entry.request.method} ${entry.request.template} ${entry.status} ${entry.example ?? '(no body)'}`, entry] as const,
    ),
  )('%s', async (_, entry) => {
    const prefer = entry.example ? `code=${entry.status}, example=${entry.example}` : `code=${entry.status}`;
    const reply = await call(entry.request, { headers: { Prefer: prefer } });
    expect(reply.status).toBe(Number(entry.status));
    if (entry.example) expect(reply.json).toEqual(entry.value);
  });
});

describe('a tool that sends every documented parameter, each with its example', () => {
  const document = mockDocument(bundle);
  /** The Cookie header of the operation's documented cookie parameters, at their examples. */
  const documentedCookies = (request: SampleRequest) =>
    parametersOf(document, document.paths![request.template]!, request.operation)
      .filter((parameter) => parameter.in === 'cookie')
      .map((parameter) => `${parameter.name}=${String(exampleOf(document, parameter))}`)
      .join('; ');

  it.each(['listMspCustomers', 'listBusinessUnits'])(
    '%s: gets the list, which takes no zaaid cookie (the zaaids come from it); sent with one, the mock refuses it',
    async (operationId) => {
      const request = sample(operationId);
      const cookie = documentedCookies(request);
      const reply = await call(request, cookie ? { headers: { Cookie: cookie } } : {});
      expect(reply.status, reply.text).toBe(200);
      expect(reply.json.data.length).toBeGreaterThan(0);
      const withZaaid = await call(request, { headers: { Cookie: `zaaid=${reply.json.data[0].zaaid}` } });
      expect(withZaaid.json).toEqual({ code: 403, message: 'You are not authorized to perform this operation.' });
    },
  );
});

describe('named examples of a request, paired with the answers of the same name (Specmatic, Microcks)', () => {
  const operations = compileRoutes(mockDocument(bundle)).flatMap((route) => [...route.operations.values()]);
  const pairs = operations.flatMap((operation) => operation.pairedExamples.map((pair) => ({ operation, pair })));
  /** The request a tool makes of a named example: its parameters at the example's values. */
  const requestOf = (operation: RouteOperation, pair: PairedExample) => {
    let path = operation.template;
    const query = new URLSearchParams();
    const headers: Record<string, string> = { Authorization: sampleToken };
    for (const parameter of pair.parameters) {
      if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(parameter.value));
      else if (parameter.in === 'query') query.set(parameter.name, parameter.value);
      else if (parameter.in === 'cookie') headers.Cookie = `${parameter.name}=${parameter.value}`;
      else headers[parameter.name] = parameter.value;
    }
    return { url: `${path}${query.size > 0 ? `?${query}` : ''}`, method: operation.method.toUpperCase(), headers };
  };
  const answer = async (mockFetch: ReturnType<typeof createMockFetch>, request: ReturnType<typeof requestOf>) => {
    const reply = await mockFetch(`https://mock.invalid${request.url}`, { method: request.method, headers: request.headers });
    return [reply.status, await reply.json()];
  };

  it.each(['examples', 'simulator'] as const)('in mode %s, each gets the answer of its name', async (mode) => {
    expect(pairs.map(({ pair }) => pair.name)).toEqual(['Monitor', 'MonitorNotFound']);
    const mockFetch = createMockFetch({ mode });
    for (const { operation, pair } of pairs)
      expect(await answer(mockFetch, requestOf(operation, pair)), pair.name).toEqual([
        Number(pair.status),
        operation.examples[pair.status]![pair.name],
      ]);
  });

  it('Prefer asks for another answer, and gets it; the examples mode answers another monitor_id with the first example', async () => {
    const examples = createMockFetch({ mode: 'examples' });
    const notFound = pairs.find(({ pair }) => pair.name === 'MonitorNotFound')!;
    const request = requestOf(notFound.operation, notFound.pair);
    expect((await answer(examples, { ...request, headers: { ...request.headers, Prefer: 'code=200' } }))[0]).toBe(200);
    expect((await answer(examples, { ...request, url: '/api/monitors/42' }))[0]).toBe(200);
  });

  it('the simulator answers from its state, whose default holds the examples: a seed of your own decides', async () => {
    const seeded = createMockFetch({ seed: { account: { monitors: [{ monitor_id: '1' }] } } });
    const notFound = pairs.find(({ pair }) => pair.name === 'MonitorNotFound')!;
    expect(await answer(seeded, requestOf(notFound.operation, notFound.pair))).toEqual([
      200,
      { message: 'success', data: { monitor_id: '1' } },
    ]);
  });
});

describe('errors on demand', () => {
  it('missing token: 401 naming the Authorization header', async () => {
    const request = sample('listMonitors');
    const { Authorization: _, ...headers } = request.headers;
    const reply = await send(mock.authUrl, request.path, { headers });
    expectFault(reply, 401, /Authorization header is missing/);
  });

  it('a token without the Service-oauthtoken word: 401 saying what the header must be', async () => {
    const reply = await call(sample('listMonitors'), { headers: { Authorization: 'Bearer 1000.abc' } });
    expectFault(reply, 401, /must be "Service-oauthtoken \{access_token\}".*Bearer/);
  });

  it('Prefer: code=401 plays the documented 401 example with a valid token', async () => {
    const reply = await call(sample('getDeviceKey'), { headers: { Prefer: 'code=401' } });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({ code: 401, message: 'Unauthorized' });
  });

  it('forbidden MSP/BU operation: 403 with Prefer: code=403, example=NotAuthorizedForAccount', async () => {
    for (const operationId of ['listMonitors', 'listMspCustomers', 'listBusinessUnits']) {
      const reply = await call(sample(operationId), {
        headers: { Prefer: 'code=403, example=NotAuthorizedForAccount', Cookie: 'zaaid=700000123' },
      });
      expect(reply.status).toBe(403);
      expect(reply.json).toEqual({ code: 403, message: 'You are not authorized to perform this operation.' });
    }
  });

  it('the same example without the code: 400 pointing at code=403', async () => {
    const reply = await call(sample('listMonitors'), { headers: { Prefer: 'example=NotAuthorizedForAccount' } });
    expectFault(reply, 400, /send Prefer: code=403, example=NotAuthorizedForAccount/);
  });

  it('monitor not found: 404, code 1002, "Monitor does not exist." (header and query forms)', async () => {
    const request = sample('getMonitor');
    const viaHeader = await call(request, { headers: { Prefer: 'code=404' } });
    expect(viaHeader.status).toBe(404);
    expect(viaHeader.json).toEqual({ code: 1002, message: 'Monitor does not exist.' });
    const viaQuery = await call(request, { path: `${request.path}?__code=404` });
    expect(viaQuery.json).toEqual({ code: 1002, message: 'Monitor does not exist.' });
  });

  it('server error: 500 with the documented body, on every resource operation', async () => {
    for (const request of samples.filter((entry) => entry.template.startsWith('/api/'))) {
      const reply = await call(request, { headers: { Prefer: 'code=500' } });
      expect(reply.status, request.operationId).toBe(500);
      expect(reply.json).toEqual({ code: 500, message: 'Internal Server Error' });
    }
  });

  it('bad request on demand: Prefer: code=400 on every operation, documented or not', async () => {
    for (const request of samples) {
      const reply = await call(request, { headers: { Prefer: 'code=400' } });
      expect(reply.status, request.operationId).toBe(400);
      if (reply.text) expect(validate('Error', reply.json)).toEqual([]);
    }
    const onGet = await call(sample('getMonitor'), { headers: { Prefer: 'code=400' } });
    expect(onGet.json).toEqual({ code: 400, message: 'Bad Request' });
  });

  it('Prefer: dynamic=true generates an answer from the schema (the fake-data library loads when it is first needed)', async () => {
    const reply = await call(sample('listMonitors'), { headers: { Prefer: 'dynamic=true' } });
    expect(reply.status).toBe(200);
    expect(validate('MonitorListResponse', reply.json)).toEqual([]);
    expect(reply.json).not.toEqual(await call(sample('listMonitors')).then((plain) => plain.json));
  });

  it('a refresh-token grant is answered without a new refresh token, as a form body or a query string', async () => {
    const request = sample('requestToken');
    const grant = 'client_id=id&client_secret=secret&grant_type=refresh_token&refresh_token=1000.refresh';
    const viaForm = await call(request, { body: grant });
    expect(viaForm.status).toBe(200);
    expect(validate('RefreshTokenResponse', viaForm.json)).toEqual([]);
    expect(viaForm.json).not.toHaveProperty('refresh_token');
    const viaQuery = await call(request, { path: `/oauth/v2/token?${grant}`, body: '', headers: { 'Content-Type': '' } });
    expect(viaQuery.json).not.toHaveProperty('refresh_token');
    const authorizationCode = await call(request);
    expect(authorizationCode.json).toHaveProperty('refresh_token');
  });

  it('an Accept header that asks for another version than 2.0: 406 naming it', async () => {
    const reply = await call(sample('listMonitors'), { headers: { Accept: 'application/json; version=3.0' } });
    expectFault(reply, 406, /asks for version="3\.0"; this description documents version 2\.0/);
    const plain = await call(sample('listMonitors'), { headers: { Accept: 'application/json' } });
    expect(plain.status).toBe(200);
  });

  it('a status the operation does not document: 400 listing what it documents', async () => {
    const reply = await call(sample('getMonitor'), { headers: { Prefer: 'code=409' } });
    expectFault(reply, 400, /cannot play Prefer code=409: GET \/api\/monitors\/\{monitor_id\} documents 200, 400, 401, 403, 404, 500/);
  });
});

describe('bad requests: a 4xx whose body names the fault, sl-violations kept', () => {
  it('a monitor group without display_name', async () => {
    const reply = await call(sample('createMonitorGroup'), { body: JSON.stringify({ description: 'no name' }) });
    expectFault(reply, 400, /^Bad Request: body must have required property 'display_name'$/);
    expect(reply.headers['sl-violations']).toMatch(/required property 'display_name'/);
  });

  it('a display_name of the wrong type', async () => {
    const reply = await call(sample('createMonitorGroup'), { body: JSON.stringify({ display_name: 42 }) });
    expectFault(reply, 400, /display_name must be string/);
  });

  it('malformed JSON', async () => {
    const reply = await call(sample('createMonitorGroup'), { body: '{"display_name": "Payment' });
    expectFault(reply, 400, /the body is not valid JSON/);
  });

  it('a monitor_id that is not digits (GET documents no 400: the mock answers 400 all the same)', async () => {
    const reply = await call(sample('getMonitor'), { path: '/api/monitors/12ab' });
    expectFault(reply, 400, /path parameter monitor_id must match pattern/);
    expect(reply.headers['sl-violations']).toMatch(/monitor_id/);
  });

  it('an unknown grant type on the identity provider: its own 400, `error` included, in both modes, as a form or a query', async () => {
    const examples = createMockFetch({ mode: 'examples' });
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    for (const [path, body, error] of [
      ['/oauth/v2/token', 'client_id=id&client_secret=s&code=c&grant_type=password', 'unsupported_grant_type'],
      ['/oauth/v2/token?grant_type=AAA', '', 'unsupported_grant_type'],
      ['/oauth/v2/token', 'client_id=id&client_secret=s&code=c', 'invalid_request'],
    ] as const) {
      const reply = await call(sample('requestToken'), { path, body, headers: body ? form : { 'Content-Type': '' } });
      expectFault(reply, 400, /grant_type/);
      expect(reply.json).toEqual({ code: 400, message: expect.stringMatching(/grant_type/), error });
      expect(reply.headers['content-type']).toBe('application/json');
      const replayed = await examples(`${examples.authUrl}${path}`, { method: 'POST', ...(body ? { body, headers: form } : {}) });
      expect([replayed.status, await replayed.json()]).toEqual([400, reply.json]);
    }
  });

  it('a body of another media type', async () => {
    const reply = await call(sample('createMonitorGroup'), { headers: { 'Content-Type': 'text/plain' }, body: 'display_name=x' });
    expectFault(reply, 400, /Content-Type "text\/plain" is not accepted \(supported content types: application\/json;charset=UTF-8\)/);
  });

  it('an unknown path and an unsupported method', async () => {
    expectFault(
      await send(mock.authUrl, '/api/monitor', { headers: { Authorization: sampleToken } }),
      404,
      /"\/api\/monitor" is not an operation/,
    );
    const reply = await send(mock.authUrl, '/api/monitors', { method: 'DELETE', headers: { Authorization: sampleToken } });
    expectFault(reply, 405, /DELETE is not supported for \/api\/monitors; it supports GET/);
    expect(reply.headers.allow).toBe('GET');
  });

  it('a body larger than the mock accepts: 413', async () => {
    const reply = await call(sample('createMonitorGroup'), { body: JSON.stringify({ display_name: 'x'.repeat(2 * 1024 * 1024) }) });
    expectFault(reply, 413, /the mock accepts at most 1048576/);
  });

  it('a CORS preflight is answered for any origin', async () => {
    const reply = await send(mock.authUrl, '/api/monitors', {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBeDefined();
  });
});

describe("input that Prism's engine throws on", () => {
  // The mock's own checks keep these from the engine (see exchange.ts); here they reach it directly, as they would
  // through a gap in those checks: the engine's exception stays inside the one request.
  const handler = createMockHandler(bundle);
  const engine = createEngine(mockDocument(bundle), { kind: 'mock' });
  const direct = async (parts: { method: string; url: string; headers: Record<string, string>; body?: string }) => {
    const call = createCall({ ...parts, body: Buffer.from(parts.body ?? '') });
    return (await engine).request(engineInput(call, parts.headers));
  };

  it('malformed percent-encoding in a path: the engine throws, and the error stays a result of this request', async () => {
    const path = await direct({ method: 'GET', url: '/api/monitors/%ZZ', headers: { authorization: sampleToken } });
    expect(path.ok).toBe(false);
    if (!path.ok) expect(path.error.message).toMatch(/URI malformed/);
    const next = await direct({ method: 'GET', url: '/api/monitors/1', headers: { authorization: sampleToken } });
    expect(next.ok).toBe(true);
  });

  it('the same request through the mock, and a malformed form body: a 4xx naming the fault, then the next request is answered', async () => {
    const handle = await handler;
    const path = await handle(
      createCall({ method: 'GET', url: '/api/monitors/%ZZ', headers: { authorization: sampleToken }, body: Buffer.alloc(0) }),
    );
    expect(path.status).toBe(400);
    expect(JSON.parse(path.body.toString()).message).toMatch(/malformed percent-encoding in the segment "%ZZ"/);
    const form = await handle(
      createCall({
        method: 'POST',
        url: '/oauth/v2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from('client_id=%ZZ'),
      }),
    );
    expect(form.status).toBe(400);
    expect(JSON.parse(form.body.toString()).message).toMatch(/malformed percent-encoding/);
    const next = await handle(
      createCall({ method: 'GET', url: '/api/monitors', headers: { authorization: sampleToken }, body: Buffer.alloc(0) }),
    );
    expect(next.status).toBe(200);
  });
});
