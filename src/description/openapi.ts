// Reading an OpenAPI document (the bundle or the mock document): its operations and its local $refs.
//
// A narrow view of OpenAPI 3.1 (decision 0017): the objects of a document with the fields the walks read, typed as the
// specification gives them, so that strict mode and noUncheckedIndexedAccess check each step of a walk (a map's entry
// or a field the specification lets be absent may be undefined). Every object that may stand as a reference carries
// `$ref` (deref resolves it). A schema is a SchemaNode: JSON Schema lets any keyword hold any JSON, so its keywords
// stay unknown until checked.

/**
 * A node of the document, loosely typed: the tests' loadBundle, and the types release 2.0 published (an MCP tool's
 * inputSchema, a seed's monitors and groups), which the release gate keeps (decision 0017).
 */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by key without a schema of its own.
export type Json = Record<string, any>;

/** A JSON value, as JSON.parse gives it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The extensions of an object (`x-data-center`, `x-codeSamples`): unknown until read and checked. */
interface Extensible {
  [extension: `x-${string}`]: unknown;
}

/** An OpenAPI 3.1 document (section 4.8.1): the parts the walks read. */
export interface OpenApiDocument extends Extensible {
  openapi?: string;
  info?: Info;
  servers?: Server[];
  paths?: Record<string, PathItem>;
  components?: Components;
  security?: SecurityRequirement[];
  tags?: Tag[];
  externalDocs?: { url: string; description?: string };
}

export interface Info extends Extensible {
  title?: string;
  summary?: string;
  description?: string;
  version?: string;
}

export interface Server extends Extensible {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

export interface Tag extends Extensible {
  name: string;
  description?: string;
}

export interface Components extends Extensible {
  schemas?: Record<string, SchemaNode>;
  responses?: Record<string, Response>;
  parameters?: Record<string, Parameter>;
  examples?: Record<string, Example>;
  requestBodies?: Record<string, RequestBody>;
  headers?: Record<string, Header>;
  securitySchemes?: Record<string, SecurityScheme>;
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** A path item (section 4.8.9): its operations by method, and what they share. */
export interface PathItem extends Extensible, Partial<Record<HttpMethod, Operation>> {
  $ref?: string;
  summary?: string;
  description?: string;
  servers?: Server[];
  parameters?: Parameter[];
}

export interface Operation extends Extensible {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses?: Record<string, Response>;
  security?: SecurityRequirement[];
  servers?: Server[];
  deprecated?: boolean;
}

/** A parameter (section 4.8.12), or a reference to one: its name and place are only sure once resolved and checked. */
export interface Parameter extends Extensible {
  $ref?: string;
  name?: string;
  in?: string;
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema?: SchemaNode;
  example?: unknown;
  examples?: Record<string, Example>;
}

/** A parameter whose name and place are checked (isParameter). */
export interface ParameterNode extends Parameter {
  name: string;
  in: string;
}

/** Whether a parameter has a name and a place (`in`). */
export const isParameter = (parameter: Parameter): parameter is ParameterNode =>
  typeof parameter.name === 'string' && typeof parameter.in === 'string';

export interface RequestBody extends Extensible {
  $ref?: string;
  description?: string;
  required?: boolean;
  content?: Record<string, MediaType>;
}

export interface MediaType extends Extensible {
  schema?: SchemaNode;
  example?: unknown;
  examples?: Record<string, Example>;
}

export interface Response extends Extensible {
  $ref?: string;
  description?: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

export interface Header extends Extensible {
  $ref?: string;
  description?: string;
  required?: boolean;
  schema?: SchemaNode;
}

export interface Example extends Extensible {
  $ref?: string;
  summary?: string;
  description?: string;
  value?: unknown;
}

/** A security requirement (section 4.8.30): scheme name → scopes. */
export type SecurityRequirement = Record<string, string[]>;

export interface SecurityScheme extends Extensible {
  $ref?: string;
  type?: string;
  name?: string;
  in?: string;
  scheme?: string;
  description?: string;
}

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

/** A map of subschemas (`properties`, `patternProperties`) as entries; nothing when it is no object. */
export function schemaEntries(value: unknown): [string, SchemaNode][] {
  return isRecord(value) ? Object.entries(value).filter((entry): entry is [string, SchemaNode] => isRecord(entry[1])) : [];
}

/** A keyword's list (`enum`, `required`, `x-enum-varnames`); nothing when it is no array. */
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A list of subschemas (`allOf`, `anyOf`, `oneOf`); nothing when it is no array. */
export function schemaList(value: unknown): SchemaNode[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** Every operation of a document, with its path and method, in the document's order. */
export interface OperationEntry {
  path: string;
  method: HttpMethod;
  operation: Operation;
  /** The parameters of the operation, resolved: the path item's and its own (its own win on the same name and place). */
  parameters: Parameter[];
}

/** Every operation of the document, in its order, with its parameters merged once. */
export function operationsOf(document: OpenApiDocument): OperationEntry[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, operation, parameters: parametersOf(document, item, operation) }] : [];
    }),
  );
}

/** The operations of the document that have an operationId, by it (of two with the same id, the later). */
export function operationsById(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const { operation } of operationsOf(document))
    if (typeof operation.operationId === 'string') operations.set(operation.operationId, operation);
  return operations;
}

/** The parameters of an operation (OpenAPI 3.1, section 4.8.10): the path item's, overridden by the operation's own. */
export function parametersOf(document: OpenApiDocument, item: PathItem, operation: Operation): Parameter[] {
  const merged = new Map<string, Parameter>();
  for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const parameter = deref(document, raw) ?? {};
    merged.set(`${parameter.in} ${parameter.name}`, parameter);
  }
  return [...merged.values()];
}

/** A JSON pointer token (RFC 6901): `~` as `~0`, `/` as `~1`. */
export const pointerToken = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Resolves a local $ref (#/components/...) of the document, once or repeatedly. What a reference points at is taken
 * to be a node of the kind it stands for (a parameter's reference, a parameter): the one trust of the walk.
 */
export function deref<Node extends { $ref?: unknown }>(document: OpenApiDocument, node: Node | undefined): Node | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops++) {
    const pointer = current.$ref;
    if (!pointer.startsWith('#/')) return current;
    current = pointer
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>(
        (parent, key) => (isRecord(parent) || Array.isArray(parent) ? (parent as Record<string, unknown>)[key] : undefined),
        document,
      ) as Node | undefined;
  }
  return current;
}

/**
 * A function of a document made once per document object: what the mock derives from its description (routes,
 * answers, scopes) is the same for every simulator of it, and a loaded description is never changed.
 */
export function perDocument<T>(make: (document: OpenApiDocument) => T): (document: OpenApiDocument) => T {
  const made = new WeakMap<OpenApiDocument, T>();
  return (document) => {
    if (!made.has(document)) made.set(document, make(document));
    return made.get(document) as T;
  };
}

/** Whether a value is a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
