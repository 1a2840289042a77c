// `monitoring-service-api coverage`: what a test suite exercised of the contract. Reads running mocks and saved
// reports (one per test worker or CI shard), merges them, prints the union as a table, Markdown, JSON or JUnit, and
// is a CI gate with --min and --require: exit 1 naming what is missing, 2 on bad usage or a report it cannot read.

import {
  type CoverageFormat,
  type CoverageReport,
  checkCoverage,
  coverageFormats,
  formatCoverage,
  mergeCoverage,
  readCoverageReport,
} from '../coverage/index.js';
import { credentialAddress } from '../fetch/address.js';
import { BodyTooLargeError, capBody } from '../fetch/capped-body.js';
import { readNamedFile, UnreadableFile } from '../files.js';
import { runCoveragePath } from '../mock/worlds/paths.js';
import { terminalText } from '../output/escape.js';
import { type Command, numberOption, parseCommandWithFiles, program, UsageError } from './args.js';
import { unwritable, writeWhole } from './files.js';
import { testApiTokenVariable } from './mock.js';
import { commandError } from './names.js';

/** The largest report read, from a file or a mock: a report of a contract many times this one's size. */
const maxReportBytes = 16 * 1024 * 1024;
/** How long a mock has to answer. */
const mockTimeoutMs = 10_000;

export const coverageCommand = {
  summary: "what your tests exercised of the contract: a running mock's coverage or saved reports, merged; a CI gate",
  usage: `Usage: ${program} coverage [FILE...] [--mock URL]... [--format table|markdown|json|junit] [--out FILE]
       [--min PERCENT] [--require NAME,...]

Reads the coverage of running mocks (GET ${runCoveragePath}: every world of the run) and of reports saved as JSON
(control.coverage(), --format json: one per test worker or CI shard), merges them into their union, and prints it.
  FILE               a report saved as JSON; several are merged.
  --mock URL         a running mock's address (http://127.0.0.1:4010): its coverage now, every world's; repeatable. With
                     ${testApiTokenVariable} in the environment, sent as the test API's token.
  --format F         table (for a terminal, the default), markdown (a pull request comment), json (a report to merge
                     later) or junit (CI: an item not covered is skipped; a required one, and a percent below --min,
                     fail).
  --out FILE         write it to FILE (whole, once every report was read) instead of standard output.
  --min PERCENT      fail unless at least PERCENT (0 to 100) of what the percent counts is covered.
  --require NAMES    fail unless each of these items is covered, comma-separated (repeatable): operations
                     (listMonitors), statuses (getMonitor:404), documented errors (monitor-does-not-exist),
                     behaviours (access-token-expired).
  --insecure         allow plain http to a mock on another machine when ${testApiTokenVariable} is sent.
  -h, --help         this help.
The percent counts the operations called with a request the contract accepts, the statuses each operation documents
itself that were answered, the documented errors answered and the behaviours the simulator played; the statuses the
operations list from the core document's global table (section 7) are shown, not counted.
Exit status: 0 written, and --min and --require met; 1 written, and not met (each missing item named on standard
error); 2 a wrong option, a name --require does not know, or a report that could not be read (a file that is not
one, a mock that does not answer).`,
  options: {
    mock: { type: 'string', multiple: true },
    format: { type: 'string', default: 'table' },
    out: { type: 'string' },
    min: { type: 'string' },
    require: { type: 'string', multiple: true },
    insecure: { type: 'boolean', default: false },
  },
} satisfies Command;

/** A report that could not be read: the command exits 2 saying which and why. */
const unreadable = (message: string) => new UsageError(terminalText(message));

/** A report saved as JSON. */
function fileReport(file: string): CoverageReport {
  let text: string;
  try {
    text = readNamedFile(
      file,
      maxReportBytes,
      (size) => `has ${size} bytes; ${program} coverage reads reports of at most ${maxReportBytes}`,
    );
  } catch (error) {
    if (error instanceof UnreadableFile) throw unreadable(`${file} ${error.message}`);
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw unreadable(`${file} is not JSON (${(error as Error).message})`);
  }
  try {
    return readCoverageReport(value, file);
  } catch (error) {
    throw unreadable((error as Error).message);
  }
}

