// Checking a value against the description's schemas, for a seed: the keywords its schemas use (annotations are
// skipped), each fault at its JSON pointer. The seed's depth is bounded before (src/http/json-depth.ts): this walk
// recurses.
import { deref, isRecord, listOf, type OpenApiDocument, pointerToken, type SchemaNode } from '../description/openapi.js';
import type { SeedFault } from './types.js';

export const jsonType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
function typeMatches(type: string, value: unknown): boolean {
  const actual = jsonType(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

/** The faults of a value against a schema of the document (a schema object, a boolean, or nothing), each at its JSON pointer. */
export function schemaFaults(document: OpenApiDocument, schema: unknown, value: unknown, pointer = ''): SeedFault[] {
  if (schema === false) return [{ pointer, message: 'is not allowed here' }];
  // A schema that is no object (true, nothing, or what JSON Schema does not allow) sets no rule.
  if (!isRecord(schema)) return [];
  // A reference may point at a boolean schema as well as at an object.
  const target: unknown = deref(document, schema);
  if (target === false) return [{ pointer, message: 'is not allowed here' }];
  const node: SchemaNode = isRecord(target) ? target : {};
  const faults: SeedFault[] = [];
  const fault = (message: string, at = pointer) => faults.push({ pointer: at, message });
  // Subschemas are objects or booleans: each list is read whole.
  for (const part of listOf(node.allOf)) faults.push(...schemaFaults(document, part, value, pointer));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(node[keyword])) continue;
    const options = listOf(node[keyword]);
    if (!options.some((option) => schemaFaults(document, option, value, pointer).length === 0))
      fault(`must match one of the ${options.length} forms the description allows`);
  }
  if (node.type !== undefined) {
    const types = [node.type].flat().filter((type): type is string => typeof type === 'string');
    if (!types.some((type) => typeMatches(type, value))) {
      fault(`must be ${types.join(' or ')}, not ${jsonType(value)}`);
      return faults;
    }
  }
  if (node.const !== undefined && JSON.stringify(node.const) !== JSON.stringify(value)) fault(`must be ${JSON.stringify(node.const)}`);
  if (Array.isArray(node.enum) && !node.enum.some((option: unknown) => JSON.stringify(option) === JSON.stringify(value)))
    fault(`must be one of ${node.enum.map((option: unknown) => JSON.stringify(option)).join(', ')}`);
  if (typeof value === 'string') {
    if (typeof node.minLength === 'number' && [...value].length < node.minLength)
      fault(node.minLength === 1 ? 'must not be empty' : `must have at least ${node.minLength} characters`);
    if (typeof node.maxLength === 'number' && [...value].length > node.maxLength) fault(`must have at most ${node.maxLength} characters`);
    if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(value)) fault(`must match the pattern ${node.pattern}`);
  }
  if (typeof value === 'number') {
    if (typeof node.minimum === 'number' && value < node.minimum) fault(`must be at least ${node.minimum}`);
    if (typeof node.maximum === 'number' && value > node.maximum) fault(`must be at most ${node.maximum}`);
  }
  if (Array.isArray(value) && node.items !== undefined)
    for (const [index, item] of value.entries()) faults.push(...schemaFaults(document, node.items, item, `${pointer}/${index}`));
  if (isRecord(value)) faults.push(...attributeFaults(document, node, value, pointer));
  return faults;
}

/**
 * The faults of an object's attributes: the required ones it lacks, and each one's against its schema. Only the
 * object's and the schema's own keys count (an attribute named `constructor` is no property of every schema).
 */
function attributeFaults(document: OpenApiDocument, node: SchemaNode, value: Record<string, unknown>, pointer: string): SeedFault[] {
  const faults: SeedFault[] = [];
  for (const name of listOf(node.required))
    if (typeof name === 'string' && !Object.hasOwn(value, name)) faults.push({ pointer, message: `must have the attribute "${name}"` });
  const properties = isRecord(node.properties) ? node.properties : {};
  for (const [name, item] of Object.entries(value)) {
    const at = `${pointer}/${pointerToken(name)}`;
    const schema = Object.hasOwn(properties, name) ? properties[name] : node.additionalProperties;
    faults.push(...schemaFaults(document, schema, item, at));
  }
  return faults;
}
