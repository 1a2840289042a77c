// The validating proxy: Prism in proxy mode on the mock document, in front of a server that implements the API.
// Every request and every answer is checked against the contract; what breaks it is reported (the readable report
// of formatReport, and Prism's `sl-violations` header on the answer), and the answer goes back to the client as
// the implementation gave it (with `errors: true`, Prism answers 422 for a bad request and 500 for a bad answer).
//
// The upstream is the server's root: the proxy forwards /api/... and /oauth/... with their paths as they are.
import type http from 'node:http';
import { closeServer, createFront, listen, type Answer, type Call, type Violation } from './front.js';
import { compileRoutes, matchRoute } from './mock-routes.js';
import { headerOf } from './mock-front.js';
import { outputs } from './paths.js';
import { readFileSync } from 'node:fs';
import { startPrism, urlOf, type PrismLogLevel, type PrismProcess } from './prism-process.js';

export interface ProxyOptions {
  /** The implementation, e.g. http://127.0.0.1:8080 (it serves /api/... and /oauth/...). */
  upstream: string;
  port?: number;
  host?: string;
  /** Prism's --errors: a request that breaks the contract is not forwarded (422), an answer that breaks it becomes 500. */
  errors?: boolean;
  /** The mock document (generated/mock/openapi.json by default). */
  document?: string;
  logLevel?: PrismLogLevel;
  startTimeoutMs?: number;
  onOutput?: (text: string) => void;
  /** Called with each exchange, as it completes. */
  onReport?: (report: ExchangeReport) => void;
}

export interface ReportedViolation {
  side: 'request' | 'response';
  /** Where, e.g. `body.data.monitor_id`, `path.monitor_id`, `status`. */
  location: string;
  severity: 'Error' | 'Warning';
  message: string;
}

export interface ExchangeReport {
  time: string;
  method: string;
  url: string;
  /** The operation of the contract the request reached, when it reached one. */
  operation?: string;
  status: number;
  /** False when the proxy answered itself (a request it could not forward). */
  forwarded: boolean;
  violations: ReportedViolation[];
}

export interface RunningProxy {
  url: string;
  port: number;
  upstream: string;
  /** Every exchange so far. */
  reports: ExchangeReport[];
  pids(): { front: number; prism: number };
  stop(): Promise<void>;
  closed: Promise<{ reason: string }>;
}

function toReported(violation: Violation): ReportedViolation {
  const [first = 'request', ...rest] = violation.location ?? [];
  const side = first === 'response' ? 'response' : 'request';
  // Prism repeats the location in the message ("Response body property data.x must be string"): keep the rule.
  const message = violation.message
    .replace(/^(Request|Response) /, '')
    .replace(/^(body property \S+|body|(path|query|header|cookie) parameter \S+) (?=must |should |is |has )/, '');
  return {
    side,
    location: rest.length > 0 ? rest.join('.') : side === 'response' ? 'status' : 'request',
    severity: violation.severity === 'Warning' ? 'Warning' : 'Error',
    message: message.charAt(0).toLowerCase() + message.slice(1),
  };
}

/** The violations of an exchange: Prism's sl-violations header, or (--errors) the validation list of its problem. */
function violationsOf(answer: Answer): Violation[] {
  const header = headerOf(answer, 'sl-violations');
  const parse = (text: string) => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const fromHeader = header ? parse(header) : undefined;
  if (Array.isArray(fromHeader)) return fromHeader;
  if (String(headerOf(answer, 'content-type') ?? '').startsWith('application/problem+json')) {
    const problem = parse(answer.body.toString('utf8'));
    if (Array.isArray(problem?.validation)) {
      // Prism's 422 names the location without the side ("body"): it is the request's.
      return problem.validation.map((violation: Violation) =>
        violation.location?.[0] === 'request' || violation.location?.[0] === 'response' ? violation : { ...violation, location: ['request', ...(violation.location ?? [])] },
      );
    }
  }
  return [];
}

