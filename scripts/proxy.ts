// The validating proxy, in the foreground: point your client (or test suite) at it, and it reports every request
// and every answer of your implementation that breaks the contract. Stops on Ctrl-C, SIGTERM or SIGHUP and prints
// a summary.
//   npm run proxy -- --upstream http://127.0.0.1:8080 [--port 4011] [--host 127.0.0.1] [--errors] [--quiet]
//                    [--report violations.jsonl] [--verbose]
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { whenLauncherGone } from './lib/launcher-watch.js';
import { formatReport, startProxy, summarizeReports, type ExchangeReport } from './lib/proxy-server.js';

const usage = `Usage: npm run proxy -- --upstream http://127.0.0.1:8080 [--port 4011] [--host 127.0.0.1] [--errors] [--quiet] [--report FILE] [--verbose]
  --upstream URL   the server that implements the API (its root: it serves /api/... and /oauth/...). Required.
  --port N         port of the proxy (0: a free one). Default 4011.
  --host H         address to listen on. Default 127.0.0.1.
  --errors         a request that breaks the contract is not forwarded (422); an answer that breaks it becomes 500.
  --quiet          print only the exchanges that break the contract.
  --report FILE    also write every exchange as one JSON line to FILE (rewritten on start).
  --verbose        print Prism's own log.`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

let values;
try {
  ({ values } = parseArgs({
    strict: true,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string', default: '4011' },
      host: { type: 'string', default: '127.0.0.1' },
      errors: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      report: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.upstream) fail(`--upstream is required.\n${usage}`);
if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) fail(`--port must be a number from 0 to 65535, not "${values.port}".\n${usage}`);
const reportFile = values.report;
if (reportFile) writeFileSync(reportFile, '');

const onReport = (report: ExchangeReport) => {
  if (!values.quiet || report.violations.length > 0) console.log(formatReport(report));
  if (reportFile) appendFileSync(reportFile, `${JSON.stringify(report)}\n`);
};

try {
  const proxy = await startProxy({
    upstream: values.upstream,
    port: Number(values.port),
    host: values.host,
    errors: values.errors,
    onReport,
    onOutput: values.verbose ? (text) => process.stderr.write(text) : undefined,
  });
  console.log(
    [
      `Validating proxy of the Monitoring Service API (Prism proxy) is listening.`,
      `  Send your calls to ${proxy.url} (API root ${proxy.url}/api, identity provider ${proxy.url});`,
      `  they go to ${proxy.upstream} and every request and answer is checked against the contract.`,
      `  Mode: ${values.errors ? '--errors (a bad request gets 422 and is not forwarded; a bad answer becomes 500)' : 'report only (answers pass through unchanged, with an sl-violations header)'}`,
      `  Processes: proxy pid ${process.pid}, Prism pid ${proxy.pids().prism}`,
      `Stop it with Ctrl-C for a summary.`,
    ].join('\n'),
  );
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) process.exit(1);
    stopping = true;
    await proxy.stop();
    console.log(summarizeReports(proxy.reports));
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(0));
  whenLauncherGone(() => void shutdown(0));
  void proxy.closed.then(({ reason }) => {
    if (stopping) return;
    console.error(`The proxy stopped: ${reason}`);
    void shutdown(1);
  });
} catch (error) {
  fail((error as Error).message, 1);
}
