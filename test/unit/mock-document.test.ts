import { describe, expect, it } from 'vitest';
import { apiRoot, mockDocument } from '../../src/description/mock-document.js';
import { compileRoutes } from '../../src/description/routes.js';
import { loadBundle } from '../support/bundle.js';

describe('the mock document of a description', () => {
  it('serves no path of a description that has none (OpenAPI 3.1 lets paths be absent)', () => {
    const document = mockDocument({ openapi: '3.1.0', info: { title: 'No paths', version: '1' } });
    expect(document.paths).toEqual({});
    expect(document.info).toEqual({ title: 'No paths', version: '1' });
  });

  it('puts resource paths under the API root and keeps the identity provider at the root, without code samples', () => {
    const document = mockDocument({
      paths: {
        '/monitors': { get: { operationId: 'listMonitors', 'x-codeSamples': [{ lang: 'curl', source: 'curl' }] } },
        '/oauth/v2/token': { servers: [{ url: 'https://accounts.invalid' }], post: { operationId: 'token' } },
      },
    });
    expect(Object.keys(document.paths ?? {})).toEqual([`${apiRoot}/monitors`, '/oauth/v2/token']);
    expect(document.paths?.[`${apiRoot}/monitors`]?.get).toEqual({ operationId: 'listMonitors' });
    expect(document.paths?.['/oauth/v2/token']?.servers).toBeUndefined();
  });
});

describe('the named examples of a request that pair with an answer', () => {
  it("are the names shared by a parameter's examples and a documented status's, with the parameters' values", () => {
    const document = mockDocument(loadBundle());
    const byId = new Map(
      compileRoutes(document).flatMap((route) => [...route.operations.values()].map((operation) => [operation.operationId, operation])),
    );
    expect(byId.get('getMonitor')!.pairedExamples).toEqual([
      { name: 'Monitor', status: '200', parameters: [{ name: 'monitor_id', in: 'path', value: '169863000000025001' }] },
      { name: 'MonitorNotFound', status: '404', parameters: [{ name: 'monitor_id', in: 'path', value: '1' }] },
    ]);
    expect([...byId.values()].filter((operation) => operation.pairedExamples.length > 0).map((operation) => operation.operationId)).toEqual(
      ['getMonitor'],
    );
  });

  it('leave out a name no answer has, an answer under a status that is not a code, and a value that is an object', () => {
    const [route] = compileRoutes({
      paths: {
        '/x/{id}': {
          get: {
            parameters: [
              {
                name: 'id',
                in: 'path',
                required: true,
                examples: { Lonely: { value: '1' }, Ranged: { value: '2' }, Shaped: { value: { a: 1 } } },
              },
            ],
            responses: {
              '4XX': { content: { 'application/json': { examples: { Ranged: { value: {} } } } } },
              '200': { content: { 'application/json': { examples: { Shaped: { value: {} } } } } },
            },
          },
        },
      },
    });
    expect(route!.operations.get('get')!.pairedExamples).toEqual([]);
  });
});
