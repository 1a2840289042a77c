// The rules of the structural diff of every named schema, each on a tiny document: where a schema travels, which sets
// are open, and the rule and JSON pointer of each change. The verdict of each rule in each direction is the corpus of
// test/unit/gate-corpus.test.ts.
import { describe, expect, it } from 'vitest';
import { componentChanges, openSchemas, schemaDirections } from '../../scripts/lib/contract-rules.js';

type Schemas = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A tiny description: the named schemas, and a POST whose body is `sent` (when given). */
const doc = (schemas: Schemas, sent?: string) => ({
  openapi: '3.1.0',
  paths: sent ? { '/things': { post: { requestBody: json(ref(sent)) } } } : {},
  components: { schemas },
});

/** The breaking changes, as `rule pointer`. */
const found = (before: Schemas, after: Schemas, sent?: string) =>
  componentChanges(doc(before, sent), doc(after, sent))
    .filter((change) => change.impact === 'major')
    .map((change) => `${change.ruleId} ${change.pointer}`);

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

describe('type-narrowed and type-widened', () => {
  it('refuses the type of a property changed in a schema no operation references', () => {
    const before = { type: 'object', properties: { id: { type: 'string' } } };
    const after = { type: 'object', properties: { id: { type: 'integer' } } };
    expect(found({ Unused: before }, { Unused: after })).toEqual(['type-narrowed #/components/schemas/Unused/properties/id/type']);
  });

  it('refuses a type list narrowed, and number narrowed to integer; passes widening only in what a client sends', () => {
    expect(found({ A: { type: ['string', 'integer'] } }, { A: { type: 'string' } })).toEqual(['type-narrowed #/components/schemas/A/type']);
    expect(found({ A: { type: 'number' } }, { A: { type: 'integer' } })).toEqual(['type-narrowed #/components/schemas/A/type']);
    expect(found({ A: { type: 'integer' } }, { A: { type: 'number' } }, 'A')).toEqual([]);
    expect(found({ A: { type: 'string' } }, { A: { type: ['string', 'null'] } }, 'A')).toEqual([]);
    // A schema no operation uses travels both ways: widening breaks its readers.
    expect(found({ A: { type: 'string' } }, { A: { type: ['string', 'null'] } })).toEqual(['type-widened #/components/schemas/A/type']);
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
    const answered = (schemas: Schemas) => ({
      paths: { '/a': { get: { responses: { '200': json(ref('Group')) } } } },
      components: { schemas },
    });
    const changes = componentChanges(
      answered({ Group: group(['display_name']) }),
      answered({ Group: group(['display_name', 'description']) }),
    );
    expect(changes.map((change) => `${change.impact} ${change.ruleId} ${change.direction}`)).toEqual(['minor required-added answer']);
  });
});

describe('where schemas travel, and which sets are open', () => {
  const document = {
    paths: {
      '/a': {
        parameters: [{ name: 'p', in: 'query', schema: ref('P') }],
        post: { requestBody: json(ref('Body')), responses: { '200': { $ref: '#/components/responses/Ok' } } },
      },
    },
    components: {
      responses: { Ok: json(ref('Answer')) },
      schemas: {
        Body: { type: 'object', properties: { inner: ref('Inner'), kind: ref('Kind') } },
        Answer: { type: 'object', properties: { inner: ref('Inner'), type: ref('Type') } },
        Inner: {},
        P: {},
        Unused: {},
        KnownType: { type: 'string', enum: ['a'] },
        Type: { anyOf: [ref('KnownType'), { type: 'string', description: 'Any other.' }] },
        KnownKind: { type: 'string', enum: ['a'] },
        Kind: { anyOf: [ref('KnownKind'), { type: 'string', pattern: '^x' }] },
      },
    },
  };

  it('follows references from parameters, request bodies and responses (shared ones too)', () => {
    expect(Object.fromEntries(schemaDirections(document))).toMatchObject({
      Body: 'request',
      P: 'request',
      Answer: 'answer',
      Inner: 'both',
      Unused: 'both',
      KnownType: 'answer',
    });
  });

  it('finds the open sets: an enumeration referenced only beside a member that admits any value', () => {
    // KnownKind's sibling has a pattern: it does not admit any string, so that set is closed.
    expect([...openSchemas(document)]).toEqual(['KnownType']);
  });
});

describe('the rules together', () => {
  it('a value added to a closed constant is refused, to an open set passes; nothing changed is no change', () => {
    expect(found({ SlaType: slaType }, { SlaType: { ...slaType, enum: [1, 2, 3] } })).toEqual([
      'enum-value-added #/components/schemas/SlaType/enum',
    ]);
    const open = (values: number[]) => ({ KnownSla: { ...slaType, enum: values }, Sla: { anyOf: [ref('KnownSla'), { type: 'integer' }] } });
    expect(found(open([1, 2]), open([1, 2, 3]))).toEqual([]);
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
