// What the validating proxy reports of each exchange: the violations of the request and the answer by side and
// location, the operation reached, credentials redacted; the lines of a terminal, and the summary by operation. The
// proxy keeps the last `maxReports` exchanges in memory and a tally of all of them, so that a proxy running for days
// holds a bounded memory whatever the traffic.
// This file is part of the proxy's public types: it imports nothing of the HTTP layer (whose types name Node's
// Buffer), so that a project without Node's types compiles against them; the log that reads calls is exchange-log.ts.
import { counted } from '../output/count.js';
import { terminalText } from '../output/escape.js';

export interface ReportedViolation {
  side: 'request' | 'response';
  /** Where, e.g. `body.data.monitor_id`, `path.monitor_id`, `status`, `upstream`. */
  location: string;
  severity: 'Error' | 'Warning';
  message: string;
}

export interface ExchangeReport {
  time: string;
  method: string;
  /** The request target, with the values of credential parameters redacted (`client_secret=[redacted]`). */
  url: string;
  /** The operation of the contract the request reached, when it reached one. */
  operation?: string | undefined;
  status: number;
  /** False when the proxy answered itself (a request it would not or could not forward). */
  forwarded: boolean;
  violations: ReportedViolation[];
}

/** One exchange as readable lines: a verdict line, then one line per violation. */
export function formatReport(report: ExchangeReport): string {
  const mark = report.violations.some((violation) => violation.severity === 'Error') ? '✖' : report.violations.length > 0 ? '⚠' : '✔';
  const head = `${mark} ${report.method} ${report.url} → ${report.status}${report.operation ? `  (${report.operation})` : ''}${report.forwarded ? '' : '  [not forwarded]'}`;
  const lines = [
    head,
    ...report.violations.map(
      (violation) =>
        `    ${violation.side} ${violation.location}: ${violation.message}${violation.severity === 'Warning' ? '  (warning)' : ''}`,
    ),
  ];
  // What the upstream sent may hold escape sequences: none reaches the terminal.
  return lines.map(terminalText).join('\n');
}

/** The counts of a summary, kept for every exchange of a proxy's life (its reports keep only the last ones). */
export interface ReportTally {
  exchanges: number;
  broken: number;
  requestViolations: number;
  responseViolations: number;
  unanswered: number;
  /** Broken exchanges by operation (or method and target, for one that reached none); bounded in keys. */
  byOperation: Map<string, number>;
}

/** The most keys of a tally by operation: the operations of the contract fit, and made-up targets end in "other". */
const maxTallyKeys = 100;

export const emptyTally = (): ReportTally => ({
  exchanges: 0,
  broken: 0,
  requestViolations: 0,
  responseViolations: 0,
  unanswered: 0,
  byOperation: new Map(),
});

/** Adds one exchange to a tally. */
export function addToTally(tally: ReportTally, report: ExchangeReport): void {
  tally.exchanges++;
  if (report.violations.some((violation) => violation.location === 'upstream')) tally.unanswered++;
  if (report.violations.length === 0) return;
  tally.broken++;
  for (const violation of report.violations) tally[violation.side === 'request' ? 'requestViolations' : 'responseViolations']++;
  let key = report.operation ?? `${report.method} ${report.url}`;
  if (!tally.byOperation.has(key) && tally.byOperation.size >= maxTallyKeys) key = '(other requests)';
  tally.byOperation.set(key, (tally.byOperation.get(key) ?? 0) + 1);
}

/** The closing summary of a tally: how many exchanges broke the contract, by operation. */
export function describeTally(tally: ReportTally): string {
  const lines = [
    `${counted(tally.exchanges, 'exchange')} checked against the contract; ${tally.broken} broke it (${counted(tally.requestViolations, 'request violation')}, ${counted(tally.responseViolations, 'response violation')})${tally.unanswered ? `; the upstream did not answer ${tally.unanswered}` : ''}.`,
  ];
  for (const [operation, times] of tally.byOperation) lines.push(`  ${operation}: ${times}`);
  return lines.map(terminalText).join('\n');
}

/** The closing summary of reports: how many exchanges broke the contract, by operation. */
export function summarizeReports(reports: readonly ExchangeReport[]): string {
  const tally = emptyTally();
  for (const report of reports) addToTally(tally, report);
  return describeTally(tally);
}

/** How many exchanges a proxy keeps in `reports` by default. */
export const defaultMaxReports = 1_000;
