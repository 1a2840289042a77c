// Reading an OpenAPI document (the bundle or the mock document): its operations and its local $refs.

/** A node of the document, loosely typed: the scripts read what the description gives them. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by key without a schema of its own.
export type Json = Record<string, any>;

/**
 * A schema (JSON Schema 2020-12, as OpenAPI 3.1 uses it), typed by the keywords that walk it; every other keyword
 * stays `unknown` until read and checked. A value the document gives where a schema is expected is not trusted to be
 * one: each keyword is checked before use.
 */
export interface SchemaNode {
  $ref?: unknown;
  properties?: unknown;
  patternProperties?: unknown;
  items?: unknown;
  additionalProperties?: unknown;
  allOf?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  [keyword: string]: unknown;
}

/** A parameter of an operation whose name and place are checked; its other keys are read as a schema's are. */
export interface ParameterNode extends SchemaNode {
  name: string;
  in: string;
}

/** Whether a node is a parameter with a name and a place (`in`). */
export const isParameter = (node: unknown): node is ParameterNode =>
  isRecord(node) && typeof node.name === 'string' && typeof node.in === 'string';

/** A map of subschemas (`properties`, `patternProperties`) as entries; nothing when it is no object. */
export function schemaEntries(value: unknown): [string, SchemaNode][] {
  return isRecord(value) ? Object.entries(value).filter((entry): entry is [string, SchemaNode] => isRecord(entry[1])) : [];
}

/** A list of subschemas (`allOf`, `anyOf`, `oneOf`); nothing when it is no array. */
export function schemaList(value: unknown): SchemaNode[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of a document, with its path and method, in the document's order. */
export interface OperationEntry {
  path: string;
  method: string;
  operation: Json;
  /** The parameters of the operation, resolved: the path item's and its own (its own win on the same name and place). */
  parameters: Json[];
}

/** Every operation of the document, in its order, with its parameters merged once. */
export function operationsOf(document: Json): OperationEntry[] {
  return Object.entries<Json>(document.paths ?? {}).flatMap(([path, item]) =>
    httpMethods
      .filter((method) => item[method])
      .map((method) => ({ path, method, operation: item[method], parameters: parametersOf(document, item, item[method]) })),
  );
}

/** The parameters of an operation (OpenAPI 3.1, section 4.8.10): the path item's, overridden by the operation's own. */
export function parametersOf(document: Json, item: Json, operation: Json): Json[] {
  const merged = new Map<string, Json>();
  for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const parameter = deref(document, raw) ?? {};
    merged.set(`${parameter.in} ${parameter.name}`, parameter);
  }
  return [...merged.values()];
}

/** A JSON pointer token (RFC 6901): `~` as `~0`, `/` as `~1`. */
export const pointerToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Resolves a local $ref (#/components/...) of the document, once or repeatedly (to a node of the same kind). */
export function deref<Node extends SchemaNode | Json>(document: Json, node: Node | undefined): Node | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops++) {
    const pointer = String(current.$ref);
    if (!pointer.startsWith('#/')) return current;
    current = pointer
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json | undefined>((node, key) => (node ? node[key] : undefined), document) as Node | undefined;
  }
  return current;
}

/** Whether a value is a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
