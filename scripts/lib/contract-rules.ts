// The structural diff of the description against a release, judged by the direction data flows (as oasdiff and the
// TypeScript compiler judge it): what the service answers may gain (an optional attribute, a value of an open set)
// but not lose or widen; what a client sends may widen (an optional attribute, a value) but not gain a requirement
// or narrow. Every named schema is compared, used by an operation or not (most of the package's surface is the
// constants, named schemas that no operation uses), and so is every schema written inline in an operation
// (operation-rules.ts walks the operations). Each rule is a pure function of the two documents; each change names its
// rule, the direction of the place, and the JSON pointer of the place. The table of rules, directions and verdicts is
// in CONTRIBUTING.md ("How the gate judges a change"); test/unit/gate-corpus.test.ts holds it to this code.
import { isRecord as isNode, pointerToken as token } from '../../src/description/openapi.js';
import type { Change, Direction } from './breaking-changes.js';

type Node = Record<string, unknown>;

const schemaPrefix = '#/components/schemas/';

/** A change that breaks users (`major`), one that does not (`minor`), or one for the release notes (`notice`). */
export const verdict = (impact: Change['impact'], ruleId: string, direction: Direction, pointer: string, message: string): Change => ({
  ruleId,
  impact,
  direction,
  message,
  pointer,
});

/** What a place carries: an answer of the service, a request of a client, or both (a constant no operation uses: users read it from answers and send it). */
export interface Place {
  direction: Direction;
  /** The enumeration at this place is one member of an open set (`anyOf: [KnownX, {type: string}]`). */
  open: boolean;
}

/** The types a schema allows (`type` as a string or a list); undefined when it says none (any type). */
function typesOf(schema: Node): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.map(String));
  return undefined;
}

/** Whether `type` is allowed by `allowed` (`integer` is within `number`; no list allows any type). */
const allows = (allowed: Set<string> | undefined, type: string) =>
  allowed === undefined || allowed.has(type) || (type === 'integer' && allowed.has('number'));

/** Breaking in an answer, passing in a request; in a schema that travels both ways, breaking. */
const answerBreaks = (direction: Direction) => (direction === 'request' ? 'minor' : 'major');
/** Breaking in a request, passing in an answer; in a schema that travels both ways, breaking. */
const requestBreaks = (direction: Direction) => (direction === 'answer' ? 'minor' : 'major');

function schemasOf(document: Node): Node {
  const components = isNode(document.components) ? document.components : {};
  return isNode(components.schemas) ? components.schemas : {};
}

const refName = (ref: unknown) =>
  typeof ref === 'string' && ref.startsWith(schemaPrefix)
    ? ref.slice(schemaPrefix.length).replaceAll('~1', '/').replaceAll('~0', '~')
    : undefined;

/** schema-removed: a named schema of the release is gone (its type, and the constants made from it, with it). */
export function removedSchemas(base: Node, revision: Node): Change[] {
  const after = schemasOf(revision);
  return Object.keys(schemasOf(base))
    .filter((name) => !Object.hasOwn(after, name))
    .map((name) =>
      verdict(
        'major',
        'schema-removed',
        'both',
        `${schemaPrefix}${token(name)}`,
        `Schema ${name} was removed: code that uses its type or its constants stops compiling.`,
      ),
    );
}

/** property-removed (breaks everywhere) and property-added (passes; a new required one in a request is required-added). */
export function propertyChanges(before: Node, after: Node, pointer: string, place: Place): Change[] {
  const was = isNode(before.properties) ? before.properties : {};
  const now = isNode(after.properties) ? after.properties : {};
  const removed = Object.keys(was)
    .filter((name) => !Object.hasOwn(now, name))
    .map((name) =>
      verdict(
        'major',
        'property-removed',
        place.direction,
        `${pointer}/properties/${token(name)}`,
        `Property ${name} of ${pointer} was removed.`,
      ),
    );
  const required = new Set(Array.isArray(after.required) ? after.required.map(String) : []);
  const added = Object.keys(now)
    .filter((name) => !Object.hasOwn(was, name) && !(required.has(name) && place.direction !== 'answer'))
    .map((name) =>
      verdict(
        'minor',
        'property-added',
        place.direction,
        `${pointer}/properties/${token(name)}`,
        `Property ${name} of ${pointer} was added.`,
      ),
    );
  return [...removed, ...added];
}

/**
 * required-added: a property became required (or was added as required). A client must now send it: breaking in a
 * request; an answer now always carries it: passing there. required-removed: a property is no longer always there:
 * readers that relied on it break; a client may now leave it out.
 */
