import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { outputs } from '../../scripts/lib/paths.js';
import { deref as derefIn, type Json, loadBundle, operationsOf } from '../support/bundle.js';
import { schemaValidator } from '../support/validator.js';

const bundle = loadBundle();
const validate = schemaValidator(bundle);

const deref = (node: Json): Json => derefIn(bundle, node)!;

/** Every (media type, example) pair of the document: request bodies and responses. */
function examples() {
  const found: { where: string; schema: Json; value: unknown }[] = [];
  for (const { path, method, operation } of operationsOf(bundle)) {
    const bodies: [string, Json][] = [];
    if (operation.requestBody) bodies.push(['request', deref(operation.requestBody)]);
    for (const [status, response] of Object.entries<Json>(operation.responses!)) bodies.push([status, deref(response)]);
    for (const [label, body] of bodies) {
      for (const [mediaType, media] of Object.entries<Json>(body.content ?? {})) {
        for (const [name, example] of Object.entries<Json>(media.examples ?? {})) {
          found.push({
            where: `${method.toUpperCase()} ${path} ${label} ${mediaType} ${name}`,
            schema: media.schema,
            value: deref(example).value,
          });
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
      const bodies = [operation.requestBody, ...Object.values(operation.responses!)].filter(Boolean).map((body) => deref(body as Json));
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

  // Response schemas admit unknown attributes, so validation alone would not catch a misspelt one in an example.
  it.each(all.map((example) => [example.where, example] as const))('%s names only attributes its schema declares', (_where, example) => {
    expect(undeclaredAttributes(example.schema, example.value)).toEqual([]);
  });
});

/** The attributes of a value that its schema (with its allOf/oneOf/anyOf members, nested) does not declare. */
function undeclaredAttributes(node: Json | undefined, value: unknown, at = ''): string[] {
  const schema = node ? deref(node) : undefined;
  if (!schema || typeof schema !== 'object') return [];
  const members = [schema, ...['allOf', 'oneOf', 'anyOf'].flatMap((keyword) => ((schema[keyword] ?? []) as Json[]).map(deref))];
  const flat = members.flatMap((member) =>
    member === schema
      ? [member]
      : [member, ...['allOf', 'oneOf', 'anyOf'].flatMap((keyword) => ((member[keyword] ?? []) as Json[]).map(deref))],
  );
  if (Array.isArray(value)) {
    const items = flat.map((member) => member.items).find(Boolean) as Json | undefined;
    return items ? value.flatMap((item, index) => undeclaredAttributes(items, item, `${at}/${index}`)) : [];
  }
  if (!value || typeof value !== 'object') return [];
  const properties = new Map<string, Json[]>();
  for (const member of flat) {
    for (const [name, property] of Object.entries<Json>(member.properties ?? {}))
      properties.set(name, [...(properties.get(name) ?? []), property]);
  }
  if (flat.every((member) => member.properties === undefined)) return []; // a schema that names no attribute (not shown in the documents)
  return Object.entries(value).flatMap(([name, field]) =>
    properties.has(name) ? undeclaredAttributes({ allOf: properties.get(name) }, field, `${at}/${name}`) : [`${at}/${name}`],
  );
}

describe('schemas', () => {
  it('Timestamp takes the service format (offset without a colon) and refuses RFC 3339', () => {
    expect(validate('Timestamp', '2026-11-21T10:00:00+0530')).toEqual([]);
    expect(validate('Timestamp', '2026-11-21T23:59:59-0800')).toEqual([]);
    expect(validate('Timestamp', '2026-11-21T10:00:00+05:30')).not.toEqual([]);
    expect(validate('Timestamp', '2026-11-21T10:00:00Z')).not.toEqual([]);
    expect(validate('Timestamp', '2026-13-21T10:00:00+0530')).not.toEqual([]);
  });

  it('responses accept attributes they do not know (forward compatibility), and the generated types carry them', () => {
    expect(
      validate('MonitorResponse', {
        code: 0,
        message: 'success',
        data: { monitor_id: '1', name: 'Homepage', new_field: [1] },
        extra: true,
      }),
    ).toEqual([]);
    expect(validate('Error', { code: 1002, message: 'Monitor does not exist.', hint: 'new' })).toEqual([]);
    const types = readFileSync(outputs().types, 'utf8');
    const schemasBlock = types.slice(types.indexOf('    schemas: {'));
    for (const name of [
      'Monitor',
      'DeviceKey',
      'ManagedAccount',
      'MonitorTypeEntry',
      'Envelope',
      'Error',
      'AccessToken',
      'RevokeResponse',
    ]) {
      const start = schemasBlock.search(new RegExp(`^ {8}${name}: `, 'm'));
      expect(start, `components.schemas.${name} in generated/types.ts`).toBeGreaterThan(0);
      const rest = schemasBlock.slice(start + 1);
      const declaration = rest.slice(0, rest.search(/^ {8}(\/\*\*|\w+: )/m));
      expect(declaration, `components.schemas.${name} of generated/types.ts has an index signature`).toContain('[key: string]: unknown;');
    }
  });

  it("an envelope's data is an object or an array in every response", () => {
    expect(validate('MonitorGroupCreatedResponse', { code: 0, message: 'success', data: { id: '1' } })).toEqual([]);
    expect(validate('MonitorGroupCreatedResponse', { code: 0, message: 'success', data: [] })).toEqual([]);
    expect(validate('MonitorGroupCreatedResponse', { code: 0, message: 'success', data: 'created' })).not.toEqual([]);
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

  it('every resource operation requires the Service-oauthtoken header alone, with one scope of the OAuth 2.0 flow; the documented two are not inferred', () => {
    const scopes = Object.keys(bundle.components.securitySchemes.ServiceOAuth2.flows.authorizationCode.scopes);
    for (const { path, operation } of operationsOf(bundle)) {
      if (path.startsWith('/oauth/')) {
        expect(operation.security, path).toEqual([]);
        continue;
      }
      expect(operation.security, path).toEqual([{ ServiceOAuthToken: [expect.any(String)] }]);
      const scope = operation.security![0]!.ServiceOAuthToken![0];
      expect(scopes, path).toContain(scope);
      const documented = path === '/device_key' || path === '/monitor_type_constants';
      expect(Boolean(operation['x-scope-inferred']), path).toBe(!documented);
      // The scope line of the rendered text, written from the requirement by the service/scope-line decorator.
      const lines = String(operation.description)
        .split('\n')
        .filter((line) => line.includes('**Scope:**'));
      expect(lines, path).toEqual([
        documented
          ? `**Scope:** \`${scope}\`.`
          : `**Scope:** \`${scope}\` (inferred from the scope table: the documents do not name this endpoint's scope).`,
      ]);
    }
  });

  it('no operation requires the OAuth 2.0 scheme, which documents the flow and its thirty scopes', () => {
    const required = operationsOf(bundle)
      .flatMap(({ operation }) => (operation.security ?? bundle.security) as Json[])
      .flatMap((requirement) => Object.keys(requirement));
    expect(required).not.toContain('ServiceOAuth2');
    expect(bundle.security).toEqual([{ ServiceOAuthToken: [] }]);
    expect(bundle.components.securitySchemes.ServiceOAuth2.type).toBe('oauth2');
  });

  it('the version is in the media types: success in application/json; version=2.0, errors and JSON bodies with charset=UTF-8, no Accept parameter', () => {
    for (const { path, method, operation } of operationsOf(bundle)) {
      const where = `${method.toUpperCase()} ${path}`;
      const parameters = ((operation.parameters ?? []) as Json[]).map(deref);
      expect(
        parameters.map((parameter) => String(parameter.name).toLowerCase()),
        where,
      ).not.toContain('accept');
      const identityProvider = path.startsWith('/oauth/');
      for (const [status, raw] of Object.entries<Json>(operation.responses!)) {
        const types = Object.keys(deref(raw).content ?? {});
        if (types.length === 0) continue;
        const expected = identityProvider
          ? 'application/json'
          : status.startsWith('2')
            ? 'application/json; version=2.0'
            : 'application/json;charset=UTF-8';
        expect(types, `${where} ${status}`).toEqual([expected]);
      }
      const body = operation.requestBody ? deref(operation.requestBody) : undefined;
      for (const type of Object.keys(body?.content ?? {}))
        expect(type, `${where} request`).toMatch(/^(application\/json;charset=UTF-8|application\/x-www-form-urlencoded)$/);
    }
    expect(Object.keys(bundle.components.parameters ?? {})).not.toContain('Accept');
  });
});
