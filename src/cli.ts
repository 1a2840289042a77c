// The command line of monitoring-service-api: `monitoring-service-api mock` serves the contract mock and
// `monitoring-service-api proxy --upstream URL` the validating proxy, each in this one process, until Ctrl-C
// (SIGINT), SIGTERM or SIGHUP, or until the process that started it goes away. `monitoring-service-api verify`
// checks a running service against the contract once and exits with a status that says how it went.
import { accessSync, appendFileSync, constants, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmHint, parseOptions, UsageError, type OptionSpec } from './args.js';
import { whenLauncherGone } from './launcher-watch.js';
import { terminalText } from './output/escape.js';
import { dataCenters } from '../generated/client.js';
import { engineInstallCommand, startMock, type RunningMock } from './mock/index.js';
import { formatReport, startProxy, summarizeReports, type ExchangeReport } from './proxy/index.js';
import { formatCheck, formatMarkdown, formatSummary, resolveVerifyOptions, verifyDefaults, verifyExitCodes, verifyService, writeOperations, type VerifyAuth, type VerifyOptions } from './verify/index.js';

const program = 'monitoring-service-api';

interface Command {
  summary: string;
  usage: string;
  options: OptionSpec;
}

const mockCommand = {
  summary: 'serve the contract mock (API root /api, identity provider at the root)',
  usage: `Usage: ${program} mock [--port 4010] [--host 127.0.0.1] [--max-body-bytes 1048576] [--log]
  --port N            port to listen on (0: a free one, printed on start). Default 4010.
  --host H            address to listen on. Default 127.0.0.1 (loopback only).
  --max-body-bytes N  largest request body accepted (413 above). Default 1048576.
  --max-connections N most connections open at once (more are closed). Default 256.
  --log               print one line per request: method, target (credential parameters redacted), status.
  -h, --help          this help.`,
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'max-body-bytes': { type: 'string' },
    'max-connections': { type: 'string' },
    log: { type: 'boolean', default: false },
  },
} satisfies Command;

const proxyCommand = {
  summary: 'the validating proxy in front of an implementation of the API',
  usage: `Usage: ${program} proxy --upstream http://127.0.0.1:8080 [--port 4011] [--host 127.0.0.1] [--errors] [--quiet] [--report FILE] [--timeout-ms 30000]
  --upstream URL    the server that implements the API (its root: it serves /api/... and /oauth/...). Required.
  --port N          port to listen on (0: a free one). Default 4011.
  --host H          address to listen on. Default 127.0.0.1.
  --errors          refuse a request that breaks the contract (422, not forwarded); an answer that breaks it becomes 500.
  --quiet           print only the exchanges that break the contract.
  --report FILE     also write every exchange as one JSON line to FILE (rewritten on start; credentials redacted).
  --timeout-ms N    how long the upstream has to answer one request (then 504). Default 30000.
  --max-body-bytes N    largest request body taken (413 above). Default 1048576.
  --max-answer-bytes N  largest upstream answer read (502 above). Default 8388608.
  --max-connections N   most connections open at once (more are closed). Default 256.
  -h, --help        this help.`,
  options: {
    upstream: { type: 'string' },
    port: { type: 'string', default: '4011' },
    host: { type: 'string', default: '127.0.0.1' },
    errors: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    report: { type: 'string' },
    'timeout-ms': { type: 'string' },
    'max-body-bytes': { type: 'string' },
    'max-answer-bytes': { type: 'string' },
    'max-connections': { type: 'string' },
  },
} satisfies Command;

/** What verify prints after a usage error: its synopsis, and where the rest is. */
const verifyHint = () =>
  `Usage: ${program} verify --base-url URL [--auth-url URL] [--data-center ID] [--accounts] [--allow OPERATION]... [options]\nRun ${program} verify --help for every option, the credentials and the exit statuses.`;

/** The environment variables verify reads its credentials from (never options: they would show in a process list). */
export const credentialVariables = {
  refreshToken: 'REFRESH_TOKEN',
  clientId: 'CLIENT_ID',
  clientSecret: 'CLIENT_SECRET',
  accessToken: 'ACCESS_TOKEN',
} as const;

const verifyCommand = {
  summary: 'check a running service (a data center, your implementation, the mock) against the contract',
  usage: `Usage: ${program} verify --base-url URL [--auth-url URL] [--data-center ID] [--accounts] [--allow OPERATION]...
       [--budget ${verifyDefaults.budget}] [--rate ${verifyDefaults.ratePerSecond}] [--json FILE] [--markdown FILE] [--quiet]

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
    quiet: { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
  },
} satisfies Command;

const commands: Record<string, Command> = { mock: mockCommand, proxy: proxyCommand, verify: verifyCommand };

export const usage = `Usage: ${program} <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join('\n')}

${program} <command> --help shows the options of a command; ${program} --version the version.`;

/** Parses a command's options; throws a UsageError naming the fault, with the usage (and the npm hint). */
const parse = (command: Command, args: string[]) => parseOptions(command.usage, command.options, args);

function portOf(value: string | boolean | undefined, command: Command): number {
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${text}".\n${command.usage}`);
  return Number(text);
}

