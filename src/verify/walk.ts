// What verify reads in an answer besides what Prism's validator checks: the attributes that the schema of the
// answer does not describe (allowed within a version, core document section 9, and worth documenting), and every
// string that is a timestamp but not in the service's form (section 2.2: all timestamps are
// `yyyy-MM-dd'T'HH:mm:ssZZZZ`, whatever attribute carries them, described or not).
import { deref, isRecord, type OpenApiDocument, pointerToken, type SchemaNode, schemaEntries, schemaList } from '../description/openapi.js';

/** An attribute of an answer that its schema does not describe. */
export interface UndescribedAttribute {
  /** JSON pointer of its first occurrence in the body, e.g. `/data/0/status`. */
  pointer: string;
  /** The JSON types it had (`string`, `number`, `boolean`, `null`, `object`, `array`). */
  types: string[];
  /** How many times it occurred (once per item of an array). */
  count: number;
}

/** A string that is a timestamp, but not in the service's form. */
export interface MisformedTimestamp {
  pointer: string;
  value: string;
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : typeof value;
}

/** What a set of schemas that apply at one place of a body declares: properties, items, patterns. */
interface Declared {
  properties: Map<string, SchemaNode[]>;
  patterns: { pattern: RegExp; schema: SchemaNode }[];
  items: SchemaNode[];
  /** `additionalProperties` given as a schema (a map of values): it describes every other key. */
  additional: SchemaNode[];
}

/** The schemas a schema stands for: itself with its $ref resolved, and its allOf, anyOf, oneOf members. */
function expand(document: OpenApiDocument, schema: SchemaNode | undefined, into: SchemaNode[] = [], depth = 0): SchemaNode[] {
  if (depth > 32 || schema === undefined) return into;
  const resolved = deref(document, schema);
  if (!resolved || into.includes(resolved)) return into;
  into.push(resolved);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const member of schemaList(resolved[keyword])) expand(document, member, into, depth + 1);
  }
  // A $ref next to other keywords (OpenAPI 3.1): both apply.
  if (resolved !== schema && typeof schema.$ref === 'string' && Object.keys(schema).length > 1) {
    const { $ref: _ref, ...rest } = schema;
    expand(document, rest, into, depth + 1);
  }
  return into;
}

function declared(document: OpenApiDocument, schemas: SchemaNode[]): Declared {
  const result: Declared = { properties: new Map(), patterns: [], items: [], additional: [] };
  for (const schema of schemas.flatMap((entry) => expand(document, entry))) {
    for (const [name, property] of schemaEntries(schema.properties)) {
      result.properties.set(name, [...(result.properties.get(name) ?? []), property]);
    }
    for (const [pattern, property] of schemaEntries(schema.patternProperties)) {
      try {
        result.patterns.push({ pattern: new RegExp(pattern, 'u'), schema: property });
      } catch {
        // a pattern this runtime cannot read declares nothing here
      }
    }
    // A boolean schema (`items: true`, `additionalProperties: true`) admits values without describing them.
    if (isRecord(schema.items)) result.items.push(schema.items);
    if (isRecord(schema.additionalProperties)) result.additional.push(schema.additionalProperties);
  }
  return result;
}

/**
 * The attributes of `body` that `schema` does not describe: object keys that no schema applying at their place
 * declares (properties, patternProperties, or additionalProperties given as a schema; allOf, anyOf and oneOf members
 * all count; `additionalProperties: true` admits a key without describing it). An undescribed attribute is reported
 * once, at its first occurrence, and not looked into.
 */
export function undescribedAttributes(document: OpenApiDocument, schema: SchemaNode | undefined, body: unknown): UndescribedAttribute[] {
  const found = new Map<string, UndescribedAttribute>();
  const visit = (value: unknown, schemas: SchemaNode[], pointer: string, shape: string) => {
    if (value === null || typeof value !== 'object') return;
    const here = declared(document, schemas);
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, here.items, `${pointer}/${index}`, `${shape}/*`);
      });
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      const token = pointerToken(key);
      const properties = here.properties.get(key);
      const patterned = here.patterns.filter((entry) => entry.pattern.test(key)).map((entry) => entry.schema);
      if (!properties && patterned.length === 0 && here.additional.length === 0) {
        const entry = found.get(`${shape}/${token}`);
        if (entry) {
          entry.count += 1;
          if (!entry.types.includes(jsonType(child))) entry.types.push(jsonType(child));
        } else {
          found.set(`${shape}/${token}`, { pointer: `${pointer}/${token}`, types: [jsonType(child)], count: 1 });
        }
        continue;
      }
      visit(
        child,
        properties || patterned.length > 0 ? [...(properties ?? []), ...patterned] : here.additional,
        `${pointer}/${token}`,
        `${shape}/${token}`,
      );
    }
  };
  visit(body, schema ? [schema] : [], '', '');
  return [...found.values()];
}

/** The service's form: `2026-11-21T10:00:00+0530`. */
export const serviceTimestamp = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d[+-]\d{4}$/;
/** A string that is a date and a time of day, in any ISO 8601-like form (RFC 3339 included). */
const looksLikeTimestamp = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

/** Every string of `body` that is a timestamp not in the service's form, wherever it is. */
export function misformedTimestamps(body: unknown): MisformedTimestamp[] {
  const found: MisformedTimestamp[] = [];
  const visit = (value: unknown, pointer: string) => {
    if (typeof value === 'string') {
      if (looksLikeTimestamp.test(value) && !serviceTimestamp.test(value)) found.push({ pointer, value });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, `${pointer}/${index}`);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) visit(child, `${pointer}/${pointerToken(key)}`);
    }
  };
  visit(body, '');
  return found;
}
