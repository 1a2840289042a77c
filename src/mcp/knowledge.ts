// What the MCP server knows without calling the service: the enumerations of the description (each value with its
// name, its meaning and the facts the constants document ties to it) and its guides, as resources and through the
// lookupConstant tool ("what is status 10?", "which units of time does period 7 allow?").
import bundle from '../../generated/openapi.json' with { type: 'json' };
import type { Json } from '../description/openapi.js';

export interface Resource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  text: string;
}

interface Enumeration {
  name: string;
  title: string;
  values: { value: unknown; name: string; meaning: string; facts: Record<string, unknown> }[];
}

/** The enumerations of the description, with the per-value facts (`x-period-ranges`, ...) each keeps. */
function enumerationsOf(document: Json): Enumeration[] {
  return Object.entries<Json>(document.components?.schemas ?? {})
    .filter(([, schema]) => Array.isArray(schema.enum))
    .map(([name, schema]) => ({
      name,
      title: String(schema.title ?? name),
      values: schema.enum.map((value: unknown, index: number) => {
        const facts: Record<string, unknown> = {};
        for (const [key, table] of Object.entries(schema)) {
          if (
            key.startsWith('x-') &&
            key !== 'x-enum-varnames' &&
            key !== 'x-enum-descriptions' &&
            table &&
            typeof table === 'object' &&
            !Array.isArray(table)
          ) {
            const fact = (table as Record<string, unknown>)[String(value)];
            if (fact !== undefined) facts[key.slice(2)] = fact;
          }
        }
        return {
          value,
          name: String(schema['x-enum-varnames']?.[index] ?? ''),
          meaning: String(schema['x-enum-descriptions']?.[index] ?? ''),
          facts,
        };
      }),
    }));
}

const known = enumerationsOf(bundle as Json);

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
  const description = String((bundle as Json).info.description ?? '');
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

/** The lookup tool: an enumeration by name, a value of it, or words to find among names and meanings. */
export const constantsLookupTool = {
  name: 'lookupConstant',
  description:
    'What a constant of the API means: give `enumeration` (e.g. MonitorStatus, Period) and optionally `value` (e.g. 10, 7) ' +
    "to get each value with its name, meaning and facts (a period's range and supported units of time, ...); or `search` " +
    'for words among the enumerations, names and meanings. No call to the service.',
  inputSchema: {
    type: 'object',
    properties: {
      enumeration: { type: 'string', description: `One of: ${known.map((enumeration) => enumeration.name).join(', ')}.` },
      value: { type: ['string', 'number'], description: 'A value of the enumeration (as the service sends it).' },
      search: { type: 'string', description: 'Words to find in enumeration names, value names and meanings.' },
    },
    additionalProperties: false,
  },
} as const;

/** The answer of the lookup tool, as text. */
export function lookupConstant(input: Record<string, unknown>): string {
  const search = typeof input.search === 'string' ? input.search.toLowerCase() : undefined;
  const wanted = typeof input.enumeration === 'string' ? input.enumeration.toLowerCase() : undefined;
  const found = known.filter(
    (enumeration) => wanted === undefined || enumeration.name.toLowerCase() === wanted || enumeration.title.toLowerCase() === wanted,
  );
  if (wanted !== undefined && found.length === 0)
    return `No enumeration ${JSON.stringify(input.enumeration)}. The enumerations: ${known.map((enumeration) => enumeration.name).join(', ')}.`;
  const matches = found.flatMap((enumeration) =>
    enumeration.values
      .filter((entry) => input.value === undefined || String(entry.value) === String(input.value))
      .filter(
        (entry) =>
          search === undefined || `${enumeration.name} ${enumeration.title} ${entry.name} ${entry.meaning}`.toLowerCase().includes(search),
      )
      .map((entry) => ({ enumeration: enumeration.name, ...entry })),
  );
  if (matches.length === 0)
    return 'No value matches. List an enumeration with `enumeration` alone, or read the resources constants://<name>.';
  return JSON.stringify(matches.slice(0, 200), null, 2);
}
