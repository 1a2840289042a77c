// A coverage report for people and CI: a terminal summary, Markdown for a pull request comment, JUnit XML, or JSON
// to merge later. Every text of a report is escaped for where it goes (it may come from a file): control characters
// for a terminal, Markdown syntax and HTML for Markdown, XML's characters for JUnit.
import { counted } from '../output/count.js';
import { markdownText, terminalText, xmlText } from '../output/escape.js';
import { checkCoverage } from './report.js';
import type { CoverageItem, CoverageReport, NamedCoverage, OperationCoverage, StatusCoverage } from './types.js';

export const coverageFormats = ['table', 'markdown', 'json', 'junit'] as const;
export type CoverageFormat = (typeof coverageFormats)[number];

export interface CoverageFormatOptions {
  /** `table` (a terminal, the default), `markdown`, `json` or `junit`. */
  format?: CoverageFormat | undefined;
  /** The gate's minimum percent and required items, which JUnit shows as test cases. */
  min?: number | undefined;
  require?: readonly string[] | undefined;
}

/** How many uncovered items the terminal summary lists before it says how many more there are. */
const listedInTable = 12;

/** What the percent counts, in one sentence. */
export function percentMeaning(report: CoverageReport): string {
  const { global_statuses: global } = report.tally;
  return (
    'The percent counts the operations called with a request the contract accepts, the statuses each operation ' +
    'documents itself that were answered, the documented errors answered and the behaviours the simulator played. ' +
    `The ${global.total} statuses the operations list from the core document's global table (section 7, marked *) are shown, not counted (${global.covered} answered).`
  );
}

/** The tallies in a line: `3 of 10 operations, 3 of 12 statuses they document, ...`. */
function tallyLine(report: CoverageReport): string {
  const { operations, statuses, errors, behaviours } = report.tally;
  return `${operations.covered} of ${operations.total} operations, ${statuses.covered} of ${statuses.total} statuses they document themselves, ${errors.covered} of ${errors.total} documented errors, ${behaviours.covered} of ${behaviours.total} behaviours`;
}

/** A status as a report shows it: `401*` for one of the global table, `503 (undocumented)` for one not documented. */
const statusName = (status: StatusCoverage) =>
  `${status.status}${status.global_table ? '*' : ''}${status.documented ? '' : ' (undocumented)'}`;

/** What an operation answered, and the documented statuses it never did. */
function statusLines(operation: OperationCoverage): { answered: string; never: string } {
  const answered = operation.statuses.filter((status) => status.calls > 0).map((status) => `${statusName(status)} ×${status.calls}`);
  const never = operation.statuses.filter((status) => status.documented && status.calls === 0).map(statusName);
  return { answered: answered.join(', '), never: never.join(', ') };
}

const operationCovered = (operation: OperationCoverage) => operation.calls - operation.refused > 0;

const callsOf = (operation: OperationCoverage) =>
  `${operation.calls === 0 ? 'no call' : counted(operation.calls, 'call')}${operation.refused > 0 ? ` (${operation.refused} refused by the contract)` : ''}`;

/** The near misses in lines: `2 near listMonitors (GET /api/monitors): the path differs`. */
function unmatchedLines(report: CoverageReport): string[] {
  const { calls, near_misses: misses } = report.unmatched;
  if (calls === 0) return [];
  const near = misses.reduce((sum, miss) => sum + miss.calls, 0);
  return [
    ...misses.map(
      (miss) =>
        `${miss.calls} near ${miss.operation} (${miss.method} ${miss.path}): the ${miss.differs.join(' and the ')} differ${miss.differs.length > 1 ? '' : 's'}`,
    ),
    ...(calls > near ? [`${calls - near} near no operation`] : []),
  ];
}

/** The width of the terminal summary's lines. */
const width = 110;

/**
 * Items after a lead, separated by `separator` (a comma, or nothing for the words of a sentence), in lines of at most
 * `width` characters, those after the first indented as far as the lead (or by `indent`).
 */
function wrapped(lead: string, items: string[], separator = ',', indent = ' '.repeat(lead.length)): string[] {
  const lines = [lead];
  let fresh = true;
  for (const [index, item] of items.entries()) {
    const text = `${item}${index < items.length - 1 ? separator : ''}`;
    const last = lines.length - 1;
    if (!fresh && lines[last]!.length + 1 + text.length > width) lines.push(`${indent}${text}`);
    else lines[last] = fresh ? `${lines[last]}${text}` : `${lines[last]} ${text}`;
    fresh = false;
  }
  return lines;
}

