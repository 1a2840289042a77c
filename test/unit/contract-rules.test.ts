// The rules of the structural diff of every named schema, each on a tiny document: what breaks a release and what
// does not, with the rule and the JSON pointer of each change.
import { describe, expect, it } from 'vitest';
import { componentChanges, sentSchemas } from '../../scripts/lib/contract-rules.js';

type Schemas = Record<string, unknown>;

/** A tiny description: the named schemas, and a POST whose body is `sent` (when given). */
const doc = (schemas: Schemas, sent?: string) => ({
  openapi: '3.1.0',
  paths: sent
    ? { '/things': { post: { requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${sent}` } } } } } } }
    : {},
  components: { schemas },
});

const found = (before: Schemas, after: Schemas, sent?: string) =>
  componentChanges(doc(before, sent), doc(after, sent)).map((change) => `${change.ruleId} ${change.pointer}`);

const slaType = { title: 'SLA type', type: 'integer', enum: [1, 2], 'x-enum-varnames': ['Availability', 'Performance'] };
const dnsSearchConfig = {
  title: 'DNS search config',
  type: 'object',
  properties: { lookup_type: { type: 'string' }, value: { type: 'string' } },
};

describe('schema-removed', () => {
  it('refuses a named schema removed, used by an operation or not (a constants schema)', () => {
    expect(found({ SlaType: slaType, Other: { type: 'string' } }, { Other: { type: 'string' } })).toEqual([
      'schema-removed #/components/schemas/SlaType',
    ]);
  });

  it('passes a schema added', () => {
    expect(found({ Other: { type: 'string' } }, { Other: { type: 'string' }, SlaType: slaType })).toEqual([]);
  });
});

describe('property-removed', () => {
  it('refuses a field of a table of the constants document removed', () => {
    const after = { ...dnsSearchConfig, properties: { lookup_type: { type: 'string' } } };
    expect(found({ DnsSearchConfig: dnsSearchConfig }, { DnsSearchConfig: after })).toEqual([
      'property-removed #/components/schemas/DnsSearchConfig/properties/value',
    ]);
  });

  it('finds it nested, in items and allOf members', () => {
    const nested = (properties: Schemas) => ({ type: 'array', items: { allOf: [{ type: 'object', properties }] } });
    expect(found({ List: nested({ a: { type: 'string' }, b: { type: 'string' } }) }, { List: nested({ a: { type: 'string' } }) })).toEqual([
      'property-removed #/components/schemas/List/items/allOf/0/properties/b',
    ]);
  });

  it('passes an optional property added', () => {
    const after = { ...dnsSearchConfig, properties: { ...dnsSearchConfig.properties, ttl: { type: 'integer' } } };
    expect(found({ DnsSearchConfig: dnsSearchConfig }, { DnsSearchConfig: after })).toEqual([]);
  });
});

describe('type-narrowed', () => {
  it('refuses the type of a property changed in a schema no operation references', () => {
    const before = { type: 'object', properties: { id: { type: 'string' } } };
    const after = { type: 'object', properties: { id: { type: 'integer' } } };
    expect(found({ Unused: before }, { Unused: after })).toEqual(['type-narrowed #/components/schemas/Unused/properties/id/type']);
  });

  it('refuses a type list narrowed, and number narrowed to integer; passes widening', () => {
    expect(found({ A: { type: ['string', 'integer'] } }, { A: { type: 'string' } })).toEqual(['type-narrowed #/components/schemas/A/type']);
    expect(found({ A: { type: 'number' } }, { A: { type: 'integer' } })).toEqual(['type-narrowed #/components/schemas/A/type']);
    expect(found({ A: { type: 'integer' } }, { A: { type: 'number' } })).toEqual([]);
    expect(found({ A: { type: 'string' } }, { A: { type: ['string', 'null'] } })).toEqual([]);
  });
});

describe('required-added', () => {
  const group = (required: string[]) => ({
    type: 'object',
    required,
    properties: { display_name: { type: 'string' }, description: { type: 'string' } },
  });

  it('refuses a property made required in something a client sends', () => {
    expect(found({ Group: group(['display_name']) }, { Group: group(['display_name', 'description']) }, 'Group')).toEqual([
      'required-added #/components/schemas/Group/required',
    ]);
  });

  it('passes it in a schema only answers carry', () => {
    expect(found({ Group: group(['display_name']) }, { Group: group(['display_name', 'description']) })).toEqual([]);
  });

  it('knows what a client sends: request bodies and parameters, through references', () => {
    const document = {
      paths: {
        '/a': {
          parameters: [{ name: 'p', in: 'query', schema: { $ref: '#/components/schemas/P' } }],
          post: doc({}, 'Body').paths['/things']!.post,
        },
      },
      components: {
        schemas: { Body: { type: 'object', properties: { inner: { $ref: '#/components/schemas/Inner' } } }, Inner: {}, P: {}, Answer: {} },
      },
    };
    expect([...sentSchemas(document)].sort()).toEqual(['Body', 'Inner', 'P']);
  });
});

describe('the rules together', () => {
  it('an added enum value in an open set passes; nothing changed is no change', () => {
    expect(found({ SlaType: slaType }, { SlaType: { ...slaType, enum: [1, 2, 3] } })).toEqual([]);
    expect(found({ SlaType: slaType, DnsSearchConfig: dnsSearchConfig }, { SlaType: slaType, DnsSearchConfig: dnsSearchConfig })).toEqual(
      [],
    );
  });

  it('each change says what broke, in words', () => {
    const [change] = componentChanges(doc({ SlaType: slaType }), doc({}));
    expect(change).toMatchObject({
      ruleId: 'schema-removed',
      impact: 'major',
      message: expect.stringMatching(/^Schema SlaType was removed/),
    });
  });
});
