// Writes generated/constants.ts from the bundled OpenAPI document (called by scripts/build.ts).
//
// For every component schema with `x-enum-varnames` it writes a runtime object (name → value, each value's meaning
// as a doc comment), a type of its values, an array of its values and a map of value → meaning. An open set (a
// component that is `anyOf` a known enum and a string) becomes a type that still offers the known values. The
// tables of the constants document, carried as `x-` extensions, become typed helpers:
//   x-supported-granularities + x-custom-period-rule (Period) → supportedGranularities, isGranularitySupported
//   x-unsupported-monitor-types (CheckInterval)              → unsupportedMonitorTypes, isCheckIntervalSupported
//   x-browser-versions (BrowserType)                         → browserVersion
// The output depends only on the input document, so it is deterministic; it type-checks with plain
// `tsc --strict --noEmit` (ES5 library: no Array.prototype.includes).

import type { JsonObject, JsonValue } from '../../src/description/openapi.js';

/** A schema of the bundle, as parsed JSON. */
type Schema = JsonObject;
type EnumValue = string | number;

export interface GenerateOptions {
  /** Shown in the header comment; defaults to `the bundled OpenAPI document`. */
  source?: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const REF_PREFIX = '#/components/schemas/';
/** The decorator of scripts/redocly/ appends a table to enum descriptions (its first line starts with
 * `| Value |`); the doc comments skip it. */
const TABLE_START = /^\| Value \|/m;
const DAY_MS = 86_400_000;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new Error(`generate-constants: ${message}`);
}

/** A value as a TypeScript literal. */
function literal(value: EnumValue): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** A value as an object-literal key. */
function key(value: EnumValue): string {
  if (typeof value === 'number') return value >= 0 ? String(value) : JSON.stringify(String(value));
  return IDENTIFIER.test(value) ? value : JSON.stringify(value);
}

/** The prose of a description, without the generated table, as lines of a doc comment. */
function prose(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  const cut = text.search(TABLE_START);
  const body = (cut >= 0 ? text.slice(0, cut) : text).trim().replace(/\*\//g, '*\\/');
  const lines: string[] = [];
  for (const paragraph of body.split(/\n\s*\n/)) {
    if (lines.length) lines.push('');
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > 100) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
  }
  return lines;
}

function docComment(lines: string[], indent = ''): string {
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join('\n')}\n${indent} */\n`;
}

function oneLine(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
}

interface EnumInfo {
  name: string;
  schema: Schema;
  values: EnumValue[];
  names: string[];
  meanings: string[];
}

function enumInfo(name: string, schema: Schema): EnumInfo {
  const values = schema.enum;
  const names = schema['x-enum-varnames'];
  const meanings = schema['x-enum-descriptions'] ?? [];
  if (!Array.isArray(values)) fail(`${name} has x-enum-varnames but no enum`);
  if (!Array.isArray(names) || !Array.isArray(meanings)) fail(`${name}: x-enum-varnames and x-enum-descriptions must be lists`);
  if (names.length !== values.length) fail(`${name}: ${values.length} values but ${names.length} x-enum-varnames`);
  if (meanings.length !== 0 && meanings.length !== values.length) fail(`${name}: ${values.length} values but ${meanings.length} meanings`);
  for (const v of values)
    if (typeof v !== 'string' && typeof v !== 'number') fail(`${name}: value ${JSON.stringify(v)} is not a string or number`);
  names.forEach((n, i) => {
    if (typeof n !== 'string' || !IDENTIFIER.test(n)) fail(`${name}: x-enum-varnames[${i}] is not an identifier`);
    if (names.indexOf(n) !== i) fail(`${name}: x-enum-varnames[${i}] ${n} is used twice`);
  });
  if (new Set(values).size !== values.length) fail(`${name}: duplicate values`);
  return {
    name,
    schema,
    values: values as EnumValue[],
    names: names as string[],
    meanings: (meanings.length ? meanings : values.map(String)).map(String),
  };
}

function emitEnum(e: EnumInfo): string {
  const title = typeof e.schema.title === 'string' ? e.schema.title : e.name;
  const head = docComment([`${oneLine(title)}.`, ...(prose(e.schema.description).length ? ['', ...prose(e.schema.description)] : [])]);
  const members = e.values.map((v, i) => `${docComment([oneLine(e.meanings[i]!)], '  ')}  ${e.names[i]}: ${literal(v)},`).join('\n');
  const meanings = e.values.map((v, i) => `  ${key(v)}: ${JSON.stringify(e.meanings[i])},`).join('\n');
  return [
    `${head}export const ${e.name} = {\n${members}\n} as const;`,
    `/** A value of {@link ${e.name}}. */`,
    `export type ${e.name} = (typeof ${e.name})[keyof typeof ${e.name}];`,
    `/** Every value of {@link ${e.name}}, in the document's order. */`,
    `export const ${e.name}Values = [${e.values.map(literal).join(', ')}] as const;`,
    `/** The meaning of every value of {@link ${e.name}}. */`,
    `export const ${e.name}Meanings = {\n${meanings}\n} as const satisfies Record<${e.name}, string>;`,
    '',
  ].join('\n');
}

interface OpenSet {
  name: string;
  schema: Schema;
  known: string;
  /** A template literal type for a string pattern with a literal prefix, e.g. `SD/${string}`; else `string & {}`. */
  other: string;
  pattern?: string;
}

/** `anyOf: [{ $ref: <enum with x-enum-varnames> }, { type: string, ... }]`. */
function openSet(name: string, schema: Schema, enums: Map<string, EnumInfo>): OpenSet | undefined {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const [ref, other] = anyOf;
  if (!isObject(ref) || typeof ref.$ref !== 'string' || !ref.$ref.startsWith(REF_PREFIX)) return undefined;
  const known = ref.$ref.slice(REF_PREFIX.length);
  if (!enums.has(known) || !isObject(other) || other.type !== 'string') return undefined;
  const pattern = typeof other.pattern === 'string' ? other.pattern : undefined;
  const prefix = pattern?.match(/^\^((?:[A-Za-z0-9/_:@ -]|\\[./-])+)/)?.[1]?.replace(/\\(.)/g, '$1');
  return { name, schema, known, other: prefix ? `\`${prefix.replace(/[`$\\]/g, '\\$&')}\${string}\`` : '(string & {})', pattern };
}