/** One exchange as readable lines: a verdict line, then one line per violation. */
export function formatReport(report: ExchangeReport): string {
  const mark = report.violations.some((violation) => violation.severity === 'Error') ? '✖' : report.violations.length > 0 ? '⚠' : '✔';
  const head = `${mark} ${report.method} ${report.url} → ${report.status}${report.operation ? `  (${report.operation})` : ''}${report.forwarded ? '' : '  [not forwarded]'}`;
  return [head, ...report.violations.map((violation) => `    ${violation.side} ${violation.location}: ${violation.message}${violation.severity === 'Warning' ? '  (warning)' : ''}`)].join('\n');
}

/** The closing summary: how many exchanges broke the contract, by operation. */
export function summarizeReports(reports: ExchangeReport[]): string {
  const broken = reports.filter((report) => report.violations.length > 0);
  const count = (side: 'request' | 'response') => broken.reduce((sum, report) => sum + report.violations.filter((violation) => violation.side === side).length, 0);
  const lines = [
    `${reports.length} exchange(s) checked against the contract; ${broken.length} broke it (${count('request')} request violation(s), ${count('response')} response violation(s)).`,
  ];
  const byOperation = new Map<string, number>();
  for (const report of broken) byOperation.set(report.operation ?? `${report.method} ${report.url}`, (byOperation.get(report.operation ?? `${report.method} ${report.url}`) ?? 0) + 1);
  for (const [operation, times] of byOperation) lines.push(`  ${operation}: ${times}`);
  return lines.join('\n');
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch {
    throw new Error(`--upstream must be a URL such as http://127.0.0.1:8080, not "${options.upstream}".`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`--upstream must be an http(s) URL, not "${options.upstream}".`);
  const documentFile = options.document ?? outputs().mockDocument;
  const routes = compileRoutes(JSON.parse(readFileSync(documentFile, 'utf8')));
  const host = options.host ?? '127.0.0.1';
  const prism: PrismProcess = await startPrism({
    command: 'proxy',
    document: documentFile,
    upstream: upstream.href.replace(/\/$/, ''),
    extraArgs: options.errors ? ['--errors'] : [],
    logLevel: options.logLevel,
    startTimeoutMs: options.startTimeoutMs,
    onOutput: options.onOutput,
  });
  const reports: ExchangeReport[] = [];
  let resolveClosed!: (value: { reason: string }) => void;
  const closed = new Promise<{ reason: string }>((resolve) => (resolveClosed = resolve));
  let stopping = false;

  const record = (call: Call | undefined, answer: Answer, forwarded: boolean) => {
    const operation = call ? matchRoute(routes, call.segments, call.method)?.operation : undefined;
    const report: ExchangeReport = {
      time: new Date().toISOString(),
      method: call?.method ?? '?',
      url: call?.url ?? '(not valid HTTP)',
      operation: operation ? `${operation.operationId} ${operation.method.toUpperCase()} ${operation.template}` : undefined,
      status: answer.status,
      forwarded,
      violations: violationsOf(answer).map(toReported),
    };
    reports.push(report);
    options.onReport?.(report);
  };

  const server: http.Server = createFront({
    upstream: async () => ({ host: prism.host, port: prism.port }),
    upstreamAlive: () => prism.running(),
    policy: {
      before: () => undefined,
      after: (call, answer) => {
        record(call, answer, true);
        return answer;
      },
      onFault: (call, answer) => record(call, answer, false),
    },
    // The implementation decides what it accepts; the proxy only protects Prism from what would kill it.
    maxBodyBytes: 64 * 1024 * 1024,
    label: 'the proxy',
  });
  let port: number;
  try {
    port = await listen(server, options.port ?? 0, host);
  } catch (error) {
    await prism.stop();
    throw error;
  }
  void prism.exited.then(({ code, signal }) => {
    if (stopping) return;
    stopping = true;
    void closeServer(server, 200).then(() => resolveClosed({ reason: `Prism exited (${signal ?? `code ${code}`}):\n${prism.output()}` }));
  });

  return {
    url: urlOf(host, port),
    port,
    upstream: upstream.href,
    reports,
    pids: () => ({ front: process.pid, prism: prism.pid }),
    stop: async () => {
      const wasStopping = stopping;
      stopping = true;
      await closeServer(server);
      await prism.stop();
      if (!wasStopping) resolveClosed({ reason: 'stopped' });
    },
    closed,
  };
}
