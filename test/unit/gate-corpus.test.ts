// The corpus of the release gate: small changes, each on a tiny description or a small declaration file, each with the
// rule that must judge it, the direction of the place, and the verdict (pass, refuse, or pass with a line in the
// release notes). The gate's own rules judge them in this process (redocly diff's are the integration tier's). The
// table of CONTRIBUTING.md ("How the gate judges a change") says the same: a test reads one against the other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiChanges } from '../../scripts/lib/api-changes.js';
import { type Change, describeGate, judgeChanges, wayForward } from '../../scripts/lib/breaking-changes.js';
import { root } from '../../scripts/lib/paths.js';
import type { Json } from '../support/bundle.js';
import { reportOf } from '../support/declarations.js';

type Verdict = 'pass' | 'refuse' | 'notice';

interface Case {
  name: string;
  rule: string;
  direction: string;
  verdict: Verdict;
  change: (document: Json) => void;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** A tiny description: monitors listed (an answer) and created (a request), an open and a closed set, a constant no operation uses. */
const release: Json = {
  openapi: '3.1.0',
  info: { title: 'Tiny', version: '2.0' },
  paths: {
    '/monitors': {
      get: {
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'The monitors.', ...json({ type: 'array', items: ref('Monitor') }) },
          '401': { description: 'No token.', ...json(ref('Error')) },
        },
      },
      post: {
        requestBody: { required: true, ...json(ref('MonitorCreate')) },
        responses: { '201': { description: 'Created.', ...json(ref('Monitor')) } },
      },
    },
  },
  components: {
    schemas: {
      Monitor: {
        type: 'object',
        additionalProperties: true,
        required: ['monitor_id', 'name'],
        properties: {
          monitor_id: { type: 'string' },
          name: { type: 'string' },
          uptime: { type: 'number' },
          type: ref('MonitorType'),
          status: ref('MonitorStatus'),
        },
      },
      KnownMonitorType: { type: 'string', enum: ['URL', 'PING'] },
      MonitorType: { anyOf: [ref('KnownMonitorType'), { type: 'string' }] },
      MonitorStatus: { type: 'integer', enum: [0, 1] },
      MonitorCreate: {
        type: 'object',
        required: ['display_name'],
        properties: {
          display_name: { type: 'string' },
          description: { type: ['string', 'null'] },
          check_interval: { type: 'integer', enum: [1, 5] },
          note: { type: 'string' },
        },
      },
      Error: { type: 'object', additionalProperties: true, properties: { code: { type: 'integer' }, message: { type: 'string' } } },
      SlaType: { type: 'integer', enum: [1, 2] },
    },
  },
};

const schemas = (document: Json) => document.components.schemas;
const list = (document: Json) => document.paths['/monitors'].get;