function emitOpenSet(o: OpenSet): string {
  const title = typeof o.schema.title === 'string' ? o.schema.title : o.name;
  const other = o.pattern ? `or a string that matches {@link ${o.name}Pattern}` : 'or any other string';
  const lines = [`${oneLine(title)}: a value of {@link ${o.known}}, ${other}.`, '', ...prose(o.schema.description)];
  let text = `${docComment(lines)}export type ${o.name} = ${o.known} | ${o.other};\n`;
  if (o.pattern) {
    text += `/** The pattern that a ${o.name} outside {@link ${o.known}} matches. */\n`;
    text += `export const ${o.name}Pattern = new RegExp(${JSON.stringify(o.pattern)});\n`;
    text += `/** Whether a string is a ${o.name}: a known value or one that matches {@link ${o.name}Pattern}. */\n`;
    text += `export function is${o.name}(value: string): value is ${o.name} {\n`;
    text += `  return (${o.known}Values as readonly string[]).indexOf(value) >= 0 || ${o.name}Pattern.test(value);\n}\n`;
  }
  return `${text}`;
}

/** The one component schema that carries an extension, or undefined. */
function host(schemas: Record<string, Schema>, extension: string): [string, Schema] | undefined {
  const found = Object.entries(schemas).filter(([, s]) => extension in s);
  if (found.length > 1) fail(`${extension} appears on ${found.map(([n]) => n).join(', ')}; expected one schema`);
  return found[0];
}

/** Maps the string keys of an extension to the values of the host enum. */
function keyed(e: EnumInfo, extension: string, table: Schema): [EnumValue, JsonValue][] {
  return Object.entries(table).map(([k, v]) => {
    const value = e.values.find((x) => String(x) === k);
    if (value === undefined) fail(`${e.name}.${extension}: key ${k} is not a value of ${e.name}`);
    return [value, v];
  });
}

function listOf(e: EnumInfo, extension: string, k: EnumValue, list: JsonValue, of: EnumInfo): EnumValue[] {
  if (!Array.isArray(list)) fail(`${e.name}.${extension}[${k}] is not a list`);
  for (const x of list) {
    if (!of.values.includes(x as EnumValue)) fail(`${e.name}.${extension}[${k}]: ${JSON.stringify(x)} is not a value of ${of.name}`);
  }
  return list as EnumValue[];
}

