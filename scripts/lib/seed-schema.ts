// The JSON Schema of the mock's seed (`--seed FILE`, `seed`, `PUT /__mock/state`, what `record` writes), for editors
// and other tools: `monitoring-service-api/seed.schema.json`. Made from the bundle, so that the schemas of what a
// seed holds (ManagedAccount, DeviceKey, Monitor, MonitorGroupCreate, ServiceRole) are the description's own, with
// the kinds of account and the keys a state adds as the seed reader names them (src/simulator/seed.ts), and the seed's
// keys as the seed reader (src/simulator/seed.ts) takes them; a unit test checks that the reader and this
// schema accept and refuse the same seeds. What a schema cannot say (no zaaid or monitor_id twice) the reader
// checks, and the descriptions say.
import type { OpenApiDocument, SchemaNode } from '../../src/description/openapi.js';
import { accountTypes, stateKeys } from '../../src/simulator/seed.js';

const componentRef = '#/components/schemas/';

/** A component schema of the description; one the seed schema needs and the description lacks stops the build. */
function componentSchema(bundle: OpenApiDocument, name: string): SchemaNode {
  const schema = bundle.components?.schemas?.[name];
  if (!schema) throw new Error(`seed.schema.json: the description has no schema ${name} (#/components/schemas/${name}).`);
  return schema;
}

/** The names of the component schemas a schema refers to, itself and transitively. */
function referenced(bundle: OpenApiDocument, names: string[]): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(componentRef)) add(value.slice(componentRef.length));
        else visit(value);
      }
  };
  const add = (name: string) => {
    if (found.has(name)) return;
    found.add(name);
    visit(componentSchema(bundle, name));
  };
  names.forEach(add);
  return [...found].sort();
}

/** A copy of a schema with its references pointing into the seed schema's `$defs`. */
function rewritten(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewritten);
  if (node !== null && typeof node === 'object')
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith(componentRef)
          ? `#/$defs/${value.slice(componentRef.length)}`
          : rewritten(value),
      ]),
    );
  return node;
}

const ref = (pointer: string) => ({ $ref: `#/$defs/${pointer}` });

const accountProperties = {
  device_key: {
    ...ref('DeviceKey/properties/device_key'),
    description:
      "The account's device key. Default: the description's example for the own account, one derived from the zaaid for another.",
  },
  monitors: {
    type: 'array',
    description: "The account's monitors, as the API answers them: `monitor_id` and any other attribute. No monitor_id twice.",
    items: ref('Monitor'),
  },
  groups: {
    type: 'array',
    description: "The account's monitor groups, as they were created (`POST /monitor_groups`).",
    items: ref('MonitorGroupCreate'),
  },
};

const managedAccount = (what: string) => ({
  type: 'object',
  description: `A ${what}: its name and zaaid (no zaaid twice among customers and business units), and its data.`,
  additionalProperties: false,
  required: ['name', 'zaaid'],
  properties: {
    name: ref('ManagedAccount/properties/name'),
    zaaid: ref('ManagedAccount/properties/zaaid'),
    ...accountProperties,
  },
});

/** The seed's JSON Schema (draft 2020-12) from a bundled description. */
export function seedSchema(bundle: OpenApiDocument): SchemaNode {
  const defs = Object.fromEntries(
    referenced(bundle, ['DeviceKey', 'ManagedAccount', 'Monitor', 'MonitorGroupCreate', 'ServiceRole']).map((name) => [
      name,
      rewritten(componentSchema(bundle, name)),
    ]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Seed of the monitoring-service-api mock',
    description:
      "The simulator's accounts, with their monitors and groups: `--seed FILE`, the `seed` option, `PUT /__mock/state`, and what `monitoring-service-api record` writes. Each part given replaces the default's (the description's examples). " +
      `Made from the description ${bundle.info?.title} ${bundle.info?.version}.`,
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'The address of this schema, for editors.' },
      account: {
        type: 'object',
        description: 'The own account: an MSP account with customers and a BU portal account with business units at once.',
        additionalProperties: false,
        properties: {
          type: {
            enum: [...accountTypes],
            description:
              "The kind of the own account (core document, section 1): `normal`, `msp` (with customers), `bu_portal` (with business units), or `msp_and_bu_portal` (the default, the mock's own choice). The managed accounts a kind does not have are left out.",
          },
          role: {
            ...ref('ServiceRole'),
            description: "The role of the account's user (a role ID of the constants document). Default 1, Super Administrator.",
          },
          ...accountProperties,
        },
      },
      customers: { type: 'array', description: "The MSP account's customer accounts.", items: managedAccount('customer account') },
      business_units: {
        type: 'array',
        description: "The BU portal account's business-unit accounts.",
        items: managedAccount('business-unit account'),
      },
      ...Object.fromEntries(
        stateKeys.map((key) => [
          key,
          { description: 'A part of a state snapshot (`GET /__mock/state`) that a seed does not set: left aside.' },
        ]),
      ),
    },
    $defs: defs,
  };
}
