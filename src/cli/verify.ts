// `monitoring-service-api verify`: one run against a service; the exit status says how it went.

import { dataCenters } from '../../generated/client.js';
import { engineInstallCommand } from '../mock/index.js';
import { terminalText } from '../output/escape.js';
import {
  formatCheck,
  formatJunit,
  formatSummary,
  type VerifyOptions,
  VerifyOptionsError,
  type VerifyReport,
  verifyDefaults,
  verifyExitCodes,
  verifyService,
  writeOperations,
} from '../verify/index.js';
import { markdownReport } from '../verify/report.js';
import { type Command, countRule, npmHint, numberOption, parseOptions, program, rateRule, UsageError } from './args.js';
import { credentialsFrom, credentialVariables } from './credentials.js';
import { unwritable, writeWhole } from './files.js';
import { commandError, flagNames } from './names.js';

/** What verify prints after a usage error: its synopsis, and where the rest is. */
const verifyHint = () =>
  `Usage: ${program} verify --base-url URL [--auth-url URL] [--data-center ID] [--accounts] [--allow OPERATION]... [options]\nRun ${program} verify --help for every option, the credentials and the exit statuses.`;

export const verifyCommand = {
  summary: 'check a running service (a data center, your implementation, the mock) against the contract',
  usage: `Usage: ${program} verify --base-url URL [--auth-url URL] [--data-center ID] [--accounts] [--allow OPERATION]...
       [--budget ${verifyDefaults.budget}] [--rate ${verifyDefaults.ratePerSecond}] [--json FILE] [--markdown FILE] [--junit FILE] [--quiet]

Calls every documented GET of the API, a call without a token (401) and a monitor that does not exist (404, code
1002), judges each answer against the contract (status, Content-Type, body, timestamps, envelope and error shapes),
and lists the attributes and statuses the contract does not describe. Sends nothing that creates or changes data
unless --allow names the operation.

Target:
  --base-url URL          the API root ({base_url}, ending in /api): your data center's, your implementation's, or
                          the mock's (http://127.0.0.1:4010/api).
  --auth-url URL          the identity provider ({auth_url}), needed with a refresh token (the mock's: http://127.0.0.1:4010).
  --data-center ID        one of ${Object.keys(dataCenters).join(', ')}, named in the report. The description's hosts are
                          placeholders: give the real ones with --base-url and --auth-url.
Credentials, from the environment only (never options, which a process list shows):
  ${credentialVariables.refreshToken}, ${credentialVariables.clientId}, ${credentialVariables.clientSecret}
                          verify asks the identity provider for one access token (it allows 10 in 10 minutes).
  ${credentialVariables.accessToken}            or a ready access token, when ${credentialVariables.refreshToken} is not set.
                          The mock accepts any values (e.g. ${credentialVariables.accessToken}=any).
What it sends:
  --accounts              also every GET for the first customer (MSP) and business-unit (BU portal) account, with
                          the header Cookie: zaaid=... (the zaaid of /short/msp/customers, /short/bu/business_units).
  --allow OPERATION       also send this operation once, with its documented example; it creates or changes data
                          (repeatable). Operations: ${writeOperations().join(', ')}.
  --unknown-monitor-id ID a monitor_id that does not exist, for the 404 with code 1002. Default ${verifyDefaults.unknownMonitorId}.
Bounds:
  --budget N              at most N HTTP requests in the run (identity provider included). Default ${verifyDefaults.budget}.
  --rate N                at most N requests per second (0.5: one every 2 s). Default ${verifyDefaults.ratePerSecond}.
  --timeout-ms N          time limit of one request. Default ${verifyDefaults.timeoutMs}.
  --insecure              allow plain http to another machine (credentials then cross the network unencrypted);
                          without it, --base-url and --auth-url must be https unless they are this machine.
  --max-wait-ms N         the longest Retry-After verify waits for (429, 503); longer ends the run. Default ${verifyDefaults.maxWaitMs}.
Reports:
  --json FILE             write the whole report as JSON.
  --markdown FILE         write the report as Markdown, to attach to an issue.
  --junit FILE            write the report as JUnit XML for CI: a test case per call, failures with their violations.
  --quiet                 print the summary only, not a line per call.
  -h, --help              this help.
Secrets never appear in the output, the reports or an error. Redirects are reported, never followed. The report
files are written once the run is over: a run that fails leaves earlier ones as they were.

Exit status: ${verifyExitCodes.clean} every answer agrees with the contract (attributes it does not describe are allowed);
  ${verifyExitCodes.broken} the service broke the contract; ${verifyExitCodes.usage} a wrong option, an unwritable report file or a missing credential (nothing sent);
  ${verifyExitCodes.incomplete} the run could not judge everything (no answer, token refused, server error, budget or Retry-After),
  or could not start (Prism's engine is not installed: ${engineInstallCommand}).`,
  options: {
    'base-url': { type: 'string' },
    'auth-url': { type: 'string' },
    'data-center': { type: 'string' },
    accounts: { type: 'boolean', default: false },
    allow: { type: 'string', multiple: true },
    'unknown-monitor-id': { type: 'string' },
    budget: { type: 'string' },
    rate: { type: 'string' },
    'timeout-ms': { type: 'string' },
    'max-wait-ms': { type: 'string' },
    json: { type: 'string' },
    markdown: { type: 'string' },
    junit: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
  },
} satisfies Command;

