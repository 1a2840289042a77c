// A verify report for people: a terminal summary by operation, one line per check as it completes, and Markdown
// that a team can attach to an issue. (The JSON report is the VerifyReport itself.)

import { codeNames, type OptionNames, option, say } from '../options.js';
import { counted } from '../output/count.js';
import { markdownText, terminalText } from '../output/escape.js';
import type { ContractViolation } from './judge.js';
import type { CheckOutcome, CheckReport, OperationSummary, VerifyReport } from './types.js';

const marks: Record<CheckOutcome, string> = { pass: '✔', unconfirmed: '○', fail: '✖', incomplete: '?', skipped: '-' };

function where(violation: ContractViolation): string {
  if (violation.pointer !== undefined) return violation.pointer === '' ? '(body)' : violation.pointer;
  return violation.rule === 'media-type' ? 'Content-Type' : violation.rule === 'status' ? 'status' : violation.rule;
}

/** One check in one line: `✖ GET /device_key → 200  getDeviceKey: 1 violation`. */
export function formatCheck(check: CheckReport): string {
  const account = check.account ? ` [${check.account} account]` : '';
  const status = check.status === undefined ? '' : ` → ${check.status}`;
  const extra = check.purpose === 'documented-call' ? '' : `, ${check.label}`;
  const counts = [
    check.violations.length > 0 ? counted(check.violations.length, 'violation') : '',
    check.undescribed.length > 0 ? `${counted(check.undescribed.length, 'attribute')} not described` : '',
    check.outcome === 'incomplete' || check.outcome === 'skipped' || check.outcome === 'unconfirmed' ? check.outcome : '',
  ].filter(Boolean);
  // The path and the notes come from the service's answers: no escape sequence of theirs reaches the terminal.
  return terminalText(
    `${marks[check.outcome]} ${check.method} ${check.path ?? check.template}${status}  ${check.operation}${extra}${account}${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`,
  );
}

