// The description's examples as request values: a parameter's or a body's example, a body as its media type
// sends it, and a request target with its path and query filled in.
import { deref, isRecord, type OpenApiDocument } from './openapi.js';

/** What may hold an example: a parameter, a media type or a schema (its `examples` list, `example` or `default`). */
export interface ExampleHolder {
  $ref?: unknown;
  example?: unknown;
  examples?: unknown;
  schema?: unknown;
  default?: unknown;
}

/** The example of a parameter, media type or schema: its `example`, its first named example, or its schema's. */
export function exampleOf(document: OpenApiDocument, node: ExampleHolder | undefined): unknown {
  const item = deref(document, node);
  if (!item) return undefined;
  if (item.example !== undefined) return item.example;
  if (isRecord(item.examples)) {
    const first = Object.values(item.examples)[0];
    return isRecord(first) ? deref(document, first)?.value : undefined;
  }
  const schema: ExampleHolder = (isRecord(item.schema) ? deref(document, item.schema) : undefined) ?? item;
  if (Array.isArray(schema.examples) && schema.examples[0] !== undefined) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  return undefined;
}

/** Serializes a body as the media type says: JSON, or form fields (of an object; anything else has none). */
export function serializeBody(mediaType: string, value: unknown): string {
  if (mediaType.split(';')[0]!.trim() === 'application/x-www-form-urlencoded') {
    const fields = isRecord(value) ? Object.entries(value) : [];
    return new URLSearchParams(fields.map(([key, field]) => [key, String(field)])).toString();
  }
  return JSON.stringify(value);
}

/**
 * The request target of an operation (relative to its server): each path parameter filled with its value,
 * percent-encoded (`1` when there is none), and each required query parameter that has a value.
 */
export function requestTarget<Parameter extends { name?: unknown; in?: unknown; required?: unknown }>(
  template: string,
  parameters: Parameter[],
  valueFor: (parameter: Parameter) => unknown,
): string {
  let path = template;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (typeof parameter.name !== 'string') continue;
    if (parameter.in !== 'path' && !(parameter.in === 'query' && parameter.required === true)) continue;
    const value = valueFor(parameter);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value ?? '1')));
    else if (value !== undefined) query.set(parameter.name, String(value));
  }
  return query.size > 0 ? `${path}?${query}` : path;
}
