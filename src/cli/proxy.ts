// `monitoring-service-api proxy`: the validating proxy in this process, until a signal.
import { appendFileSync, writeFileSync } from 'node:fs';
import { type ExchangeReport, formatReport, type RunningProxy, startProxy } from '../proxy/index.js';
import { type Command, countRule, npmHint, numberOption, parseCommand, portRule, program, UsageError } from './args.js';
import { unwritable } from './files.js';
import { commandError } from './names.js';
import { detach, serve, servingOf, servingOptions, servingUsage, untilSignalled } from './serve.js';

export const proxyCommand = {
  summary: 'the validating proxy in front of an implementation of the API',
  usage: `Usage: ${program} proxy --upstream http://127.0.0.1:8080 [--port 4011] [--host 127.0.0.1] [--errors] [--quiet] [--report FILE] [--timeout-ms 30000]
       ${program} proxy --upstream URL --detach [--pid-file FILE] [--log-file FILE] [options]
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
${servingUsage('proxy', 24)}
  -h, --help        this help.
${untilSignalled} It prints a summary by operation when it stops.`,
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
    ...servingOptions,
  },
} satisfies Command;

/** `proxy`: the validating proxy until a signal; prints a summary when it stops. */
export async function runProxy(args: string[]): Promise<void> {
  const values = parseCommand(proxyCommand, args);
  if (values.help) {
    console.log(proxyCommand.usage);
    return;
  }
  if (typeof values.upstream !== 'string' || values.upstream === '')
    throw new UsageError(`--upstream is required.${npmHint(proxyCommand.options)}\n${proxyCommand.usage}`);
  const port = numberOption('port', values.port, proxyCommand.usage, portRule)!;
  const timeoutMs = numberOption('timeout-ms', values['timeout-ms'], proxyCommand.usage, countRule);
  const maxBodyBytes = numberOption('max-body-bytes', values['max-body-bytes'], proxyCommand.usage, countRule);
  const maxAnswerBytes = numberOption('max-answer-bytes', values['max-answer-bytes'], proxyCommand.usage, countRule);
  const maxConnections = numberOption('max-connections', values['max-connections'], proxyCommand.usage, countRule);
  const reportFile = typeof values.report === 'string' ? values.report : undefined;
  // Before the proxy starts, without touching the file: a path that cannot be written is a usage error. The file is
  // emptied only once the proxy runs (or at its first report), so a run that does not start leaves it as it was.
  const problem = reportFile === undefined ? undefined : unwritable(reportFile);
  if (problem) throw new UsageError(`--report ${reportFile}: cannot write it (${problem}).\n${proxyCommand.usage}`);
  const serving = servingOf(values, proxyCommand.usage);
  if (serving.detach) return detach('proxy', 'proxy', args, proxyCommand.options, serving);
  let reportBegun = false;
  const writeReport = (text: string) => {
    if (reportFile === undefined) return;
    if (reportBegun) appendFileSync(reportFile, text);
    else writeFileSync(reportFile, text);
    reportBegun = true;
  };
  const onReport = (report: ExchangeReport) => {
    if (!values.quiet || report.violations.length > 0) console.log(formatReport(report));
    writeReport(`${JSON.stringify(report)}\n`);
  };
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstream: values.upstream,
      port,
      host: String(values.host),
      errors: values.errors === true,
      timeoutMs,
      maxBodyBytes,
      maxAnswerBytes,
      maxConnections,
      onReport,
    });
  } catch (error) {
    throw commandError(error, proxyCommand.usage);
  }
  if (!reportBegun) writeReport('');
  const mode = values.errors
    ? '--errors (a bad request gets 422 and is not forwarded; a bad answer becomes 500)'
    : 'report only (answers pass through unchanged, with an sl-violations header)';
  serve('proxy', proxy, serving, {
    banner: [
      `Validating proxy of the Monitoring Service API (Prism's engine, in this process) is listening.`,
      `  Send your calls to ${proxy.url} (API root ${proxy.url}/api, identity provider ${proxy.url});`,
      `  they go to ${proxy.upstream} and every request and answer is checked against the contract.`,
      `  Mode: ${mode}`,
      `  When it stops, it prints a summary by operation.`,
      `  Process: pid ${process.pid}`,
    ].join('\n'),
    warning: proxy.upstreamCheck.answered
      ? undefined
      : `Warning: the upstream ${proxy.upstream} does not answer (${proxy.upstreamCheck.reason}): every call will be reported as a failure (502) until it does.`,
    after: () => console.log(proxy.summary()),
  });
}
