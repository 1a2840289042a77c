// What the MCP server knows without calling the service: the enumerations of the description (each value with its
// name, its meaning and the facts the constants document ties to it) and its guides, as resources and through the
// lookupConstant tool ("what is status 10?", "which units of time does period 7 allow?").
import bundle from '../../generated/openapi.json' with { type: 'json' };
import { listOf, type OpenApiDocument } from '../description/openapi.js';
import type { ObjectSchema, ToolAnnotations } from './tool.js';

export interface Resource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  text: string;
}

/** A value of another enumeration, with its meaning, where a fact names one (a unit of time of a period...). */
interface Reference {
  enumeration: string;
  value: unknown;
  meaning: string;
}

interface Enumeration {
  name: string;
  title: string;
  values: { value: unknown; name: string; meaning: string; facts: Record<string, unknown> }[];
  /** The facts of the enumeration as a whole (the rule of the custom period), by extension name without `x-`. */
  rules?: Record<string, unknown>;
}

/**
 * The extensions whose entries are values of another enumeration (EXTENSIONS.md): a lookup answers with their
 * meanings too, so that "which units of time does period 7 allow?" reads `Hourly, Daily, Weekly`.
 */
const referencedEnumerations: Record<string, string> = {
  'x-supported-granularities': 'UnitOfTime',
  'x-unsupported-monitor-types': 'KnownMonitorType',
  'x-transaction-types': 'ApmTransactionType',
};

const isTable = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The enumerations of the description, with the facts of their `x-` extensions: a table keyed by value gives each
 * value its fact (`x-period-ranges`); a table of lists of values gives each value the keys that list it (the groups of
 * `x-monitor-type-groups`); any other extension is a rule of the whole enumeration (`x-custom-period-rule`).
 */
function enumerationsOf(document: OpenApiDocument): Enumeration[] {
  const schemas = document.components?.schemas ?? {};
  const meaningOf = (enumeration: string, value: unknown) => {
    const schema = schemas[enumeration];
    const index = listOf(schema?.enum).indexOf(value);
    return index === -1 ? '' : String(listOf(schema?.['x-enum-descriptions'])[index] ?? '');
  };
  const resolved = (extension: string, fact: unknown): unknown => {
    const target = referencedEnumerations[extension];
    if (!target || !Array.isArray(fact)) return fact;
    return fact.map((value): Reference => ({ enumeration: target, value, meaning: meaningOf(target, value) }));
  };
  return Object.entries(schemas).flatMap(([name, schema]) => {
    if (!Array.isArray(schema.enum)) return [];
    const enumerated = listOf(schema.enum);
    const keys = new Set(enumerated.map(String));
    const extensions = Object.entries(schema).filter(
      (entry): entry is [string, Record<string, unknown>] =>
        entry[0].startsWith('x-') && entry[0] !== 'x-enum-varnames' && entry[0] !== 'x-enum-descriptions' && isTable(entry[1]),
    );
    const byValue = extensions.filter(([, table]) => Object.keys(table).every((key) => keys.has(key)));
    const groups = extensions.filter(
      ([, table]) =>
        !byValue.some(([, other]) => other === table) &&
        Object.values(table).every((list) => Array.isArray(list) && list.every((item) => keys.has(String(item)))),
    );
    const rules = Object.fromEntries(
      extensions
        .filter(([, table]) => !byValue.some(([, t]) => t === table) && !groups.some(([, t]) => t === table))
        .map(([key, table]) => [key.slice(2), table]),
    );
    return {
      name,
      title: String(schema.title ?? name),
      values: enumerated.map((value, index) => {
        const facts: Record<string, unknown> = {};
        for (const [key, table] of byValue) {
          const fact = table[String(value)];
          if (fact !== undefined) facts[key.slice(2)] = resolved(key, fact);
        }
        for (const [key, table] of groups) {
          const listedIn = Object.entries(table)
            .filter(([, list]) => (list as unknown[]).some((item) => String(item) === String(value)))
            .map(([group]) => group);
          if (listedIn.length > 0) facts[key.slice(2)] = listedIn;
        }
        return {
          value,
          name: String(listOf(schema['x-enum-varnames'])[index] ?? ''),
          meaning: String(listOf(schema['x-enum-descriptions'])[index] ?? ''),
          facts,
        };
      }),
      ...(Object.keys(rules).length > 0 ? { rules } : {}),
    };
  });
}

const known = enumerationsOf(bundle);