/** A sentence in lines of at most `width` characters. */
const sentence = (text: string, lead = '', indent = lead) => wrapped(lead, text.split(' '), '', indent);

/** The terminal summary: the percent and what it counts, each kind, then what production will meet first. */
function table(report: CoverageReport): string {
  const lines = [
    `Contract coverage of ${report.contract.title} ${report.contract.version}: ${counted(report.exchanges, 'exchange')}.`,
    ...sentence(`Covered ${report.covered} of ${report.total} (${report.percent}%): ${tallyLine(report)}.`),
    ...sentence(percentMeaning(report)),
    '',
    `Operations (${report.tally.operations.covered} of ${report.tally.operations.total})`,
  ];
  const nameWidth = Math.max(...report.operations.map((operation) => operation.operation.length), 10);
  const pathWidth = Math.max(...report.operations.map((operation) => operation.method.length + operation.path.length + 1), 10);
  for (const operation of report.operations) {
    const mark = operationCovered(operation) ? '✔' : '✘';
    lines.push(
      `  ${mark} ${operation.operation.padEnd(nameWidth)}  ${`${operation.method} ${operation.path}`.padEnd(pathWidth)}  ${callsOf(operation)}`,
    );
    if (operation.calls === 0) continue;
    const { answered, never } = statusLines(operation);
    lines.push(`      answered ${answered || 'nothing'}${never ? `; never ${never}` : ''}`);
  }
  const named = (title: string, entries: NamedCoverage[], tally: { covered: number; total: number }) => {
    lines.push('', `${title} (${tally.covered} of ${tally.total})`);
    const covered = entries.filter((each) => each.calls > 0).map((each) => `${each.name} ×${each.calls}`);
    const missing = entries.filter((each) => each.calls === 0).map((each) => each.name);
    if (covered.length > 0) lines.push(...wrapped('  ✔ ', covered));
    if (missing.length > 0) lines.push(...wrapped('  ✘ ', missing));
  };
  named('Documented errors', report.errors, report.tally.errors);
  named('Behaviours of the simulator', report.behaviours, report.tally.behaviours);
  const unmatched = unmatchedLines(report);
  if (unmatched.length > 0)
    lines.push(
      '',
      `Calls that matched no operation: ${report.unmatched.calls} (their paths are in the request journal)`,
      ...unmatched.map((line) => `  ${line}`),
    );
  const uncovered = report.uncovered.filter((item) => item.counted);
  if (uncovered.length > 0) {
    lines.push('', 'Not covered, in the order production meets it:');
    for (const item of uncovered.slice(0, listedInTable))
      lines.push(...sentence(item.description, `  ${item.kind} ${item.name}: `, '      '));
    if (uncovered.length > listedInTable)
      lines.push(`  and ${uncovered.length - listedInTable} more (the Markdown and JSON forms list every one)`);
  }
  return `${lines.map(terminalText).join('\n')}\n`;
}

/** A Markdown table's row of cells, each already escaped. */
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

function markdown(report: CoverageReport): string {
  const text = markdownText;
  const { tally } = report;
  const uncovered = (items: CoverageItem[]) => [
    row(['Kind', 'Name', 'What']),
    row(['---', '---', '---']),
    ...items.map((item) => row([item.kind, text(item.name), text(item.description)])),
  ];
  const lines = [
    `### Contract coverage: ${report.percent}% (${report.covered} of ${report.total})`,
    '',
    `${text(`${report.contract.title} ${report.contract.version}`)}, ${counted(report.exchanges, 'exchange')}. ${text(percentMeaning(report))}`,
    '',
    row(['', 'Covered', 'Of']),
    row(['---', '---:', '---:']),
    row(['Operations', tally.operations.covered, tally.operations.total]),
    row(['Statuses the operations document themselves', tally.statuses.covered, tally.statuses.total]),
    row(['Documented errors', tally.errors.covered, tally.errors.total]),
    row(['Behaviours of the simulator', tally.behaviours.covered, tally.behaviours.total]),
    row(['**Counted in the percent**', `**${report.covered}**`, `**${report.total}**`]),
    row(['Statuses of the global table (section 7), not counted', tally.global_statuses.covered, tally.global_statuses.total]),
  ];
  const missing = report.uncovered.filter((item) => item.counted);
  if (missing.length > 0) lines.push('', '**Not covered**, in the order production meets it:', '', ...uncovered(missing));
  lines.push(
    '',
    '<details><summary>Every operation</summary>',
    '',
    row(['Operation', 'Calls', 'Refused', 'Answered', 'Documented, never answered']),
    row(['---', '---:', '---:', '---', '---']),
    ...report.operations.map((operation) => {
      const { answered, never } = statusLines(operation);
      return row([
        `${operationCovered(operation) ? '✔' : '✘'} ${text(operation.operation)} (${text(`${operation.method} ${operation.path}`)})`,
        operation.calls,
        operation.refused,
        text(answered),
        text(never),
      ]);
    }),
    '',
    '</details>',
  );
  const global = report.uncovered.filter((item) => !item.counted);
  if (global.length > 0)
    lines.push('', '<details><summary>Statuses of the global table never answered</summary>', '', ...uncovered(global), '', '</details>');
  const unmatched = unmatchedLines(report);
  if (unmatched.length > 0)
    lines.push(
      '',
      `Calls that matched no operation: ${report.unmatched.calls} (their paths are in the request journal).`,
      '',
      ...unmatched.map((line) => `- ${text(line)}`),
    );
  return `${lines.join('\n')}\n`;
}