const descriptionCases: Case[] = [
  // What passes.
  {
    name: 'an optional attribute added to an answer',
    rule: 'property-added',
    direction: 'answer',
    verdict: 'pass',
    change: (d) => {
      schemas(d).Monitor.properties.note = { type: 'string' };
    },
  },
  {
    name: 'an attribute added to an answer as always there',
    rule: 'required-added',
    direction: 'answer',
    verdict: 'pass',
    change: (d) => {
      schemas(d).Monitor.properties.region = { type: 'string' };
      schemas(d).Monitor.required.push('region');
    },
  },
  {
    name: 'a value added to the known values of an open set',
    rule: 'open-set-value-added',
    direction: 'answer',
    verdict: 'pass',
    change: (d) => {
      schemas(d).KnownMonitorType.enum.push('DNS');
    },
  },
  {
    name: 'a value added to a set a client sends',
    rule: 'enum-value-added',
    direction: 'request',
    verdict: 'pass',
    change: (d) => {
      schemas(d).MonitorCreate.properties.check_interval.enum.push(10);
    },
  },
  {
    name: 'an optional attribute added to a request',
    rule: 'property-added',
    direction: 'request',
    verdict: 'pass',
    change: (d) => {
      schemas(d).MonitorCreate.properties.tags = { type: 'array', items: { type: 'string' } };
    },
  },
  {
    name: 'a request attribute no longer required',
    rule: 'required-removed',
    direction: 'request',
    verdict: 'pass',
    change: (d) => {
      schemas(d).MonitorCreate.required = [];
    },
  },
  {
    name: 'the type of a request attribute widened',
    rule: 'type-widened',
    direction: 'request',
    verdict: 'pass',
    change: (d) => {
      schemas(d).MonitorCreate.properties.note.type = ['string', 'null'];
    },
  },
  {
    name: 'a named schema added',
    rule: 'schema-added',
    direction: 'any',
    verdict: 'pass',
    change: (d) => {
      schemas(d).Tag = { type: 'string' };
    },
  },
  {
    name: 'an operation added',
    rule: 'operation-added',
    direction: 'any',
    verdict: 'pass',
    change: (d) => {
      d.paths['/monitors/{id}'] = { delete: { responses: { '204': { description: 'Deleted.' } } } };
    },
  },
  {
    name: 'an optional query parameter added',
    rule: 'optional-parameter-added',
    direction: 'request',
    verdict: 'pass',
    change: (d) => {
      list(d).parameters.push({ name: 'offset', in: 'query', schema: { type: 'integer' } });
    },
  },
  {
    name: 'an optional response header added',
    rule: 'response-header-added',
    direction: 'answer',
    verdict: 'pass',
    change: (d) => {
      list(d).responses['200'].headers = { 'X-Total': { schema: { type: 'integer' } } };
    },
  },
  {
    name: 'a new documented error status',
    rule: 'response-added',
    direction: 'answer',
    verdict: 'notice',
    change: (d) => {
      list(d).responses['429'] = { description: 'Too many requests.', ...json(ref('Error')) };
    },
  },
  // What is refused.
  {
    name: 'an attribute removed from an answer',
    rule: 'property-removed',
    direction: 'answer',
    verdict: 'refuse',
    change: (d) => {
      delete schemas(d).Monitor.properties.uptime;
    },
  },
  {
    name: 'an attribute renamed in a request',
    rule: 'property-removed',
    direction: 'request',
    verdict: 'refuse',
    change: (d) => {
      const properties = schemas(d).MonitorCreate.properties;
      properties.remark = properties.note;
      delete properties.note;
    },
  },
  {
    name: 'an answer attribute no longer required',
    rule: 'required-removed',
    direction: 'answer',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).Monitor.required = ['monitor_id'];
    },
  },
  {
    name: 'a request attribute made required',
    rule: 'required-added',
    direction: 'request',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).MonitorCreate.required.push('note');
    },
  },
  {
    name: 'the type of a request attribute narrowed',
    rule: 'type-narrowed',
    direction: 'request',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).MonitorCreate.properties.description.type = 'string';
    },
  },
  {
    name: 'the type of an answer attribute narrowed (number to integer)',
    rule: 'type-narrowed',
    direction: 'answer',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).Monitor.properties.uptime.type = 'integer';
    },
  },
  {
    name: 'the type of an answer attribute widened (may now be null)',
    rule: 'type-widened',
    direction: 'answer',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).Monitor.properties.name.type = ['string', 'null'];
    },
  },
  {
    name: 'a value added to a closed set of an answer',
    rule: 'enum-value-added',
    direction: 'answer',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).MonitorStatus.enum.push(5);
    },
  },
  {
    name: 'a value added to a closed constant no operation uses',
    rule: 'enum-value-added',
    direction: 'both',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).SlaType.enum.push(3);
    },
  },
  {
    name: 'a value removed from a set a client sends',
    rule: 'enum-value-removed',
    direction: 'any',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).MonitorCreate.properties.check_interval.enum = [1];
    },
  },
  {
    name: 'a named schema removed (a constant)',
    rule: 'schema-removed',
    direction: 'any',
    verdict: 'refuse',
    change: (d) => {
      delete schemas(d).SlaType;
    },
  },
  {
    name: 'an open answer closed to unknown attributes',
    rule: 'additional-properties-narrowed',
    direction: 'any',
    verdict: 'refuse',
    change: (d) => {
      schemas(d).Monitor.additionalProperties = false;
    },
  },
  {
    name: 'a query parameter added as required',
    rule: 'required-parameter-added',
    direction: 'request',
    verdict: 'refuse',
    change: (d) => {
      list(d).parameters.push({ name: 'page', in: 'query', required: true, schema: { type: 'integer' } });
    },
  },
  {
    name: 'an optional query parameter made required',
    rule: 'parameter-became-required',
    direction: 'request',
    verdict: 'refuse',
    change: (d) => {
      list(d).parameters[0].required = true;
    },
  },
];

/** A small package: options in, a client and monitors out, a set of each kind, a function with a parameter to narrow. */
const declarations = `
export interface ClientOptions { baseUrl?: string; timeoutMs?: number; auth: { token: string }; retry?: 'never' | 'idempotent' }
export interface Monitor { id: string; note?: string; status: 'up' | 'down' }
export type Method = 'GET' | 'POST';
export type EventKind = 'request' | 'answer';
export interface Client { get(path: string, method?: Method): Promise<Monitor> }
export declare function createClient(options: ClientOptions): Client;
export declare function kindOf(event: object): EventKind;
export declare function format(value: string | number): string;
export declare function parse(text: string): number | undefined;
export declare function pad(text: string, width?: number): string;
export declare function at(index: number): string;
export declare function at(key: string): string;
export declare const apiVersion: '2.0';
`;

