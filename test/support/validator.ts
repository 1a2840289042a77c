// Validates payloads against the schemas of the bundled description with Ajv (JSON Schema 2020-12).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument, SchemaNode } from '../../src/description/openapi.js';

const base = 'https://contract.invalid/bundle';

function vendorKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node))
    node.forEach((item) => {
      vendorKeywords(item, found);
    });
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      vendorKeywords(value, found);
    }
  }
  return found;
}

export function schemaValidator(bundle: OpenApiDocument) {
  // allowUnionTypes: `type: [object, array]` (the data of an envelope) is a union of types, as JSON Schema allows.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  // Our x- keywords carry names, meanings and tables; to Ajv they are annotations.
  const schemas = bundle.components?.schemas ?? {};
  ajv.addVocabulary([...vendorKeywords(schemas), 'components']);
  ajv.addSchema({ $id: base, components: { schemas } });
  const cache = new Map<string, ValidateFunction>();

  /** Validates against a named component schema, or any schema (which may $ref the components). */
  return function validate(schema: string | SchemaNode, value: unknown): string[] {
    const key = typeof schema === 'string' ? schema : JSON.stringify(schema);
    let check = cache.get(key);
    if (!check) {
      const target = typeof schema === 'string' ? { $ref: `${base}#/components/schemas/${schema}` } : rebase(schema);
      check = ajv.compile(target);
      cache.set(key, check);
    }
    return check(value) ? [] : (check.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  };
}

/** Points the local refs of a schema taken out of the bundle at the bundle. */
function rebase(schema: SchemaNode): SchemaNode {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${base}#/components/`));
}
