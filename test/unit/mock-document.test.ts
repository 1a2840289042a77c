import { describe, expect, it } from 'vitest';
import { apiRoot, mockDocument } from '../../src/description/mock-document.js';

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