/** An API case: `edit` rewrites the declarations (a text replacement that must apply). */
const api = (name: string, rule: string, direction: string, verdict: Verdict, edit: [string, string]) => ({
  name,
  rule,
  direction,
  verdict,
  edit,
});

const apiCases = [
  api('an export added', 'export-added', 'any', 'pass', [
    "export declare const apiVersion: '2.0';",
    "export declare const apiVersion: '2.0';\nexport declare const x: 1;",
  ]),
  api('an optional option added', 'optional-member-added', 'input', 'pass', ['baseUrl?: string;', 'baseUrl?: string; userAgent?: string;']),
  api('a member added to a result', 'required-member-added', 'output', 'pass', ['id: string;', 'id: string; name: string;']),
  api('an option widened', 'member-type-widened', 'input', 'pass', ["'never' | 'idempotent'", "'never' | 'idempotent' | 'always'"]),
  api('an option made optional', 'member-made-optional', 'input', 'pass', ['auth: {', 'auth?: {']),
  api('a member of a result made required', 'member-made-required', 'output', 'pass', ['note?: string', 'note: string']),
  api('a member of a result narrowed', 'member-type-narrowed', 'output', 'pass', ["status: 'up' | 'down'", "status: 'up'"]),
  api('a value added to a set users pass in', 'value-added', 'input', 'pass', ["'GET' | 'POST'", "'GET' | 'POST' | 'PUT'"]),
  api('an optional parameter added', 'optional-parameter-added', 'input', 'pass', [
    '(options: ClientOptions)',
    '(options: ClientOptions, extra?: boolean)',
  ]),
  api('a parameter widened', 'parameter-type-widened', 'input', 'pass', ['value: string | number', 'value: string | number | boolean']),
  api('what a function returns narrowed', 'return-type-narrowed', 'output', 'pass', ['): number | undefined;', '): number;']),
  api('an export removed', 'export-removed', 'any', 'refuse', ["export declare const apiVersion: '2.0';", '']),
  api('an export of another kind', 'export-changed', 'any', 'refuse', [
    "export type Method = 'GET' | 'POST';",
    "export declare const Method: 'GET' | 'POST';",
  ]),
  api('an option renamed', 'member-removed', 'any', 'refuse', ['timeoutMs?: number', 'timeout?: number']),
  api('a required option added', 'required-member-added', 'input', 'refuse', ['auth: {', 'region: string; auth: {']),
  api('an option made required', 'member-made-required', 'input', 'refuse', ['baseUrl?: string', 'baseUrl: string']),
  api('a member of a result made optional', 'member-made-optional', 'output', 'refuse', [
    "status: 'up' | 'down'",
    "status?: 'up' | 'down'",
  ]),
  api('an option narrowed', 'member-type-narrowed', 'input', 'refuse', ["'never' | 'idempotent'", "'never'"]),
  api('a member of a result widened', 'member-type-widened', 'output', 'refuse', ['id: string;', 'id: string | number;']),
  api('a member changed', 'member-type-changed', 'any', 'refuse', ['timeoutMs?: number', 'timeoutMs?: string']),
  api('a value added to a set the package gives', 'value-added', 'output', 'refuse', [
    "'request' | 'answer'",
    "'request' | 'answer' | 'error'",
  ]),
  api('a value removed from a set', 'value-removed', 'any', 'refuse', ["'GET' | 'POST'", "'GET'"]),
  api('a required parameter added', 'required-parameter-added', 'input', 'refuse', [
    '(options: ClientOptions)',
    '(options: ClientOptions, region: string)',
  ]),
  api('a parameter narrowed', 'parameter-type-narrowed', 'input', 'refuse', ['value: string | number', 'value: string']),
  api('a parameter removed', 'parameter-removed', 'input', 'refuse', ['(options: ClientOptions)', '()']),
  api('what a function returns widened', 'return-type-widened', 'output', 'refuse', ['): EventKind;', '): EventKind | undefined;']),
  api('a parameter made required', 'parameter-made-required', 'input', 'refuse', ['width?: number', 'width: number']),
  api('an overload removed', 'signature-removed', 'input', 'refuse', ['export declare function at(key: string): string;\n', '']),
  api('the type of a constant changed', 'export-type-changed', 'any', 'refuse', ["apiVersion: '2.0'", "apiVersion: '2.1'"]),
];

const verdictOf = (change: Change): Verdict => (change.impact === 'major' ? 'refuse' : change.impact === 'notice' ? 'notice' : 'pass');

/** The change of a case's rule, and whether the gate refuses the revision. */
function judge(changes: Change[], rule: string) {
  return { found: changes.filter((change) => change.ruleId === rule), refused: changes.some((change) => change.impact === 'major') };
}