/** The root of a mock from `--mock`: its address without a path, checked as an address a token may go to. */
function mockRoot(value: string, sendsToken: boolean, insecure: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--mock must be a mock's address such as http://127.0.0.1:4010, not ${JSON.stringify(value)}.\n${coverageCommand.usage}`,
    );
  }
  if (url.pathname !== '/' || url.search || url.hash)
    throw new UsageError(
      `--mock ${terminalText(value)}: give the mock's own address (${url.origin}), where its test API is, not a path under it.\n${coverageCommand.usage}`,
    );
  if (!sendsToken) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`--mock must be an http(s) address, not ${JSON.stringify(value)}.\n${coverageCommand.usage}`);
    return url.origin;
  }
  try {
    return credentialAddress('mock', url.origin, insecure);
  } catch (error) {
    throw commandError(error, coverageCommand.usage, { mock: '--mock' });
  }
}

/** The coverage of a running mock, now. */
async function mockReport(root: string, token: string | undefined): Promise<CoverageReport> {
  const where = `the mock at ${root}`;
  let response: Response;
  try {
    response = await fetch(`${root}${runCoveragePath}`, {
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      redirect: 'manual',
      signal: AbortSignal.timeout(mockTimeoutMs),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw unreadable(`${where} does not answer (${(error as Error).message}${cause}): is it running, on that port?`);
  }
  let text: string;
  try {
    text = await capBody(response, maxReportBytes).text();
  } catch (error) {
    if (BodyTooLargeError.is(error)) throw unreadable(`${where} answered more than ${maxReportBytes} bytes: not a coverage report`);
    throw unreadable(`${where} did not finish its answer (${(error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unreadable(`${where} answered ${response.status} without JSON: is it a mock of this package?`);
  }
  if (response.status !== 200) {
    const message = typeof (value as { message?: unknown })?.message === 'string' ? (value as { message: string }).message : '';
    throw unreadable(`${where} answered ${response.status}${message ? `: ${message.slice(0, 300)}` : ''}`);
  }
  try {
    return readCoverageReport(value, where);
  } catch (error) {
    throw unreadable((error as Error).message);
  }
}

/** The names of --require, each occurrence comma-separated. */
const requiredNames = (values: string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean);

/** `coverage`: reads, merges, writes; the exit status says whether the gate passed. */
export async function runCoverage(args: string[], env: Record<string, string | undefined> = process.env): Promise<void> {
  const { values, files } = parseCommandWithFiles(coverageCommand, args);
  if (values.help) {
    console.log(coverageCommand.usage);
    return;
  }
  const format = String(values.format) as CoverageFormat;
  if (!coverageFormats.includes(format))
    throw new UsageError(
      `--format must be one of ${coverageFormats.join(', ')}, not ${JSON.stringify(values.format)}.\n${coverageCommand.usage}`,
    );
  const min = numberOption('min', values.min, coverageCommand.usage, { whole: false, range: [0, 100] });
  const required = requiredNames(values.require as string[] | undefined);
  const mocks = (values.mock as string[] | undefined) ?? [];
  if (files.length === 0 && mocks.length === 0)
    throw new UsageError(
      `Name the reports to read: files saved as JSON, or --mock URL for a running mock (--mock http://127.0.0.1:4010).\n${coverageCommand.usage}`,
    );
  const token = env[testApiTokenVariable] || undefined;
  const roots = mocks.map((mock) => mockRoot(mock, token !== undefined, values.insecure === true));
  const out = typeof values.out === 'string' && values.out !== '' ? values.out : undefined;
  const problem = out === undefined ? undefined : unwritable(out);
  if (problem) throw new UsageError(`--out ${out}: cannot write it (${problem}).\n${coverageCommand.usage}`);
  const reports = [...files.map(fileReport), ...(await Promise.all(roots.map((root) => mockReport(root, token))))];
  let report: CoverageReport;
  let text: string;
  let check: ReturnType<typeof checkCoverage>;
  try {
    report = mergeCoverage(reports);
    check = checkCoverage(report, { min, require: required });
    text = formatCoverage(report, { format, min, require: required });
  } catch (error) {
    // Reports of different contracts, or a --require name none of them knows.
    throw commandError(error instanceof TypeError ? error : new TypeError((error as Error).message), coverageCommand.usage);
  }
  if (out === undefined) process.stdout.write(text);
  else writeWhole(out, text);
  if (!check.passed) {
    console.error(check.failures.map((failure) => terminalText(`${program} coverage: ${failure}`)).join('\n'));
    process.exitCode = 1;
  }
}