/** Every enumeration as a resource: `constants://MonitorStatus`, its values, names, meanings and facts as JSON. */
export function enumerations(): Resource[] {
  return known.map((enumeration) => ({
    uri: `constants://${enumeration.name}`,
    name: enumeration.name,
    description: `${enumeration.title}: every value with its name and meaning.`,
    mimeType: 'application/json',
    text: JSON.stringify(enumeration, null, 2),
  }));
}

/** Every guide of the description (its `##` sections: data centers, getting a token, limits...) as a resource. */
export function guides(): Resource[] {
  const description = String(bundle.info.description ?? '');
  return description
    .split(/^(?=## )/m)
    .filter((section) => section.startsWith('## '))
    .map((section) => {
      const title = section.slice(3, section.indexOf('\n')).trim();
      const slug = title
        .toLowerCase()
        .replaceAll(' ', '-')
        .replace(/[^a-z0-9-]/g, '');
      return {
        uri: `guide://${slug}`,
        name: title,
        description: `The guide "${title}" of the API's documentation.`,
        mimeType: 'text/markdown',
        text: section.trim(),
      };
    });
}

const lookupAnnotations: ToolAnnotations = { title: 'Look up a constant', readOnlyHint: true, openWorldHint: false };

/** The lookup tool: an enumeration by name, a value of it, or words to find among names and meanings. */
export const constantsLookupTool = {
  name: 'lookupConstant',
  title: lookupAnnotations.title,
  description:
    'What a constant of the API means: give `enumeration` (e.g. MonitorStatus, Period; part of a name finds every enumeration ' +
    'that contains it) and optionally `value` (e.g. 10, 7, or a value name such as ConfigurationError) to get each value with ' +
    "its name, meaning and facts (a period's range and supported units of time, ...), then the rules of the enumeration; " +
    'or `search` for words among the enumerations, names and meanings. No call to the service.',
  annotations: lookupAnnotations,
  inputSchema: {
    type: 'object',
    properties: {
      enumeration: { type: 'string', description: `One of: ${known.map((enumeration) => enumeration.name).join(', ')}.` },
      value: { type: ['string', 'number'], description: 'A value of the enumeration (as the service sends it), or its name.' },
      search: { type: 'string', description: 'Words to find in enumeration names, value names and meanings.' },
    },
    additionalProperties: false,
  } satisfies ObjectSchema,
};

/** The enumerations a name designates: the one of that name or title, else every one whose name contains it. */
function enumerationsNamed(wanted: string): Enumeration[] {
  const exact = known.filter((enumeration) => enumeration.name.toLowerCase() === wanted || enumeration.title.toLowerCase() === wanted);
  return exact.length > 0 ? exact : known.filter((enumeration) => enumeration.name.toLowerCase().includes(wanted));
}

/** The answer of the lookup tool, as text: the matching values, then the rules of their enumerations. */
export function lookupConstant(input: Record<string, unknown>): string {
  const search = typeof input.search === 'string' ? input.search.toLowerCase() : undefined;
  const wanted = typeof input.enumeration === 'string' ? input.enumeration.toLowerCase() : undefined;
  const value = input.value === undefined ? undefined : String(input.value).toLowerCase();
  const found = wanted === undefined ? known : enumerationsNamed(wanted);
  if (found.length === 0)
    return `No enumeration ${JSON.stringify(input.enumeration)}. The enumerations: ${known.map((enumeration) => enumeration.name).join(', ')}.`;
  const matches = found.flatMap((enumeration) =>
    enumeration.values
      .filter((entry) => value === undefined || String(entry.value).toLowerCase() === value || entry.name.toLowerCase() === value)
      .filter(
        (entry) =>
          search === undefined || `${enumeration.name} ${enumeration.title} ${entry.name} ${entry.meaning}`.toLowerCase().includes(search),
      )
      .map((entry) => ({ enumeration: enumeration.name, ...entry })),
  );
  if (matches.length === 0)
    return 'No value matches. List an enumeration with `enumeration` alone, or read the resources constants://<name>.';
  const shown = matches.slice(0, 200);
  const rules = known
    .filter((enumeration) => enumeration.rules && shown.some((entry) => entry.enumeration === enumeration.name))
    .map((enumeration) => ({ enumeration: enumeration.name, rules: enumeration.rules }));
  const more = matches.length > shown.length ? [{ more: `${matches.length - shown.length} more values: narrow the lookup.` }] : [];
  return JSON.stringify([...shown, ...rules, ...more], null, 2);
}