/** The corpus case holds: its rule found the change at a place of its direction, with its verdict, and the gate agrees. */
function expectCase(entry: { rule: string; direction: string; verdict: Verdict }, changes: Change[], text: string) {
  const { found, refused } = judge(changes, entry.rule);
  const matching = found.filter((change) => entry.direction === 'any' || change.direction === entry.direction);
  expect(matching, text).not.toHaveLength(0);
  expect(matching.map(verdictOf), text).toContain(entry.verdict);
  expect(refused, text).toBe(entry.verdict === 'refuse');
}

/** The judgement on the types made from the description, as a case of the API table. */
const descriptionTypeCase = { rule: 'description-type-changed', direction: 'any', verdict: 'pass' as const };

describe('the corpus of the gate: changes to the description', () => {
  it.each(descriptionCases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const revision = structuredClone(release);
    entry.change(revision);
    const result = judgeChanges(release, revision, []);
    const text = describeGate(result, 'the release');
    expectCase(entry, result.changes, text);
    if (entry.verdict === 'refuse') {
      // Refused with its rule, its pointer, and the way forward.
      const [refusal] = result.breaking.filter((change) => change.ruleId === entry.rule);
      expect(text).toContain(`(${entry.rule}, ${refusal!.pointer})`);
      expect(refusal!.pointer).toMatch(/^#\/(components|paths)\//);
      expect(text).toContain(wayForward);
    }
    if (entry.verdict === 'notice') expect(text).toMatch(/belong in the release notes[\s\S]*response-added/);
  });
});

describe('the corpus of the gate: changes to the TypeScript API', () => {
  const base = reportOf(declarations);

  it.each(apiCases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const [from, to] = entry.edit;
    expect(declarations, `the edit of "${entry.name}" must apply`).toContain(from);
    const changes = apiChanges(base, reportOf(declarations.replace(from, to)));
    const text = changes.map((change) => `${change.impact} ${change.ruleId} ${change.direction} ${change.pointer}`).join('\n');
    expectCase(entry, changes, text);
    if (entry.verdict === 'refuse') {
      // Refused as the release check says it: with its rule, its pointer, and the way forward.
      const breaking = changes.filter((change) => change.impact === 'major');
      const said = describeGate({ breaking, notices: [], versionChanged: false, revisionVersion: '2.0' }, 'the release');
      const refusal = breaking.find((change) => change.ruleId === entry.rule)!;
      expect(refusal.pointer).toMatch(/^monitoring-service-api#/);
      expect(said).toContain(`(${entry.rule}, ${refusal.pointer})`);
      expect(said).toContain(wayForward);
    }
  });

  it('judges the types made from the description by its rules, not as text', () => {
    const generated = (properties: string) => `export interface components { schemas: { Monitor: { ${properties} } } }`;
    const index = "import type { components } from './generated/types.js';\nexport type Monitor = components['schemas']['Monitor'];";
    const changes = apiChanges(
      reportOf(index, generated('monitor_id: string;')),
      reportOf(index, generated('monitor_id: string; note?: string;')),
    );
    expectCase(descriptionTypeCase, changes, JSON.stringify(changes));
  });
});

/** The rows of a table of CONTRIBUTING.md under a heading: `rule | direction | verdict`. */
function tableRows(heading: string): string[] {
  const text = readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `CONTRIBUTING.md has the heading "${heading}"`).toBeGreaterThan(-1);
  const rows: string[] = [];
  for (const line of text.slice(start + heading.length + 2).split('\n')) {
    if (line.startsWith('#')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 6 || cells[1] === 'Rule' || cells[1]!.startsWith('---')) continue;
    rows.push(`${cells[1]!.replaceAll('`', '')} | ${cells[2]} | ${cells[3]}`);
  }
  return rows;
}

describe('the table of CONTRIBUTING.md and the corpus', () => {
  const triples = (cases: { rule: string; direction: string; verdict: Verdict }[]) =>
    [...new Set(cases.map((entry) => `${entry.rule} | ${entry.direction} | ${entry.verdict}`))].sort();

  it.each([
    ['description', '### Changes to the description', triples(descriptionCases)],
    ['TypeScript API', '### Changes to the TypeScript API', triples([...apiCases, descriptionTypeCase])],
  ] as const)('agree on every rule, direction and verdict of the %s', (_table, heading, corpus) => {
    expect(corpus).toEqual([...new Set(tableRows(heading))].sort());
  });

  it('holds at least 30 changes, 12 that pass and 12 that are refused', () => {
    const all = [...descriptionCases, ...apiCases];
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.filter((entry) => entry.verdict === 'pass').length).toBeGreaterThanOrEqual(12);
    expect(all.filter((entry) => entry.verdict === 'refuse').length).toBeGreaterThanOrEqual(12);
  });
});