/** An XML attribute, its value escaped. */
const attribute = (name: string, value: string | number) => `${name}="${xmlText(String(value))}"`;

function junit(report: CoverageReport, options: CoverageFormatOptions): string {
  const check = checkCoverage(report, { min: options.min, require: options.require });
  const required = new Set(options.require ?? []);
  const uncovered = new Set(report.uncovered.map((item) => item.name));
  const items = [
    ...report.behaviours.map((entry) => ({ kind: 'behaviour', name: entry.name, description: entry.description })),
    ...report.errors.map((entry) => ({ kind: 'error', name: entry.name, description: entry.description })),
    ...report.operations.map((operation) => ({
      kind: 'operation',
      name: operation.operation,
      description: `${operation.method} ${operation.path}`,
    })),
    ...report.operations.flatMap((operation) =>
      operation.statuses
        .filter((status) => status.documented)
        .map((status) => ({
          kind: status.global_table ? 'status of the global table' : 'status',
          name: `${operation.operation}:${status.status}`,
          description: `${operation.method} ${operation.path} answering ${status.status}`,
        })),
    ),
  ];
  const cases = items.map(({ kind, name, description }) => {
    const head = `    <testcase ${attribute('classname', kind)} ${attribute('name', `${name}: ${description}`)}`;
    if (!uncovered.has(name)) return `${head}/>`;
    if (required.has(name))
      return `${head}>\n      <failure ${attribute('message', 'required, not covered')} type="coverage"/>\n    </testcase>`;
    return `${head}>\n      <skipped ${attribute('message', 'not covered')}/>\n    </testcase>`;
  });
  if (options.min !== undefined) {
    const below = check.failures.find((failure) => failure.includes('below the minimum'));
    const head = `    <testcase classname="coverage" ${attribute('name', `at least ${options.min}% covered`)}`;
    cases.push(below ? `${head}>\n      <failure ${attribute('message', below)} type="coverage"/>\n    </testcase>` : `${head}/>`);
  }
  const failures = cases.filter((entry) => entry.includes('<failure')).length;
  const skipped = cases.filter((entry) => entry.includes('<skipped')).length;
  const counts = `${attribute('tests', cases.length)} ${attribute('failures', failures)} errors="0" ${attribute('skipped', skipped)}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="monitoring-service-api coverage" ${counts}>`,
    `  <testsuite ${attribute('name', `Contract coverage of ${report.contract.title} ${report.contract.version}: ${report.percent}% (${report.covered} of ${report.total})`)} ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * A coverage report as text: `table` for a terminal (the default), `markdown` for a pull request comment, `json` to
 * save and merge later, `junit` for CI (an item not covered is skipped; a required one, and a percent below `min`,
 * fail). Throws an OptionError for a `min` or `require` the gate refuses.
 */
export function formatCoverage(report: CoverageReport, options: CoverageFormatOptions = {}): string {
  const format = options.format ?? 'table';
  if (!coverageFormats.includes(format))
    throw new TypeError(`format must be one of ${coverageFormats.join(', ')}, not ${JSON.stringify(format)}`);
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'markdown') return markdown(report);
  if (format === 'junit') return junit(report, options);
  return table(report);
}