function checkName(check: CheckReport): string {
  const parts = [check.purpose === 'documented-call' && !check.account ? '' : check.label.replace(/^documented call, /, '')].filter(
    Boolean,
  );
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function verdict(summary: OperationSummary): string {
  const parts: string[] = [];
  if (summary.violations > 0) parts.push(counted(summary.violations, 'violation'));
  else parts.push(summary.outcome === 'pass' ? 'pass' : summary.outcome);
  if (summary.undescribed > 0) parts.push(`${counted(summary.undescribed, 'attribute')} not described`);
  return parts.join(', ');
}

const signedIn = (report: VerifyReport) =>
  report.target.auth === 'refresh token' ? 'signed in with a refresh token' : 'with an access token';

function resultLine(report: VerifyReport): string {
  const failing = report.operations.filter((operation) => operation.violations > 0).length;
  const violations = report.checks.reduce((sum, check) => sum + check.violations.length, 0);
  const undescribed = report.undescribed.length;
  const open = report.checks.filter((check) => check.outcome === 'incomplete' || check.outcome === 'skipped').length;
  const drift = undescribed > 0 ? `; ${counted(undescribed, 'attribute')} the contract does not describe (allowed)` : '';
  if (report.result === 'broken') {
    return `BROKEN: the service breaks the contract: ${counted(violations, 'violation')} in ${counted(failing, 'operation')}${drift}${open ? `; ${counted(open, 'call')} not verified` : ''}. Exit status ${report.exitCode}.`;
  }
  if (report.result === 'incomplete') {
    return `INCOMPLETE: no violation in what was judged, but ${counted(open, 'call')} could not be verified${drift}. Exit status ${report.exitCode}.`;
  }
  return `CLEAN: every answer agrees with the contract${drift}. Exit status ${report.exitCode}.`;
}

/** The terminal summary: one line per operation, the faults under it, what is not described, the result. */
export function formatSummary(report: VerifyReport): string {
  const seconds = ((Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000).toFixed(1);
  const lines = [
    `Verified ${report.target.baseUrl}${report.target.authUrl ? ` (identity provider ${report.target.authUrl})` : ''}${report.target.dataCenter ? `, data center ${report.target.dataCenter}` : ''} against ${report.contract.title} ${report.contract.version}.`,
    `${counted(report.limits.requestsSent, 'request')} (budget ${report.limits.budget}, at most ${report.limits.ratePerSecond} per second) in ${seconds} s; ${signedIn(report)}.`,
    '',
  ];
  const idWidth = Math.max(...report.operations.map((operation) => operation.operation.length), 10);
  const pathWidth = Math.max(...report.operations.map((operation) => operation.method.length + operation.template.length + 1), 10);
  const callsWidth = Math.max(...report.operations.map((operation) => counted(operation.calls, 'call').length), 6);
  for (const summary of report.operations) {
    lines.push(
      `${marks[summary.outcome]} ${summary.operation.padEnd(idWidth)}  ${`${summary.method} ${summary.template}`.padEnd(pathWidth)}  ${counted(summary.calls, 'call').padEnd(callsWidth)}  ${verdict(summary)}`,
    );
    for (const attribute of report.undescribed.filter((entry) => entry.operation === summary.operation)) {
      const times = [
        attribute.count > attribute.calls ? counted(attribute.count, 'time') : '',
        attribute.calls > 1 ? `in ${counted(attribute.calls, 'call')}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      lines.push(
        `    ${attribute.status} ${attribute.pointer} (${attribute.types.join(' or ')}${times ? `, ${times}` : ''}): not described by the contract (allowed)`,
      );
    }
    for (const check of report.checks.filter((entry) => entry.operation === summary.operation)) {
      const status = check.status === undefined ? '' : `${check.status} `;
      for (const violation of check.violations) lines.push(`    ${status}${where(violation)}: ${violation.message}${checkName(check)}`);
      for (const note of check.notes)
        lines.push(`    ${check.outcome === 'pass' || check.outcome === 'fail' ? 'note' : check.outcome}: ${note}${checkName(check)}`);
    }
  }
  if (report.undocumentedStatuses.length > 0) {
    lines.push(
      '',
      `Statuses the contract does not document: ${report.undocumentedStatuses.map((entry) => `${entry.operation} ${entry.status}`).join(', ')}.`,
    );
  }
  for (const note of report.notes) lines.push('', note);
  lines.push('', resultLine(report));
  return lines.map(terminalText).join('\n');
}

/** Text for a Markdown table cell: what a service sent shows as it is, never as Markdown or HTML. */
const cell = (text: string | number | undefined): string => markdownText(String(text ?? ''));

/** The longest run of backticks in a text, counted in one pass. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (const char of text) {
    run = char === '`' ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Inline code for a table cell, whatever backticks the text holds (control characters escaped, `|` too). */
function codeCell(raw: string): string {
  const text = terminalText(raw).replaceAll('|', '\\|');
  const longest = longestBacktickRun(text);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest > 0 ? ` ${text} ` : text}${fence}`;
}

function callName(check: CheckReport): string {
  return `${check.method} ${check.path ?? check.template}${check.account ? ` as the first ${check.account} account` : ''}${check.purpose === 'documented-call' ? '' : `, ${check.label}`}`;
}

/** The report in Markdown, to attach to an issue: the target, then one section per part; options as code names them. */
export function formatMarkdown(report: VerifyReport): string {
  return markdownReport(report, codeNames);
}

/** The report in Markdown, naming its options by `names` (the command line's flags: `--accounts`). */
export function markdownReport(report: VerifyReport, names: OptionNames): string {
  const lines = [
    ...markdownTarget(report, names),
    ...markdownOperations(report),
    ...markdownViolations(report),
    ...markdownUndescribed(report),
    ...markdownCalls(report),
  ];
  return `${lines.join('\n')}\n`;
}

function markdownTarget(report: VerifyReport, names: OptionNames): string[] {
  const { target, limits, options } = report;
  const chosen = [...(options.accounts ? [option('accounts', true)] : []), ...options.allow.map((name) => option('allow', name))];
  const flags = chosen.map((mention) => say([mention], names)).join(', ');
  return [
    `# Contract verification: ${report.contract.title} ${report.contract.version}`,
    '',
    '| | |',
    '|---|---|',
    `| API root | ${codeCell(target.baseUrl)} |`,
    ...(target.authUrl ? [`| Identity provider | ${codeCell(target.authUrl)} |`] : []),
    ...(target.dataCenter ? [`| Data center | ${cell(target.dataCenter)} |`] : []),
    `| Credentials | ${target.auth === 'refresh token' ? 'a refresh token (one access token asked from the identity provider)' : 'an access token'} |`,
    `| When | ${cell(report.startedAt)} to ${cell(report.finishedAt)} |`,
    `| Requests | ${limits.requestsSent} (budget ${limits.budget}, at most ${limits.ratePerSecond} per second) |`,
    `| Options | ${cell(flags || 'none')} |`,
    `| Result | **${report.result}** (exit status ${report.exitCode}) |`,
    '',
    cell(resultLine(report)),
  ];
}

function markdownOperations(report: VerifyReport): string[] {
  return [
    '',
    '## By operation',
    '',
    '| Operation | Method and path | Calls | Result | Violations | Attributes not described |',
    '|---|---|---|---|---|---|',
    ...report.operations.map(
      (summary) =>
        `| ${cell(summary.operation)} | ${codeCell(`${summary.method} ${summary.template}`)} | ${summary.calls} | ${summary.violations > 0 ? 'fail' : summary.outcome} | ${summary.violations} | ${summary.undescribed} |`,
    ),
  ];
}

function markdownViolations(report: VerifyReport): string[] {
  const violations = report.checks.flatMap((check) => check.violations.map((violation) => ({ check, violation })));
  if (violations.length === 0) return ['', '## Violations', '', 'None.'];
  return [
    '',
    '## Violations',
    '',
    '| Operation | Call | Status | Where (JSON pointer) | Rule | What |',
    '|---|---|---|---|---|---|',
    ...violations.map(
      ({ check, violation }) =>
        `| ${cell(check.operation)} | ${cell(callName(check))} | ${check.status ?? ''} | ${codeCell(where(violation))} | ${violation.rule} | ${cell(violation.message)} |`,
    ),
  ];
}

function markdownUndescribed(report: VerifyReport): string[] {
  const lines = [
    '',
    '## Not described by the contract',
    '',
    'Allowed within a version (core document, section 9: new attributes may be added), and worth adding to the description.',
    '',
  ];
  if (report.undescribed.length === 0) lines.push('No attribute.');
  else {
    lines.push(
      '| Operation | Status | Attribute (JSON pointer of its first occurrence) | Types | Times | Calls |',
      '|---|---|---|---|---|---|',
    );
    for (const attribute of report.undescribed) {
      lines.push(
        `| ${cell(attribute.operation)} | ${attribute.status} | ${codeCell(attribute.pointer)} | ${cell(attribute.types.join(', '))} | ${attribute.count} | ${attribute.calls} |`,
      );
    }
  }
  if (report.undocumentedStatuses.length > 0) {
    const statuses = report.undocumentedStatuses.map((entry) => `${entry.operation} ${entry.status}`).join(', ');
    lines.push('', `Statuses the operations do not document (each also a violation): ${statuses}.`);
  }
  return lines;
}

/** What was not verified, every call, and the notes. */
function markdownCalls(report: VerifyReport): string[] {
  const lines: string[] = [];
  const open = report.checks.filter((check) => check.outcome !== 'pass' && check.outcome !== 'fail');
  if (open.length > 0) {
    lines.push('', '## Not verified', '', '| Operation | Call | Status | Outcome | Why |', '|---|---|---|---|---|');
    for (const check of open)
      lines.push(
        `| ${cell(check.operation)} | ${cell(callName(check))} | ${check.status ?? ''} | ${check.outcome} | ${cell(check.notes.join('; '))} |`,
      );
  }
  lines.push('', '## Calls', '', '| Operation | Call | Status | Result | Requests |', '|---|---|---|---|---|');
  for (const check of report.checks)
    lines.push(`| ${cell(check.operation)} | ${cell(callName(check))} | ${check.status ?? ''} | ${check.outcome} | ${check.attempts} |`);
  const passNotes = report.checks.filter((check) => (check.outcome === 'pass' || check.outcome === 'fail') && check.notes.length > 0);
  if (passNotes.length > 0 || report.notes.length > 0) {
    lines.push('', '## Notes', '');
    for (const check of passNotes)
      for (const note of check.notes) lines.push(`- ${cell(check.operation)} (${cell(callName(check))}): ${cell(note)}`);
    for (const note of report.notes) lines.push(`- ${cell(note)}`);
  }
  return lines;
}
