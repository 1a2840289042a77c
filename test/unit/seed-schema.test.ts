// The seed's JSON Schema (monitoring-service-api/seed.schema.json) and the seed reader agree: every seed one takes,
// the other takes; every seed one refuses, the other refuses. The reader is the one that runs; the schema is for
// editors and other tools, made from the description by scripts/lib/seed-schema.ts (generated.test.ts keeps it fresh).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { outputs } from '../../scripts/lib/paths.js';
import { seedSchema } from '../../scripts/lib/seed-schema.js';
import { checkSeed, defaultSeed } from '../../src/simulator/seed.js';
import { loadBundle } from '../support/bundle.js';
import { allGuideBlocks, where } from '../support/guide-blocks.js';

const bundle = loadBundle();
const schema = JSON.parse(readFileSync(outputs().seedSchema, 'utf8'));
const ajv = new Ajv2020({ strict: true, allErrors: true });
// The description's x- keywords (names, meanings, tables) are annotations to Ajv.
ajv.addVocabulary([
  ...new Set(
    JSON.stringify(schema)
      .match(/"x-[a-z-]+"(?=:)/g)
      ?.map((key) => key.slice(1, -1)),
  ),
]);
const validate = ajv.compile(schema);

const readerTakes = (seed: unknown): boolean => {
  try {
    checkSeed(bundle, seed, 'seed.json');
    return true;
  } catch {
    return false;
  }
};

const guideSeeds = Object.fromEntries(
  allGuideBlocks()
    .filter((block) => block.check === 'seed')
    .map((block) => [`the seed of ${where(block)}`, JSON.parse(block.source) as unknown]),
);

const taken = {
  ...guideSeeds,
  'the default seed': defaultSeed(bundle),
  'an empty seed': {},
  'a normal account of a Read Only user, and what a state snapshot adds': {
    account: { type: 'normal', role: 10, monitors: [] },
    now: '2026-11-21T10:00:00+0000',
    tokens: { clients: 0 },
    faults: [],
  },
  'an editor link and business units': {
    $schema: './node_modules/monitoring-service-api/generated/seed.schema.json',
    business_units: [{ name: 'Europe', zaaid: '8', device_key: 'eu_1', groups: [{ display_name: 'EU', description: 'all' }] }],
  },
};

const refused = {
  'not an object': [],
  'an unknown key': { accounts: {} },
  'an unknown key of the account': { account: { monitor: [] } },
  'an unknown key of a customer': { customers: [{ name: 'A', zaaid: '1', kind: 'x' }] },
  'customers not a list': { customers: { name: 'A' } },
  'a customer without a zaaid': { customers: [{ name: 'A' }] },
  'a business unit without a name': { business_units: [{ zaaid: '1' }] },
  'a monitor_id that is not digits': { account: { monitors: [{ monitor_id: 'm1' }] } },
  'a monitor without an id': { account: { monitors: [{ display_name: 'x' }] } },
  'a device key that is a number': { account: { device_key: 7 } },
  'an unknown kind of account': { account: { type: 'reseller' } },
  'a role that is not one of the constants document': { account: { role: 'admin' } },
  'a group without a name': { account: { groups: [{ description: 'd' }] } },
  'a group with an empty name': { account: { groups: [{ display_name: '' }] } },
  'monitors not a list': { account: { monitors: 'none' } },
};

describe('the seed schema and the seed reader', () => {
  it.each(Object.entries(taken))('both take %s', (_name, seed) => {
    expect(readerTakes(seed)).toBe(true);
    expect(validate(seed), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(Object.entries(refused))('both refuse %s', (_name, seed) => {
    expect(readerTakes(seed)).toBe(false);
    expect(validate(seed)).toBe(false);
  });

  it('the reader alone refuses an id given twice, which its descriptions say (a schema cannot)', () => {
    const twice = { account: { monitors: [{ monitor_id: '1' }, { monitor_id: '1' }] } };
    expect(readerTakes(twice)).toBe(false);
    expect(validate(twice)).toBe(true);
    expect(schema.properties.account.properties.monitors.description).toContain('No monitor_id twice');
  });

  it("takes its item schemas from the description's", () => {
    expect(schema.$defs.MonitorId).toEqual(bundle.components.schemas.MonitorId);
    expect(schema.$defs.ServiceRole).toEqual(bundle.components.schemas.ServiceRole);
    expect(Object.keys(schema.$defs)).toEqual(expect.arrayContaining(['DeviceKey', 'ManagedAccount', 'Monitor', 'MonitorGroupCreate']));
  });

  it('stops the build when the description lacks a schema the seed refers to, instead of leaving a $ref to nothing', () => {
    const { MonitorGroupCreate: _left, ...schemas } = bundle.components.schemas;
    expect(() => seedSchema({ ...bundle, components: { ...bundle.components, schemas } })).toThrow(
      'seed.schema.json: the description has no schema MonitorGroupCreate (#/components/schemas/MonitorGroupCreate).',
    );
  });
});