function need(enums: Map<string, EnumInfo>, name: string, why: string): EnumInfo {
  return enums.get(name) ?? fail(`${why} needs the enum schema ${name}`);
}

function emitGranularities(schemas: Record<string, Schema>, enums: Map<string, EnumInfo>): string {
  const found = host(schemas, 'x-supported-granularities');
  if (!found) return '';
  const period = need(enums, found[0], 'x-supported-granularities');
  const unit = need(enums, 'UnitOfTime', 'x-supported-granularities');
  const table = found[1]['x-supported-granularities'];
  if (!isObject(table)) fail(`${period.name}.x-supported-granularities is not a map`);
  const rows = keyed(period, 'x-supported-granularities', table).map(
    ([k, list]) => `  ${key(k)}: [${listOf(period, 'x-supported-granularities', k, list, unit).map(literal).join(', ')}],`,
  );
  const rule = found[1]['x-custom-period-rule'];
  if (!isObject(rule)) fail(`${period.name} has x-supported-granularities but no x-custom-period-rule`);
  const custom = rule.period;
  const raw = rule['raw-data-unit-of-time'];
  const days = rule['raw-data-within-last-days'];
  if (typeof custom !== 'number' || !period.values.includes(custom)) fail('x-custom-period-rule.period is not a period');
  if (typeof raw !== 'number' || !unit.values.includes(raw)) fail('x-custom-period-rule.raw-data-unit-of-time is not a unit of time');
  if (typeof days !== 'number') fail('x-custom-period-rule.raw-data-within-last-days is not a number');
  const P = period.name;
  const U = unit.name;
  return `
/** The units of time ({@link ${U}}) each period ({@link ${P}}) supports; the custom period is not in the table. */
export const SupportedGranularities = {
${rows.join('\n')}
} as const satisfies Partial<Record<${P}, readonly ${U}[]>>;

/** ${oneLine(String(rule.text ?? ''))} */
export const CustomPeriodRule = {
  period: ${literal(custom)},
  rawDataUnitOfTime: ${literal(raw)},
  rawDataWithinLastDays: ${literal(days)},
} as const;

/** A date as a Date, an ISO string or epoch milliseconds. */
export type DateInput = Date | string | number;

/** The start and end dates of a custom period. */
export interface DateRange {
  start: DateInput;
  end: DateInput;
}

function toEpochMs(value: DateInput): number {
  return value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
}

/**
 * The units of time that a period supports, or undefined for the custom period, whose granularity is derived
 * from its start and end dates (see {@link isGranularitySupported}).
 */
export function supportedGranularities(period: ${P}): readonly ${U}[] | undefined {
  return (SupportedGranularities as Partial<Record<${P}, readonly ${U}[]>>)[period];
}

/**
 * Whether a period supports a unit of time. For the custom period the granularity is derived from the start and
 * end dates: raw data applies only if both dates lie within the last ${days} days before \`now\` (so it needs
 * \`range\`); the document does not restrict the other units of a custom period, so they are accepted.
 */
export function isGranularitySupported(period: ${P}, unit: ${U}, range?: DateRange, now: DateInput = Date.now()): boolean {
  if (period === CustomPeriodRule.period) {
    if (unit !== CustomPeriodRule.rawDataUnitOfTime) return true;
    if (!range) return false;
    const end = toEpochMs(now);
    const start = end - CustomPeriodRule.rawDataWithinLastDays * ${DAY_MS};
    return [range.start, range.end].every((d) => {
      const t = toEpochMs(d);
      return t >= start && t <= end;
    });
  }
  const units = supportedGranularities(period);
  return units !== undefined && units.indexOf(unit) >= 0;
}
`;
}

