// The simulator on descriptions other than this package's (a user's `description` option): what the typed view of
// the description (decision 0017) showed it read wrongly or not at all, each checked on a small document.
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/description/openapi.js';
import { createAccounts } from '../../src/simulator/accounts.js';
import { lackingScope, monitorTypes, requiredScopes } from '../../src/simulator/resources.js';
import { schemaFaults } from '../../src/simulator/schema-check.js';
import { checkSeed, defaultSeed, type SeedError } from '../../src/simulator/seed.js';

/** The faults of a seed on a document, or none. */
function seedFaults(document: OpenApiDocument, value: unknown) {
  try {
    checkSeed(document, value, 'seed.json');
    return [];
  } catch (error) {
    return (error as SeedError).faults;
  }
}

describe("a seed's schema check", () => {
  const closed = { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false };

  it("reads only the schema's and the value's own keys: `constructor` is no property of every schema", () => {
    const document: OpenApiDocument = {};
    expect(schemaFaults(document, closed, { name: 'A', constructor: 1 })).toEqual([
      { pointer: '/constructor', message: 'is not allowed here' },
    ]);
    expect(schemaFaults(document, { type: 'object', required: ['constructor', 'toString'] }, {})).toEqual([
      { pointer: '', message: 'must have the attribute "constructor"' },
      { pointer: '', message: 'must have the attribute "toString"' },
    ]);
  });

  it('follows a reference to a boolean schema, and reads boolean subschemas', () => {
    const document: OpenApiDocument = { components: { schemas: { Box: { properties: { nothing: false, anything: true } } } } };
    const nothing = { $ref: '#/components/schemas/Box/properties/nothing' };
    expect(schemaFaults(document, nothing, 1)).toEqual([{ pointer: '', message: 'is not allowed here' }]);
    expect(schemaFaults(document, { $ref: '#/components/schemas/Box/properties/anything' }, 1)).toEqual([]);
    expect(schemaFaults(document, { properties: { a: false } }, { a: 1 })).toEqual([{ pointer: '/a', message: 'is not allowed here' }]);
    expect(schemaFaults(document, { oneOf: [false, true] }, 1)).toEqual([]);
    expect(schemaFaults(document, { allOf: [false] }, 1)).toEqual([{ pointer: '', message: 'is not allowed here' }]);
  });

  it('takes a keyword that is not what JSON Schema allows as no rule, without throwing', () => {
    const document: OpenApiDocument = {};
    expect(schemaFaults(document, { allOf: { type: 'string' }, oneOf: 'string', required: 'name' }, { a: 1 })).toEqual([]);
  });

  it("without the description's Monitor and MonitorGroupCreate schemas, a monitor or group must still be an object", () => {
    expect(seedFaults({}, { account: { monitors: [7, { monitor_id: '1' }], groups: [null] } })).toEqual([
      { pointer: '/account/monitors/0', message: 'must be an object, not integer' },
      { pointer: '/account/groups/0', message: 'must be an object, not null' },
    ]);
  });
});

describe("the default seed of a description's examples", () => {
  it('keeps only the objects of the Monitors example: each is a monitor the API finds by its monitor_id', () => {
    const document: OpenApiDocument = {
      components: { examples: { Monitors: { value: { data: [null, 'x', { monitor_id: '1' }] } } } },
    };
    const seed = defaultSeed(document);
    expect(seed.account.monitors).toEqual([{ monitor_id: '1' }]);
    const accounts = createAccounts(seed);
    expect(accounts.monitor(accounts.own, '1')).toEqual({ monitor_id: '1' });
    expect(accounts.monitor(accounts.own, '2')).toBeUndefined();
  });
});

describe('the scopes an operation requires', () => {
  it("an operation without its own security requirements has the document's (OpenAPI 3.1, section 4.8.10)", () => {
    const document: OpenApiDocument = {
      security: [{ ServiceOAuthToken: ['Service.Admin.Read'] }],
      paths: {
        '/a': { get: { operationId: 'inherits' } },
        '/b': { get: { operationId: 'own', security: [{ ServiceOAuthToken: ['Service.Admin.Create'] }] } },
        '/c': { get: { operationId: 'anonymous', security: [] } },
      },
    };
    expect(Object.fromEntries(requiredScopes(document))).toEqual({
      inherits: [['Service.Admin.Read']],
      own: [['Service.Admin.Create']],
      anonymous: [],
    });
  });

  it('each security requirement is an alternative: one the token covers is enough (section 4.8.30)', () => {
    const alternatives = [['Service.Msp.Read'], ['Service.Bu.Read', 'Service.Admin.Read']];
    expect(lackingScope(new Set(['Service.Bu.Read', 'Service.Admin.All']), alternatives)).toBeUndefined();
    expect(lackingScope(new Set(['Service.Msp.Read']), alternatives)).toBeUndefined();
    expect(lackingScope(new Set(['Service.Bu.Read']), alternatives)).toBe('Service.Msp.Read');
    expect(lackingScope(new Set(), [])).toBeUndefined();
    expect(lackingScope('every', alternatives)).toBeUndefined();
  });
});

describe('the monitor types of a description', () => {
  it('a description of a type that is no text leaves the ID as its name; an ID that is no text is no type', () => {
    const document: OpenApiDocument = {
      components: {
        schemas: {
          KnownMonitorType: { enum: ['URL', 'DNS', 7, 'PING'], 'x-enum-descriptions': ['website', null, 'seven', { name: 'ping' }] },
        },
      },
    };
    expect(monitorTypes(document)).toEqual([
      { id: 'URL', name: 'website' },
      { id: 'DNS', name: 'DNS' },
      { id: 'PING', name: 'PING' },
    ]);
  });
});