/** `verify`: one run against a service; sets the exit status (0 clean, 1 broken, 3 incomplete; 2 for usage). */
export async function runVerify(args: string[], env: Record<string, string | undefined> = process.env): Promise<void> {
  const values = parseOptions(verifyHint(), verifyCommand.options, args) as Record<string, string | boolean | string[] | undefined>;
  if (values.help) {
    console.log(verifyCommand.usage);
    return;
  }
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const options: VerifyOptions = {
    baseUrl: text('base-url'),
    authUrl: text('auth-url'),
    dataCenter: text('data-center') as VerifyOptions['dataCenter'],
    auth: credentialsFrom(env, 'verify', verifyHint()),
    accounts: values.accounts === true,
    allow: Array.isArray(values.allow) ? values.allow : [],
    unknownMonitorId: text('unknown-monitor-id'),
    budget: numberOption('budget', values.budget, verifyHint(), countRule),
    ratePerSecond: numberOption('rate', values.rate, verifyHint(), rateRule),
    timeoutMs: numberOption('timeout-ms', values['timeout-ms'], verifyHint(), countRule),
    maxWaitMs: numberOption('max-wait-ms', values['max-wait-ms'], verifyHint(), countRule),
    insecure: values.insecure === true,
    ...(values.quiet ? {} : { onCheck: (check) => console.error(formatCheck(check)) }),
    optionNames: flagNames(),
  };
  if (options.baseUrl === undefined && options.dataCenter === undefined)
    throw new UsageError(`--base-url is required.${npmHint(verifyCommand.options)}\n${verifyHint()}`);
  // The report files, each with the form it is written in.
  const reports = [
    { option: '--json', file: text('json'), write: (report: VerifyReport) => `${JSON.stringify(report, null, 2)}\n` },
    { option: '--markdown', file: text('markdown'), write: (report: VerifyReport) => markdownReport(report, flagNames()) },
    { option: '--junit', file: text('junit'), write: formatJunit },
  ].filter((entry): entry is typeof entry & { file: string } => entry.file !== undefined && entry.file !== '');
  // Before the run, without touching the files: a path that cannot be written is a usage error.
  for (const { option, file } of reports) {
    const problem = unwritable(file);
    if (problem) throw new UsageError(`${option} ${file}: cannot write it (${problem}).\n${verifyHint()}`);
  }
  let report: VerifyReport;
  try {
    report = await verifyService(options);
  } catch (error) {
    // verify names its options as code does (baseUrl); the command line says its flags.
    if (error instanceof VerifyOptionsError) throw commandError(error, verifyHint());
    console.error(terminalText(`verify could not run: ${error instanceof Error ? error.message : String(error)}`));
    process.exitCode = verifyExitCodes.incomplete;
    return;
  }
  for (const { file, write } of reports) writeWhole(file, write(report));
  console.log(formatSummary(report));
  if (reports.length > 0) console.log(`Reports: ${reports.map(({ file }) => file).join(', ')}`);
  process.exitCode = report.exitCode;
}