export function requiredChanges(before: Node, after: Node, pointer: string, place: Place): Change[] {
  const was = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  const now = new Set(Array.isArray(after.required) ? after.required.map(String) : []);
  const stillDeclared = isNode(after.properties) ? after.properties : {};
  const added = [...now]
    .filter((name) => !was.has(name))
    .map((name) =>
      verdict(
        requestBreaks(place.direction),
        'required-added',
        place.direction,
        `${pointer}/required`,
        `Property ${name} of ${pointer} became required.`,
      ),
    );
  // A required property removed with its declaration is property-removed's to report.
  const removed = [...was]
    .filter((name) => !now.has(name) && Object.hasOwn(stillDeclared, name))
    .map((name) =>
      verdict(
        answerBreaks(place.direction),
        'required-removed',
        place.direction,
        `${pointer}/required`,
        `Property ${name} of ${pointer} is no longer required: it may be missing.`,
      ),
    );
  return [...added, ...removed];
}

/**
 * type-narrowed: a type the release allowed is no longer allowed (`[string, integer]` to `string`, `number` to
 * `integer`): a client's value may be refused; in an answer, the data type changed (core document, section 9), and
 * code that produces answers (a mock's handlers) stops compiling. type-widened: a type was added (`string` to
 * `[string, null]`): readers of an answer meet a value they never handled; a request may now carry more.
 */
export function typeChanges(before: Node, after: Node, pointer: string, place: Place): Change[] {
  const was = typesOf(before);
  const now = typesOf(after);
  const lost = was === undefined ? (now === undefined ? [] : ['any type']) : [...was].filter((type) => !allows(now, type));
  if (lost.length > 0) {
    const allowed = now ? [...now].join(' or ') : 'any type';
    return [
      verdict(
        'major',
        'type-narrowed',
        place.direction,
        `${pointer}/type`,
        `The type of ${pointer} no longer allows ${lost.join(', ')} (it is now ${allowed}).`,
      ),
    ];
  }
  const gained = now === undefined ? (was === undefined ? [] : ['any type']) : [...now].filter((type) => !allows(was, type));
  if (gained.length === 0) return [];
  return [
    verdict(
      answerBreaks(place.direction),
      'type-widened',
      place.direction,
      `${pointer}/type`,
      `The type of ${pointer} now also allows ${gained.join(', ')}.`,
    ),
  ];
}

/**
 * enum-value-added: a request may send a new value (passes); an answer may carry it: code that switches over every
 * value of a closed set (`KnownX` used alone) meets one it never handled (breaking). open-set-value-added: the known
 * values of an open set (`anyOf: [KnownX, {type: string}]`) gained one; the set promised other values all along
 * (passes, either way). A removed value is ownChecks' `enum-value-removed`, breaking everywhere.
 */
export function enumChanges(before: Node, after: Node, pointer: string, place: Place): Change[] {
  if (!Array.isArray(before.enum) || !Array.isArray(after.enum)) return [];
  const had = new Set(before.enum.map((value) => JSON.stringify(value)));
  const added = after.enum.map((value) => JSON.stringify(value)).filter((value) => !had.has(value));
  if (added.length === 0) return [];
  if (place.open)
    return [
      verdict(
        'minor',
        'open-set-value-added',
        place.direction,
        `${pointer}/enum`,
        `${pointer} (the known values of an open set) gained ${added.join(', ')}.`,
      ),
    ];
  return [
    verdict(
      answerBreaks(place.direction),
      'enum-value-added',
      place.direction,
      `${pointer}/enum`,
      `${pointer} (a closed set) gained ${added.join(', ')}.`,
    ),
  ];
}

/** The keywords that say nothing of which values a schema admits. */
const annotations = new Set(['type', 'title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** Whether a schema admits any value of a scalar type: the open member of `anyOf: [KnownX, {type: string}]`. */
const admitsAny = (schema: unknown) =>
  isNode(schema) &&
  ['string', 'number', 'integer'].includes(String(schema.type)) &&
  Object.keys(schema).every((key) => annotations.has(key) || key.startsWith('x-'));

/** Whether the members of an anyOf/oneOf make an open set: one of them admits any value. */
const isOpenSet = (members: unknown): boolean => Array.isArray(members) && members.some(admitsAny);

/**
 * The named schemas that are open sets' known values: every reference to them is a member of an anyOf/oneOf with a
 * member that admits any value. A named enumeration that is referenced nowhere, or once alone, is closed.
 */
export function openSchemas(document: Node): Set<string> {
  const open = new Set<string>();
  const closed = new Set<string>();
  const visit = (node: unknown, inOpenSet: boolean) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, inOpenSet);
      return;
    }
    if (!isNode(node)) return;
    const name = refName(node.$ref);
    if (name !== undefined) (inOpenSet ? open : closed).add(name);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
      visit(value, (key === 'anyOf' || key === 'oneOf') && isOpenSet(value));
    }
  };
  visit(document, false);
  return new Set([...open].filter((name) => !closed.has(name)));
}

