// verify's report as JUnit XML, the form CI systems read (GitHub, GitLab, Jenkins, Azure): one test case per call
// of the run (operation, account, error path); a failure lists the violations with their JSON pointers; a call that
// could not be judged (not sent, no answer, a documented answer other than the one aimed at) is skipped, with why.
import { counted } from '../output/count.js';
import { xmlText } from '../output/escape.js';
import type { CheckReport, VerifyReport } from './types.js';

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/** An XML attribute value, quoted. */
const attribute = (name: string, value: string | number) => `${name}="${xmlText(String(value))}"`;

function testCase(check: CheckReport): string {
  const account = check.account ? ` as the first ${check.account} account` : '';
  const name = `${check.method} ${check.path ?? check.template}${account}: ${check.label}`;
  const head = `    <testcase ${attribute('classname', check.operation)} ${attribute('name', name)} ${attribute('time', seconds(check.durationMs))}`;
  const notes = check.notes.length > 0 ? `\n      <system-out>${xmlText(check.notes.join('\n'))}</system-out>` : '';
  if (check.outcome === 'fail') {
    const lines = check.violations.map((violation) => `${violation.pointer ?? ''} ${violation.message} (${violation.rule})`.trim());
    const message = `${counted(check.violations.length, 'violation')} of the contract${check.status === undefined ? '' : `, status ${check.status}`}`;
    return `${head}>\n      <failure ${attribute('message', message)} type="contract">${xmlText(lines.join('\n'))}</failure>${notes}\n    </testcase>`;
  }
  if (check.outcome !== 'pass') {
    const why = check.notes[0] ?? check.outcome;
    return `${head}>\n      <skipped ${attribute('message', `${check.outcome}: ${why}`)}/>${notes}\n    </testcase>`;
  }
  return notes ? `${head}>${notes}\n    </testcase>` : `${head}/>`;
}

/** The report as a JUnit XML document: one test suite for the run, one test case per call. */
export function formatJunit(report: VerifyReport): string {
  const failures = report.checks.filter((check) => check.outcome === 'fail').length;
  const skipped = report.checks.filter((check) => check.outcome !== 'fail' && check.outcome !== 'pass').length;
  const time = seconds(Date.parse(report.finishedAt) - Date.parse(report.startedAt));
  const suite = `${report.contract.title} ${report.contract.version} at ${report.target.baseUrl}`;
  const counts = `${attribute('tests', report.checks.length)} ${attribute('failures', failures)} errors="0" ${attribute('skipped', skipped)} ${attribute('time', time)}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="monitoring-service-api verify" ${counts}>`,
    `  <testsuite ${attribute('name', suite)} ${counts} ${attribute('timestamp', report.startedAt)}>`,
    ...report.checks.map(testCase),
    ...(report.notes.length > 0 ? [`    <system-out>${xmlText(report.notes.join('\n'))}</system-out>`] : []),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
