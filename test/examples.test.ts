import { describe, expect, it } from 'vitest';
import { deref as derefIn, loadBundle, operationsOf, type Json } from './support/bundle.js';
import { schemaValidator } from './support/validator.js';

const bundle = loadBundle();
const validate = schemaValidator(bundle);

const deref = (node: Json): Json => derefIn(bundle, node)!;

/** Every (media type, example) pair of the document: request bodies and responses. */
function examples() {
  const found: { where: string; schema: Json; value: unknown }[] = [];
  for (const { path, method, operation } of operationsOf(bundle)) {
    const bodies: [string, Json][] = [];
    if (operation.requestBody) bodies.push(['request', deref(operation.requestBody)]);
    for (const [status, response] of Object.entries<Json>(operation.responses)) bodies.push([status, deref(response)]);
    for (const [label, body] of bodies) {
      for (const [mediaType, media] of Object.entries<Json>(body.content ?? {})) {
        for (const [name, example] of Object.entries<Json>(media.examples ?? {})) {
          found.push({ where: `${method.toUpperCase()} ${path} ${label} ${mediaType} ${name}`, schema: media.schema, value: deref(example).value });
        }
      }
    }
  }
  return found;
}

describe('examples', () => {
  const all = examples();

  it('every request body and every response with content has at least one example', () => {
    for (const { path, method, operation } of operationsOf(bundle)) {
      const bodies = [operation.requestBody, ...Object.values(operation.responses)].filter(Boolean).map((body) => deref(body as Json));
      for (const body of bodies) {
        for (const [mediaType, media] of Object.entries<Json>(body.content ?? {})) {
          expect(Object.keys(media.examples ?? {}).length, `${method} ${path} ${mediaType}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it.each(all.map((example) => [example.where, example] as const))('%s validates against its schema', (_where, example) => {
    expect(validate(example.schema, example.value)).toEqual([]);
  });
});

describe('schemas', () => {
  it('Timestamp takes the service format (offset without a colon) and refuses RFC 3339', () => {
    expect(validate('Timestamp', '2026-11-21T10:00:00+0530')).toEqual([]);
    expect(validate('Timestamp', '2026-11-21T23:59:59-0800')).toEqual([]);
    expect(validate('Timestamp', '2026-11-21T10:00:00+05:30')).not.toEqual([]);
    expect(validate('Timestamp', '2026-11-21T10:00:00Z')).not.toEqual([]);
    expect(validate('Timestamp', '2026-13-21T10:00:00+0530')).not.toEqual([]);
  });

  it('responses accept attributes they do not know (forward compatibility)', () => {
    expect(validate('MonitorResponse', { code: 0, message: 'success', data: { monitor_id: '1', name: 'Homepage', new_field: [1] }, extra: true })).toEqual([]);
    expect(validate('Error', { code: 1002, message: 'Monitor does not exist.', hint: 'new' })).toEqual([]);
  });

  it('only the authorization-code grant returns a refresh token', () => {
    const token = { access_token: 'a', expires_in: 3600, api_domain: 'https://api.example.invalid', token_type: 'Bearer' };
    expect(validate('RefreshTokenResponse', token)).toEqual([]);
    expect(validate('RefreshTokenResponse', { ...token, refresh_token: 'r' })).not.toEqual([]);
    expect(validate('AuthorizationCodeTokenResponse', token)).not.toEqual([]);
    expect(validate('AuthorizationCodeTokenResponse', { ...token, refresh_token: 'r' })).toEqual([]);
  });

  it('a monitor ID is a string of digits', () => {
    expect(validate('MonitorId', '169863000000025001')).toEqual([]);
    expect(validate('MonitorId', '12a')).not.toEqual([]);
    expect(validate('MonitorId', 12)).not.toEqual([]);
  });

  it('declares all thirty scopes, each described, in the OAuth 2.0 scheme and the Scope schema alike', () => {
    const scopes = bundle.components.securitySchemes.ServiceOAuth2.flows.authorizationCode.scopes;
    const expected = ['Account', 'Admin', 'Reports', 'Operations', 'Msp', 'Bu'].flatMap((area) =>
      ['Read', 'Create', 'Update', 'Delete', 'All'].map((action) => `Service.${area}.${action}`),
    );
    expect(Object.keys(scopes)).toEqual(expected);
    expect(bundle.components.schemas.Scope.enum).toEqual(expected);
    expect(Object.values(scopes)).toEqual(bundle.components.schemas.Scope['x-enum-descriptions']);
  });

  it('every resource operation requires the Service-oauthtoken header and one scope; the documented two are not inferred', () => {
    for (const { path, operation } of operationsOf(bundle)) {
      if (path.startsWith('/oauth/')) {
        expect(operation.security, path).toEqual([]);
        continue;
      }
      expect(operation.security, path).toEqual([{ ServiceOAuthToken: [], ServiceOAuth2: [operation['x-scope']] }]);
      const documented = path === '/device_key' || path === '/monitor_type_constants';
      expect(Boolean(operation['x-scope-inferred']), path).toBe(!documented);
    }
  });
});
