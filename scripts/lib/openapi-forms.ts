// The description in the forms other tools read, made from the 3.1 bundle: OpenAPI 3.0.3 (for tools that import 3.0
// only) and a dereferenced 3.1 document (for tools with poor support for references).
//
// 3.0 is made by @apiture/openapi-down-convert (`const` to a one-value `enum`, `[X, 'null']` to `nullable`, schema
// `examples` to `example`, unsupported keywords dropped), then by one step of ours for what it leaves: a type list
// of several types (`[object, array]`), which 3.0 writes as `anyOf` of one type each. What 3.0 cannot say, and
// what the 3.0 form names apart for the tools that read it, is listed in `down30Losses` (docs/11-the-contract-in-other-tools.md shows the list).
import { Converter } from '@apiture/openapi-down-convert';
import type { OpenApiDocument } from '../../src/description/openapi.js';

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** What the 3.0 document loses against the 3.1 bundle, in words (docs/11-the-contract-in-other-tools.md). */
export const down30Losses = [
  '`const` becomes a one-value `enum` (the same values, another keyword).',
  'A type list such as `[object, array]` becomes `anyOf` of one type each; `[X, "null"]` becomes `nullable: true`.',
  'Schema `examples` (a list) becomes `example` (its first item).',
  '`info.summary`, `jsonSchemaDialect`, `$comment` and `contentMediaType`/`contentEncoding` are dropped (3.0 has no place for them).',
  'A `$ref` with sibling keywords (a description next to it) becomes `allOf: [{ $ref }]` beside them (3.0 ignores siblings of `$ref`).',
  'A reusable parameter named like a schema (`MonitorId`) is named with `Parameter` after it (`MonitorIdParameter`): generators that make one type of each schema and each parameter (openapi-typescript-codegen) would declare the name twice.',
] as const;

/** Every schema of a document, wherever it is (components, parameters, bodies, nested), visited once. */
function visitSchemas(node: unknown, visit: (schema: Node) => void, inSchema = false): void {
  if (Array.isArray(node)) {
    for (const item of node) visitSchemas(item, visit, inSchema);
    return;
  }
  if (!isNode(node)) return;
  if (inSchema) visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const' || key === 'default') continue;
    const schemaValued = key === 'schema' || key === 'items' || key === 'not' || key === 'additionalProperties';
    const schemaLists = key === 'allOf' || key === 'anyOf' || key === 'oneOf';
    const schemaMaps = key === 'properties' || (key === 'schemas' && !inSchema);
    if (schemaValued || schemaLists) visitSchemas(value, visit, true);
    else if (schemaMaps && isNode(value)) for (const schema of Object.values(value)) visitSchemas(schema, visit, true);
    else visitSchemas(value, visit, false);
  }
}

/** `type: [object, array]` (no null) as 3.0 says it: `anyOf` of one type each, the array's `items` on its branch. */
function splitTypeLists(document: Node): void {
  visitSchemas(document, (schema) => {
    if (!Array.isArray(schema.type)) return;
    const types = schema.type.filter((type) => type !== 'null');
    if (types.length < 2) return;
    const nullable = schema.type.includes('null');
    delete schema.type;
    const branches = types.map((type) => {
      const branch: Node = { type };
      if (type === 'array' && schema.items !== undefined) branch.items = schema.items;
      if (type === 'object' && schema.additionalProperties !== undefined) branch.additionalProperties = schema.additionalProperties;
      return branch;
    });
    delete schema.items;
    delete schema.additionalProperties;
    schema.anyOf = branches;
    if (nullable) schema.nullable = true;
  });
}

/** A boolean schema (3.1) as 3.0 writes it: `true` is `{}`, `false` is `{ not: {} }` (additionalProperties keeps its boolean). */
function replaceBooleanSchemas(document: Node): void {
  const replace = (value: unknown) => (value === true ? {} : value === false ? { not: {} } : value);
  visitSchemas(document, (schema) => {
    if (isNode(schema.properties)) for (const [name, value] of Object.entries(schema.properties)) schema.properties[name] = replace(value);
    for (const keyword of ['items', 'not']) if (typeof schema[keyword] === 'boolean') schema[keyword] = replace(schema[keyword]);
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(schema[keyword])) schema[keyword] = schema[keyword].map(replace);
  });
}

/** A schema reference with siblings (`{ $ref, description }`): 3.0 ignores them, so the reference moves into `allOf`. */
function wrapReferencesWithSiblings(document: Node): void {
  visitSchemas(document, (schema) => {
    if (typeof schema.$ref !== 'string' || Object.keys(schema).length === 1) return;
    const reference = schema.$ref;
    delete schema.$ref;
    schema.allOf = [{ $ref: reference }, ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
  });
}

/**
 * A reusable parameter named like a schema gets `Parameter` after its name, its references with it: generators of 3.0
 * clients that make a type of each schema and of each reusable parameter (openapi-typescript-codegen) would otherwise
 * declare `MonitorId` twice, the parameter's as an alias of itself.
 */
function renameParametersNamedLikeSchemas(document: Node): void {
  const components = isNode(document.components) ? document.components : {};
  const parameters = isNode(components.parameters) ? components.parameters : {};
  const schemas = isNode(components.schemas) ? components.schemas : {};
  const renamed = new Map<string, string>();
  for (const name of Object.keys(parameters)) {
    if (!(name in schemas)) continue;
    let target = `${name}Parameter`;
    while (target in parameters || target in schemas) target += '_';
    renamed.set(`#/components/parameters/${name}`, `#/components/parameters/${target}`);
  }
  if (renamed.size === 0) return;
  components.parameters = Object.fromEntries(
    Object.entries(parameters).map(([name, parameter]) => [
      renamed.get(`#/components/parameters/${name}`)?.split('/').at(-1) ?? name,
      parameter,
    ]),
  );
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (isNode(node)) {
      if (typeof node.$ref === 'string' && renamed.has(node.$ref)) node.$ref = renamed.get(node.$ref);
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(document.paths);
}

/** The bundle as OpenAPI 3.0.3. */
export function toOpenApi30(bundle: object): Node {
  const converted = new Converter(structuredClone(bundle), { allOfTransform: false }).convert() as Node;
  splitTypeLists(converted);
  replaceBooleanSchemas(converted);
  wrapReferencesWithSiblings(converted);
  renameParametersNamedLikeSchemas(converted);
  converted.openapi = '3.0.3';
  delete converted.jsonSchemaDialect;
  if (isNode(converted.info)) delete converted.info.summary;
  return converted;
}

/** The bundle with every local reference replaced by what it points to (the description has no cycle). */
export function dereferenced(bundle: OpenApiDocument): OpenApiDocument {
  const document = structuredClone(bundle) as Node;
  const resolve = (pointer: string): unknown => {
    let node: unknown = document;
    for (const token of pointer.slice(2).split('/')) {
      node = isNode(node) ? node[token.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    }
    return node;
  };
  const inline = (node: unknown, depth: number): unknown => {
    if (depth > 64) throw new Error('The description has a reference cycle: it cannot be dereferenced.');
    if (Array.isArray(node)) return node.map((item) => inline(item, depth));
    if (!isNode(node)) return node;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      const { $ref, ...siblings } = node;
      const target = inline(resolve($ref), depth + 1);
      return Object.keys(siblings).length > 0 && isNode(target) ? { ...target, ...(inline(siblings, depth) as Node) } : target;
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, depth)]));
  };
  return inline(document, 0) as OpenApiDocument;
}
