// The JSON Schema of the mock's coverage report (`GET /__mock/coverage`, `control.coverage()`, `monitoring-service-api
// coverage --format json`), for tools that read the reports a test suite saves: `monitoring-service-api/coverage.schema.json`.
// Made from the bundle (its title and version, its operationIds) and the lists of what the mock counts by name (the
// simulator's behaviours, src/simulator/behaviours.ts; the documented errors, src/coverage/errors.ts); a unit test
// checks that the schema takes the reports the mock makes and refuses what the report reader (src/coverage/read.ts)
// refuses. Objects stay open (decision 0003): a later version may add an attribute without a new format.
import { documentedErrors } from '../../src/coverage/errors.js';
import { type OpenApiDocument, operationsOf, type SchemaNode } from '../../src/description/openapi.js';
import { behaviours } from '../../src/simulator/behaviours.js';

const count = (description: string) => ({ type: 'integer', minimum: 0, description });
const text = (description: string) => ({ type: 'string', maxLength: 1000, description });
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

/** An object whose every property is required. */
const object = (description: string, properties: Record<string, unknown>) => ({
  type: 'object',
  description,
  required: Object.keys(properties),
  properties,
});

/** A list of named counts whose names are those of `names`, in that order in the reports the mock makes. */
const namedList = (description: string, names: string[]) => ({
  type: 'array',
  description: `${description} This version names: ${names.join(', ')}.`,
  items: object('One of them, by its stable name.', {
    name: { enum: names, description: 'Its stable name: a name never changes meaning, so that reports are merged by it.' },
    description: text('What it is.'),
    calls: count('Exchanges that answered or played it.'),
  }),
});

/** The coverage report's JSON Schema (draft 2020-12) from a bundled description. */
export function coverageSchema(bundle: OpenApiDocument): SchemaNode {
  const operationIds = operationsOf(bundle).flatMap(({ operation }) =>
    typeof operation.operationId === 'string' ? [operation.operationId] : [],
  );
  const tally = object('Covered items of one kind.', { covered: count('Items covered.'), total: count('Items of the kind.') });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Coverage report of the monitoring-service-api mock',
    ...object(
      'What a test suite exercised of the contract, from every exchange the mock handled since it started or its coverage was cleared: ' +
        'the operations and the statuses they answered, the documented errors, the behaviours the simulator played, the calls that matched no operation. ' +
        'Reports of several mocks (test workers, CI shards) merge into their union: counts are added up, and the tallies, percent and uncovered list are made again from them. ' +
        `Made from the description ${bundle.info?.title} ${bundle.info?.version}.`,
      {
        report: { const: 'contract coverage', description: 'What this JSON is.' },
        format: { const: 1, description: 'The version of this format.' },
        contract: object('The description the mock served.', { title: text('Its title.'), version: text('Its version (info.version).') }),
        exchanges: count("The exchanges counted: the API's and the identity provider's, not the test API's."),
        covered: count('The items the percent counts that were covered.'),
        total: count(
          'The items the percent counts: the operations, the statuses each operation documents itself, the documented errors and the behaviours.',
        ),
        percent: {
          type: 'number',
          minimum: 0,
          maximum: 100,
          description: '`covered` of `total`, in percent, rounded down to one decimal.',
        },
        tally: object('Each kind apart; the statuses of the global table are not counted in the percent.', {
          operations: tally,
          statuses: tally,
          errors: tally,
          behaviours: tally,
          global_statuses: tally,
        }),
        operations: { type: 'array', description: "The description's operations, in its order.", items: ref('Operation') },
        errors: namedList(
          'The documented errors the mock can answer, read from each answer whatever made it.',
          Object.keys(documentedErrors),
        ),
        behaviours: namedList('The behaviours the simulator plays, in the order production meets them.', Object.keys(behaviours)),
        unmatched: object('Calls that matched no operation (404, 405); their paths are in the request journal.', {
          calls: count('Calls that matched no operation.'),
          near_misses: {
            type: 'array',
            description: 'Those that came close to an operation, by that operation and what differed; the rest were near none.',
            items: object('The calls near one operation.', {
              operation: { enum: operationIds, description: 'The operation they came closest to.' },
              method: text('Its method.'),
              path: text('Its path template as the mock serves it.'),
              differs: {
                type: 'array',
                items: { enum: ['method', 'path', 'server'] },
                description: 'What differed: the method, the path, or the server part (the API root /api).',
              },
              calls: count('Calls near it.'),
            }),
          },
        }),
        uncovered: {
          type: 'array',
          description:
            'What was not covered, in the order production meets it: behaviours, documented errors, operations, the statuses the operations document themselves, then those of the global table.',
          items: object('An item not covered, by the name the gate (--require, checkCoverage) takes.', {
            kind: { enum: ['behaviour', 'error', 'operation', 'status'] },
            name: text('`access-token-expired`, `monitor-does-not-exist`, `listMonitors`, `getMonitor:404`.'),
            description: text('What it is.'),
            counted: { type: 'boolean', description: 'Whether the percent counts it: every item but the statuses of the global table.' },
          }),
        },
      },
    ),
    $defs: {
      Operation: object('One operation: its calls and the statuses it answered.', {
        operation: { enum: operationIds, description: 'Its operationId.' },
        method: text('Its method, upper case.'),
        path: text('Its path template as the mock serves it (`/api/monitors/{monitor_id}`, `/oauth/v2/token`).'),
        summary: text('What it does (its summary in the description).'),
        calls: count('Calls that reached it.'),
        refused: count('Of those, the calls the contract refused before the simulator saw them.'),
        statuses: {
          type: 'array',
          description: "The statuses it documents, in the description's order, then those it answered undocumented.",
          items: object('A status.', {
            status: { type: 'integer', minimum: 100, maximum: 599 },
            documented: { type: 'boolean', description: 'The operation documents it.' },
            global_table: {
              type: 'boolean',
              description:
                "The operation lists it because the core document's global table of statuses (section 7) gives it to every call (the description's `x-global-status`): shown, not counted in the percent.",
            },
            calls: count('Answers with this status.'),
          }),
        },
      }),
    },
  };
}