function emitCheckIntervals(schemas: Record<string, Schema>, enums: Map<string, EnumInfo>, opens: OpenSet[]): string {
  const found = host(schemas, 'x-unsupported-monitor-types');
  if (!found) return '';
  const interval = need(enums, found[0], 'x-unsupported-monitor-types');
  const known = need(enums, 'KnownMonitorType', 'x-unsupported-monitor-types');
  const table = found[1]['x-unsupported-monitor-types'];
  if (!isObject(table)) fail(`${interval.name}.x-unsupported-monitor-types is not a map`);
  const entries = keyed(interval, 'x-unsupported-monitor-types', table);
  const complete = interval.values.every((v) => entries.some(([k]) => k === v));
  const rows = entries.map(
    ([k, list]) => `  ${key(k)}: [${listOf(interval, 'x-unsupported-monitor-types', k, list, known).map(literal).join(', ')}],`,
  );
  const I = interval.name;
  const K = known.name;
  const open = opens.find((o) => o.known === K)?.name ?? 'string';
  const record = complete ? `Record<${I}, readonly ${K}[]>` : `Partial<Record<${I}, readonly ${K}[]>>`;
  return `
/** The monitor types ({@link ${K}}) that each check interval ({@link ${I}}) does not support. */
export const UnsupportedMonitorTypes = {
${rows.join('\n')}
} as const satisfies ${record};

/** The monitor types that a check interval does not support (empty when it supports all). */
export function unsupportedMonitorTypes(interval: ${I}): readonly ${K}[] {
  return (UnsupportedMonitorTypes as ${record})[interval] ?? [];
}

/** Whether a monitor type may use a check interval. */
export function isCheckIntervalSupported(interval: ${I}, monitorType: ${open}): boolean {
  return (unsupportedMonitorTypes(interval) as readonly string[]).indexOf(monitorType) < 0;
}
`;
}

function emitBrowserVersions(schemas: Record<string, Schema>, enums: Map<string, EnumInfo>): string {
  const found = host(schemas, 'x-browser-versions');
  if (!found) return '';
  const browser = need(enums, found[0], 'x-browser-versions');
  const table = found[1]['x-browser-versions'];
  if (!isObject(table)) fail(`${browser.name}.x-browser-versions is not a map`);
  const entries = keyed(browser, 'x-browser-versions', table);
  for (const [k, v] of entries) if (typeof v !== 'number') fail(`${browser.name}.x-browser-versions[${k}] is not a number`);
  if (!browser.values.every((v) => entries.some(([k]) => k === v))) fail(`${browser.name}.x-browser-versions misses a browser type`);
  const B = browser.name;
  return `
/** The browser version of each browser type ({@link ${B}}). */
export const BrowserVersions = {
${entries.map(([k, v]) => `  ${key(k)}: ${v},`).join('\n')}
} as const satisfies Record<${B}, number>;

/** The browser version of a browser type. */
export function browserVersion<T extends ${B}>(browserType: T): (typeof BrowserVersions)[T] {
  return BrowserVersions[browserType];
}
`;
}

/** The TypeScript module for a bundled OpenAPI document (parsed JSON). */
export function generateConstants(document: unknown, options: GenerateOptions = {}): string {
  if (!isObject(document) || !isObject(document.components) || !isObject(document.components.schemas)) {
    fail('the document has no components.schemas');
  }
  const schemas: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(document.components.schemas)) if (isObject(schema)) schemas[name] = schema;

  const enums = new Map<string, EnumInfo>();
  for (const [name, schema] of Object.entries(schemas)) {
    if ('x-enum-varnames' in schema) enums.set(name, enumInfo(name, schema));
  }
  const opens: OpenSet[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const o = openSet(name, schema, enums);
    if (o) opens.push(o);
  }

  // Every exported name must be unique.
  const exported = new Map<string, string>();
  const claim = (name: string, by: string) => {
    if (!IDENTIFIER.test(name)) fail(`${name} (for ${by}) is not an identifier`);
    const other = exported.get(name);
    if (other !== undefined) fail(`${name} is exported for both ${other} and ${by}`);
    exported.set(name, by);
  };
  for (const e of enums.values()) for (const suffix of ['', 'Values', 'Meanings']) claim(`${e.name}${suffix}`, e.name);
  for (const o of opens) {
    claim(o.name, o.name);
    if (o.pattern) {
      claim(`${o.name}Pattern`, o.name);
      claim(`is${o.name}`, o.name);
    }
  }

  const parts = [
    `// Generated by scripts/build.ts from ${options.source ?? 'the bundled OpenAPI document'}. Do not edit by hand.`,
    '// One runtime object, value type, value list and meaning map per enumeration (x-enum-varnames); types for the',
    '// open sets; helpers for the tables of the constants document.',
    '',
    ...[...enums.values()].map(emitEnum),
    ...opens.map(emitOpenSet),
    emitGranularities(schemas, enums),
    emitCheckIntervals(schemas, enums, opens),
    emitBrowserVersions(schemas, enums),
  ];
  return `${parts
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