/**
 * Where each named schema travels, followed through references: `answer` (only in what the service answers),
 * `request` (only in what a client sends), `both` (either way, or neither: a constant no operation uses yet).
 */
export function schemaDirections(document: Node): Map<string, Direction> {
  const schemas = schemasOf(document);
  const seen = { answer: new Set<string>(), request: new Set<string>() };
  const visit = (node: unknown, way: 'answer' | 'request') => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, way);
      return;
    }
    if (!isNode(node)) return;
    const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
    const name = refName(ref);
    if (name !== undefined && !seen[way].has(name)) {
      seen[way].add(name);
      visit(schemas[name], way);
    } else if (ref?.startsWith('#/components/') && name === undefined) {
      visit(resolvePointer(document, ref), way);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') visit(value, way);
  };
  const paths = isNode(document.paths) ? document.paths : {};
  for (const item of Object.values(paths)) {
    if (!isNode(item)) continue;
    visit(item.parameters, 'request');
    for (const operation of Object.values(item)) {
      if (!isNode(operation)) continue;
      visit([operation.requestBody, operation.parameters], 'request');
      visit(operation.responses, 'answer');
    }
  }
  const directions = new Map<string, Direction>();
  for (const name of Object.keys(schemas)) {
    const answer = seen.answer.has(name);
    const request = seen.request.has(name);
    directions.set(name, answer && !request ? 'answer' : request && !answer ? 'request' : 'both');
  }
  return directions;
}

/** The node at a local JSON pointer (`#/components/responses/NotFound`), or undefined. */
function resolvePointer(document: Node, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (isNode(node) ? node[key] : undefined), document);
}

/** Walks a schema of the release and the revision's schema at the same place: every rule at every level. */
export function compareSchemas(before: unknown, after: unknown, pointer: string, place: Place, changes: Change[]): void {
  if (!isNode(before) || !isNode(after)) return;
  // A reference is compared where it points: the named schema has its own pointer.
  if (typeof before.$ref === 'string' || typeof after.$ref === 'string') return;
  changes.push(
    ...propertyChanges(before, after, pointer, place),
    ...requiredChanges(before, after, pointer, place),
    ...typeChanges(before, after, pointer, place),
    ...enumChanges(before, after, pointer, place),
  );
  const inner = { ...place, open: false };
  if (isNode(before.properties) && isNode(after.properties)) {
    for (const [name, schema] of Object.entries(before.properties)) {
      compareSchemas(schema, after.properties[name], `${pointer}/properties/${token(name)}`, inner, changes);
    }
  }
  for (const keyword of ['items', 'additionalProperties', 'not']) {
    compareSchemas(before[keyword], after[keyword], `${pointer}/${keyword}`, inner, changes);
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const left = before[keyword];
    const right = after[keyword];
    if (!Array.isArray(left) || !Array.isArray(right)) continue;
    const member = { ...inner, open: keyword !== 'allOf' && isOpenSet(right) };
    left.forEach((schema, index) => {
      compareSchemas(schema, right[index], `${pointer}/${keyword}/${index}`, member, changes);
    });
  }
}

/** Every change of the named schemas between a release and a revision, used by an operation or not. */
export function componentChanges(base: unknown, revision: unknown): Change[] {
  if (!isNode(base) || !isNode(revision)) return [];
  const changes = removedSchemas(base, revision);
  const before = schemasOf(base);
  const after = schemasOf(revision);
  const directions = schemaDirections(revision);
  const open = openSchemas(revision);
  for (const [name, schema] of Object.entries(before)) {
    if (!Object.hasOwn(after, name)) continue;
    const place = { direction: directions.get(name) ?? 'both', open: open.has(name) };
    compareSchemas(schema, after[name], `${schemaPrefix}${token(name)}`, place, changes);
  }
  for (const name of Object.keys(after)) {
    if (!Object.hasOwn(before, name))
      changes.push(
        verdict('minor', 'schema-added', directions.get(name) ?? 'both', `${schemaPrefix}${token(name)}`, `Schema ${name} was added.`),
      );
  }
  return changes;
}
