// The structural diff of every component of the description against a release, used by an operation or not (most
// of the package's surface is the constants, named schemas that no operation uses). Each rule is a pure function of
// the two documents; each change names its rule and the JSON pointer of the place in the release.
//
// `redocly diff` sees only what operations use; `ownChecks` (breaking-changes.ts) finds removed enum values and
// narrowed additionalProperties anywhere. These rules add what neither sees: a removed schema, a removed property,
// a narrowed type, and a property made required in something a client sends.
import type { Change } from './breaking-changes.js';

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON pointer segment (RFC 6901). */
const token = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

const schemaPrefix = '#/components/schemas/';

const breaking = (ruleId: string, pointer: string, message: string): Change => ({ ruleId, impact: 'major', message, pointer });

/** The types a schema allows (`type` as a string or a list); undefined when it says none (any type). */
function typesOf(schema: Node): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.map(String));
  return undefined;
}

/** A type of the release still allowed by the revision (`integer` is within `number`). */
const stillAllowed = (type: string, allowed: Set<string>) => allowed.has(type) || (type === 'integer' && allowed.has('number'));

/** schema-removed: a named schema of the release is gone (its type, and the constants made from it, with it). */
export function removedSchemas(base: Node, revision: Node): Change[] {
  const before = schemasOf(base);
  const after = schemasOf(revision);
  return Object.keys(before)
    .filter((name) => !Object.hasOwn(after, name))
    .map((name) =>
      breaking(
        'schema-removed',
        `${schemaPrefix}${token(name)}`,
        `Schema ${name} was removed: code that uses its type or its constants stops compiling.`,
      ),
    );
}

/** property-removed: a property of the release's schema is gone. */
export function removedProperties(before: Node, after: Node, pointer: string): Change[] {
  if (!isNode(before.properties) || !isNode(after.properties)) return [];
  const kept = after.properties;
  return Object.keys(before.properties)
    .filter((name) => !Object.hasOwn(kept, name))
    .map((name) => breaking('property-removed', `${pointer}/properties/${token(name)}`, `Property ${name} of ${pointer} was removed.`));
}

/** type-narrowed: a type the release allowed is no longer allowed (`[string, integer]` to `string`, `number` to `integer`). */
export function narrowedTypes(before: Node, after: Node, pointer: string): Change[] {
  const was = typesOf(before);
  const now = typesOf(after);
  if (!now) return [];
  const lost = was ? [...was].filter((type) => !stillAllowed(type, now)) : ['any type'];
  if (lost.length === 0) return [];
  return [
    breaking(
      'type-narrowed',
      `${pointer}/type`,
      `The type of ${pointer} no longer allows ${lost.join(', ')} (it is now ${[...now].join(' or ')}).`,
    ),
  ];
}

/** required-added: a property became required in a schema that a client sends (a request body or a parameter). */
export function addedRequired(before: Node, after: Node, pointer: string, sent: boolean): Change[] {
  if (!sent) return [];
  const was = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  const now = Array.isArray(after.required) ? after.required.map(String) : [];
  return now
    .filter((name) => !was.has(name))
    .map((name) =>
      breaking('required-added', `${pointer}/required`, `Property ${name} of ${pointer} became required in something a client sends.`),
    );
}

function schemasOf(document: Node): Node {
  const components = isNode(document.components) ? document.components : {};
  return isNode(components.schemas) ? components.schemas : {};
}

/** The named schemas that a request carries: those referenced, directly or not, by a request body or a parameter. */
export function sentSchemas(document: Node): Set<string> {
  const schemas = schemasOf(document);
  const found = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isNode(node)) return;
    if (typeof node.$ref === 'string' && node.$ref.startsWith(schemaPrefix)) {
      const name = node.$ref.slice(schemaPrefix.length).replaceAll('~1', '/').replaceAll('~0', '~');
      if (!found.has(name)) {
        found.add(name);
        visit(schemas[name]);
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') visit(value);
  };
  const paths = isNode(document.paths) ? document.paths : {};
  for (const item of Object.values(paths)) {
    if (!isNode(item)) continue;
    visit(item.parameters);
    for (const operation of Object.values(item)) if (isNode(operation)) visit([operation.requestBody, operation.parameters]);
  }
  const components = isNode(document.components) ? document.components : {};
  visit([components.requestBodies, components.parameters]);
  return found;
}

/** Walks a schema of the release and the revision's schema at the same place: every rule at every level. */
function compareSchemas(before: unknown, after: unknown, pointer: string, sent: boolean, changes: Change[]): void {
  if (!isNode(before) || !isNode(after)) return;
  // A reference is compared where it points: the named schema has its own pointer.
  if (typeof before.$ref === 'string' || typeof after.$ref === 'string') return;
  changes.push(
    ...removedProperties(before, after, pointer),
    ...narrowedTypes(before, after, pointer),
    ...addedRequired(before, after, pointer, sent),
  );
  if (isNode(before.properties) && isNode(after.properties)) {
    for (const [name, schema] of Object.entries(before.properties)) {
      compareSchemas(schema, after.properties[name], `${pointer}/properties/${token(name)}`, sent, changes);
    }
  }
  for (const keyword of ['items', 'additionalProperties', 'not']) {
    compareSchemas(before[keyword], after[keyword], `${pointer}/${keyword}`, sent, changes);
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const left = before[keyword];
    const right = after[keyword];
    if (Array.isArray(left) && Array.isArray(right)) {
      left.forEach((schema, index) => {
        compareSchemas(schema, right[index], `${pointer}/${keyword}/${index}`, sent, changes);
      });
    }
  }
}

/** Every breaking change of the named schemas between a release and a revision, used by an operation or not. */
export function componentChanges(base: unknown, revision: unknown): Change[] {
  if (!isNode(base) || !isNode(revision)) return [];
  const changes = removedSchemas(base, revision);
  const before = schemasOf(base);
  const after = schemasOf(revision);
  const sent = sentSchemas(revision);
  for (const [name, schema] of Object.entries(before)) {
    if (Object.hasOwn(after, name)) compareSchemas(schema, after[name], `${schemaPrefix}${token(name)}`, sent.has(name), changes);
  }
  return changes;
}
