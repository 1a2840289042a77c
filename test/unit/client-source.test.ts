// The generated client's module, from descriptions that lack what it states: the build stops with the missing part
// named, instead of writing `undefined` into the module or failing on a property of undefined.
import { describe, expect, it } from 'vitest';
import { clientSource, expand } from '../../scripts/lib/client-source.js';
import type { OpenApiDocument } from '../../src/description/openapi.js';
import { loadBundle } from '../support/bundle.js';

const bundle = (): OpenApiDocument => loadBundle();

describe('the client module of the description', () => {
  it('states the API version and the identity provider limits of the description', () => {
    const source = clientSource(bundle());
    expect(source).toContain(`export const apiVersion = ${JSON.stringify(bundle().info?.version)};`);
    expect(source).toMatch(/export const tokenLimits = \{[\s\S]*\} as const;/);
  });

  it('stops the build when the ServiceOAuth2 scheme has no x-limits', () => {
    const document = bundle();
    delete document.components?.securitySchemes?.ServiceOAuth2?.['x-limits'];
    expect(() => clientSource(document)).toThrow(/x-limits of the ServiceOAuth2 scheme, which the description does not give/);
  });

  it('stops the build when a server uses a variable it does not define', () => {
    expect(expand({ url: 'https://{api_host}/api', variables: { api_host: { default: 'api.example.invalid' } } })).toBe(
      'https://api.example.invalid/api',
    );
    expect(() => expand({ url: 'https://{api_host}/api' })).toThrow(
      'The server https://{api_host}/api uses the variable {api_host}, which it does not define.',
    );
  });
});