function positiveOf(name: string, value: string | boolean | undefined, command: Command): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(String(value))) throw new UsageError(`--${name} must be a positive number, not "${String(value)}".\n${command.usage}`);
  return Number(value);
}

/** Stops `stop` on SIGINT, SIGTERM, SIGHUP or when the launching process goes; a second signal forces the exit. */
function stopOnSignals(what: string, stop: () => Promise<void>, after: () => void = () => {}) {
  let stopping = false;
  const shutdown = (why: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(why);
    void stop().then(() => {
      after();
      process.exit(0);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(`${signal}: stopping the ${what}.`));
  // Started by a process that has gone (npm stopped by SIGTERM ends its shell but not this one; a closed
  // terminal; a test runner that died): stop rather than linger.
  whenLauncherGone(() => shutdown(`The process that started the ${what} has gone: stopping.`));
}

export function mockBanner(mock: RunningMock): string {
  return [
    `Mock of the Monitoring Service API (Prism's engine, in this process) is listening.`,
    `  API root ({base_url}):           ${mock.baseUrl}`,
    `  Identity provider ({auth_url}):  ${mock.authUrl}`,
    `  Try: curl -H 'Authorization: Service-oauthtoken any-token' ${mock.baseUrl}/monitors`,
    `  Errors on demand: -H 'Prefer: code=404' (or code=400, 401, 403, 500; example=NAME).`,
    `  Process: pid ${process.pid}`,
    `Stop it with Ctrl-C.`,
  ].join('\n');
}

/** `mock`: serves the mock until a signal. `extraBanner` adds lines to the start-up banner (npm start: the docs). */
export async function runMock(args: string[], extraBanner = ''): Promise<void> {
  const values = parse(mockCommand, args);
  if (values.help) {
    console.log(mockCommand.usage);
    return;
  }
  const port = portOf(values.port, mockCommand);
  const maxBodyBytes = positiveOf('max-body-bytes', values['max-body-bytes'], mockCommand);
  const maxConnections = positiveOf('max-connections', values['max-connections'], mockCommand);
  const mock = await startMock({ port, host: String(values.host), maxBodyBytes, maxConnections, ...(values.log ? { onAnswer: logLine } : {}) });
  console.log(`${mockBanner(mock)}${extraBanner ? `\n${extraBanner}` : ''}`);
  stopOnSignals('mock', mock.stop);
}

function logLine(method: string, target: string, status: number) {
  console.log(terminalText(`${new Date().toISOString()} ${method} ${target} → ${status}`));
}

/** `proxy`: the validating proxy until a signal; prints a summary when it stops. */
export async function runProxy(args: string[]): Promise<void> {
  const values = parse(proxyCommand, args);
  if (values.help) {
    console.log(proxyCommand.usage);
    return;
  }
  if (typeof values.upstream !== 'string' || values.upstream === '') throw new UsageError(`--upstream is required.${npmHint(proxyCommand.options)}\n${proxyCommand.usage}`);
  const port = portOf(values.port, proxyCommand);
  const timeoutMs = positiveOf('timeout-ms', values['timeout-ms'], proxyCommand);
  const maxBodyBytes = positiveOf('max-body-bytes', values['max-body-bytes'], proxyCommand);
  const maxAnswerBytes = positiveOf('max-answer-bytes', values['max-answer-bytes'], proxyCommand);
  const maxConnections = positiveOf('max-connections', values['max-connections'], proxyCommand);
  const reportFile = typeof values.report === 'string' ? values.report : undefined;
  if (reportFile) writeFileSync(reportFile, '');
  const onReport = (report: ExchangeReport) => {
    if (!values.quiet || report.violations.length > 0) console.log(formatReport(report));
    if (reportFile) appendFileSync(reportFile, `${JSON.stringify(report)}\n`);
  };
  let proxy;
  try {
    proxy = await startProxy({ upstream: values.upstream, port, host: String(values.host), errors: values.errors === true, timeoutMs, maxBodyBytes, maxAnswerBytes, maxConnections, onReport });
  } catch (error) {
    // The library names its option; here it is the flag.
    if (error instanceof TypeError && error.message.startsWith('upstream ')) throw new UsageError(`--${error.message}\n${proxyCommand.usage}`);
    throw error;
  }
  console.log(
    [
      `Validating proxy of the Monitoring Service API (Prism's engine, in this process) is listening.`,
      `  Send your calls to ${proxy.url} (API root ${proxy.url}/api, identity provider ${proxy.url});`,
      `  they go to ${proxy.upstream} and every request and answer is checked against the contract.`,
      `  Mode: ${values.errors ? '--errors (a bad request gets 422 and is not forwarded; a bad answer becomes 500)' : 'report only (answers pass through unchanged, with an sl-violations header)'}`,
      `  Process: pid ${process.pid}`,
      `Stop it with Ctrl-C for a summary.`,
    ].join('\n'),
  );
  if (!proxy.upstreamCheck.answered) {
    console.error(`Warning: the upstream ${proxy.upstream} does not answer (${proxy.upstreamCheck.reason}): every call will be reported as a failure (502) until it does.`);
  }
  stopOnSignals('proxy', proxy.stop, () => console.log(summarizeReports(proxy.reports)));
}

/** Why a file cannot be written, or undefined when it can: its folder must take files, and the file, if any, writes. */
function unwritable(file: string): string | undefined {
  try {
    if (existsSync(file)) {
      if (statSync(file).isDirectory()) return 'it is a folder';
      accessSync(file, constants.W_OK);
    } else {
      accessSync(path.dirname(path.resolve(file)), constants.W_OK);
    }
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Writes a file whole or not at all: a new file beside it, renamed over it. */
function writeWhole(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** Credentials from the environment: a refresh token with its client, or an access token. */
export function credentialsFrom(env: Record<string, string | undefined>): VerifyAuth {
  const { refreshToken, clientId, clientSecret, accessToken } = credentialVariables;
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  if (value(refreshToken) !== undefined || (value(accessToken) === undefined && (value(clientId) !== undefined || value(clientSecret) !== undefined))) {
    const missing = [refreshToken, clientId, clientSecret].filter((name) => value(name) === undefined);
    if (missing.length > 0) throw new UsageError(`verify needs ${missing.join(' and ')} in the environment too (a refresh token goes with its client ID and secret).\n${verifyHint()}`);
    return { refreshToken: value(refreshToken)!, clientId: value(clientId)!, clientSecret: value(clientSecret)! };
  }
  if (value(accessToken) !== undefined) return { accessToken: value(accessToken)! };
  throw new UsageError(
    `verify needs credentials from the environment: ${refreshToken}, ${clientId} and ${clientSecret} (a token is asked from --auth-url), or ${accessToken}. ` +
      `They are never options, so that no process list shows them. The mock accepts any values, e.g. ${accessToken}=any.\n${verifyHint()}`,
  );
}

function numberOf(name: string, value: string | boolean | string[] | undefined, whole: boolean): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const valid = whole ? /^[1-9]\d*$/.test(text) : /^(\d+(\.\d+)?|\.\d+)$/.test(text) && Number(text) > 0;
  if (!valid) throw new UsageError(`--${name} must be a ${whole ? 'whole ' : ''}number > 0, not "${text}".\n${verifyHint()}`);
  return Number(text);
}

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
    auth: credentialsFrom(env),
    accounts: values.accounts === true,
    allow: Array.isArray(values.allow) ? values.allow : [],
    unknownMonitorId: text('unknown-monitor-id'),
    budget: numberOf('budget', values.budget, true),
    ratePerSecond: numberOf('rate', values.rate, false),
    timeoutMs: numberOf('timeout-ms', values['timeout-ms'], true),
    maxWaitMs: numberOf('max-wait-ms', values['max-wait-ms'], true),
    insecure: values.insecure === true,
    ...(values.quiet ? {} : { onCheck: (check) => console.error(formatCheck(check)) }),
  };
  if (options.baseUrl === undefined && options.dataCenter === undefined) throw new UsageError(`--base-url is required.${npmHint(verifyCommand.options)}\n${verifyHint()}`);
  try {
    resolveVerifyOptions(options);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${verifyHint()}`);
  }
  const jsonFile = text('json');
  const markdownFile = text('markdown');
  // Before the run, without touching the files: a path that cannot be written is a usage error.
  for (const [option, file] of [['--json', jsonFile], ['--markdown', markdownFile]] as const) {
    if (!file) continue;
    const problem = unwritable(file);
    if (problem) throw new UsageError(`${option} ${file}: cannot write it (${problem}).\n${verifyHint()}`);
  }
  let report;
  try {
    report = await verifyService(options);
  } catch (error) {
    console.error(terminalText(`verify could not run: ${error instanceof Error ? error.message : String(error)}`));
    process.exitCode = verifyExitCodes.incomplete;
    return;
  }
  if (jsonFile) writeWhole(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  if (markdownFile) writeWhole(markdownFile, formatMarkdown(report));
  console.log(formatSummary(report));
  if (jsonFile || markdownFile) console.log(`Reports: ${[jsonFile, markdownFile].filter(Boolean).join(', ')}`);
  process.exitCode = report.exitCode;
}

/** The version of this package, from its package.json. */
function version(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === program) return String(manifest.version);
    } catch {
      // not here: one folder up
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

/** Runs the command line; resolves once a long-running command is serving (it then runs until a signal). */
export async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    console.log(topic && commands[topic] ? commands[topic].usage : usage);
    return;
  }
  if (name === '--version' || name === '-v') {
    console.log(version());
    return;
  }
  if (name === 'mock') return runMock(args);
  if (name === 'proxy') return runProxy(args);
  if (name === 'verify') return runVerify(args);
  throw new UsageError(`Unknown command ${JSON.stringify(name)}.${name.startsWith('-') ? npmHint({}) : ''}\n${usage}`);
}

/** Prints the error of a failed command and exits: 2 for a usage error, 1 otherwise. */
export function fail(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof UsageError ? 2 : 1);
}
