// Checking a value against the description's schemas, for a seed: the keywords its schemas use (annotations are
// skipped), each fault at its JSON pointer. The seed's depth is bounded before (src/http/json-depth.ts): this walk
// recurses.
import { deref, isRecord, type Json, pointerToken } from '../description/openapi.js';
import type { SeedFault } from './types.js';

export const jsonType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
function typeMatches(type: string, value: unknown): boolean {
  const actual = jsonType(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

/** The faults of a value against a schema of the document, each at its JSON pointer. */
export function schemaFaults(document: Json, schema: Json | boolean | undefined, value: unknown, pointer = ''): SeedFault[] {
  if (schema === undefined || schema === true) return [];
  if (schema === false) return [{ pointer, message: 'is not allowed here' }];
  const node = deref(document, schema) ?? {};
  const faults: SeedFault[] = [];
  const fault = (message: string, at = pointer) => faults.push({ pointer: at, message });
  for (const part of node.allOf ?? []) faults.push(...schemaFaults(document, part, value, pointer));
  for (const [keyword, atLeast] of [
    ['oneOf', 1],
    ['anyOf', 1],
  ] as const) {
    const options: Json[] | undefined = node[keyword];
    if (options && options.filter((option) => schemaFaults(document, option, value, pointer).length === 0).length < atLeast)
      fault(`must match one of the ${options.length} forms the description allows`);
  }
  if (node.type !== undefined) {
    const types: string[] = [node.type].flat();
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
  if (isRecord(value)) {
    for (const name of node.required ?? []) if (!(name in value)) fault(`must have the attribute "${name}"`);
    const properties: Json = node.properties ?? {};
    for (const [name, item] of Object.entries(value)) {
      const at = `${pointer}/${pointerToken(name)}`;
      if (name in properties) faults.push(...schemaFaults(document, properties[name], item, at));
      else if (node.additionalProperties !== undefined) faults.push(...schemaFaults(document, node.additionalProperties, item, at));
    }
  }
  return faults;
}
