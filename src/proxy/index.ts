// monitoring-service-api/proxy: the validating proxy. It sits in front of a server that implements the API, sends
// every request on to it, and checks the request and the answer against the contract with Prism's engine in proxy
// mode. What breaks the contract is reported (formatReport, and the `sl-violations` header of the answer); the
// answer goes back to the client as the implementation gave it. An upstream that does not answer is a reported
// failure (502, or 504 after the time limit), never a pass.
//
// With `errors: true`, a request that breaks the contract is refused (422) without being forwarded, and an answer
// that breaks it becomes a 500 naming the violations. The upstream is the server's root: the proxy forwards
// /api/... and /oauth/... with their paths as they are.
import { judgedBody, judgedHeaders, type EngineInput, type EngineOperation, type EngineOutput, type EngineResult } from '../mock/engine.js';
import { engineFor } from '../mock/packaged.js';
import { checkCall, corsHeaders, errorAnswer, headerSafe, headerText, type Answer, type Call, type Violation } from '../mock/exchange.js';
import { engineInput } from '../mock/handler.js';
import { problemAnswer, toViolations } from '../mock/policy.js';
import { closeServer, createHttpServer, listen, urlOf } from '../mock/server.js';
import type { Json } from '../description/openapi.js';
import { compileRoutes, matchRoute } from '../description/routes.js';

export interface ProxyOptions {
  /** The implementation, e.g. http://127.0.0.1:8080 (it serves /api/... and /oauth/...). */
  upstream: string;
  /** Default 0: a free port. */
  port?: number | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** Refuse a request that breaks the contract (422, not forwarded); turn an answer that breaks it into a 500. */
  errors?: boolean | undefined;
  /** How long the upstream has to answer one request. Default 30 000 ms (then 504). */
  timeoutMs?: number | undefined;
  /** The bundled description to check against. Default: this package's. */
  description?: object | undefined;
  /** Called with each exchange, as it completes. */
  onReport?: ((report: ExchangeReport) => void) | undefined;
}

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
  url: string;
  /** The operation of the contract the request reached, when it reached one. */
  operation?: string | undefined;
  status: number;
  /** False when the proxy answered itself (a request it would not or could not forward). */
  forwarded: boolean;
  violations: ReportedViolation[];
}

export interface UpstreamCheck {
  /** Whether the upstream answered a plain GET of its root at start-up (any HTTP status counts). */
  answered: boolean;
  /** Why not, when it did not. */
  reason?: string | undefined;
}

export interface RunningProxy {
  /** Where to send calls: the API root is `${url}/api`, the identity provider `${url}`. */
  readonly url: string;
  readonly port: number;
  readonly upstream: string;
  /** The start-up check of the upstream. */
  readonly upstreamCheck: UpstreamCheck;
  /** Every exchange so far. */
  readonly reports: ExchangeReport[];
  stop(): Promise<void>;
  readonly closed: Promise<void>;
}

function toReported(violation: Violation): ReportedViolation {
  const [first = 'request', ...rest] = violation.location;
  const side = first === 'response' ? 'response' : 'request';
  // The engine repeats the location in the message ("Response body property data.x must be string"): keep the rule.
  const message = violation.message
    .replace(/^(Request|Response) /, '')
    .replace(/^(body property \S+|body|(path|query|header|cookie) parameter \S+) (?=must |should |is |has )/, '');
  return {
    side,
    location: rest.length > 0 ? rest.join('.') : side === 'response' ? 'status' : 'request',
    severity: violation.severity === 'Error' ? 'Error' : 'Warning',
    message: message.charAt(0).toLowerCase() + message.slice(1),
  };
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
  const unanswered = reports.filter((report) => report.violations.some((violation) => violation.location === 'upstream')).length;
  const lines = [
    `${reports.length} exchange(s) checked against the contract; ${broken.length} broke it (${count('request')} request violation(s), ${count('response')} response violation(s))${unanswered ? `; the upstream did not answer ${unanswered}` : ''}.`,
  ];
  const byOperation = new Map<string, number>();
  for (const report of broken) {
    const key = report.operation ?? `${report.method} ${report.url}`;
    byOperation.set(key, (byOperation.get(key) ?? 0) + 1);
  }
  for (const [operation, times] of byOperation) lines.push(`  ${operation}: ${times}`);
  return lines.join('\n');
}

/** Headers that belong to one connection, or that fetch sets itself. */
const notForwarded = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'content-length', 'host', 'proxy-authorization']);
/** Answer headers that no longer hold once fetch has read the body (it decodes content encodings). */
const notReturned = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade', 'content-length', 'content-encoding']);

/** Whether the upstream answers at all: a GET of its root, any status. */
export async function checkUpstream(upstream: string, timeoutMs = 3000): Promise<UpstreamCheck> {
  try {
    const response = await fetch(upstream, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.arrayBuffer();
    return { answered: true };
  } catch (error) {
    return { answered: false, reason: describeFailure(error, timeoutMs) };
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const failure = error as Error & { cause?: Error & { code?: string } };
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = failure.cause;
  return cause ? `${cause.message}${cause.code && !cause.message.includes(cause.code) ? ` (${cause.code})` : ''}` : failure.message;
}

/** The violations of an answer the proxy gave itself, from its `sl-violations` header. */
function violationsOf(answer: Answer): Violation[] {
  try {
    const parsed: unknown = JSON.parse(answer.headers['sl-violations'] ?? '[]');
    return Array.isArray(parsed) ? (parsed as Violation[]) : [];
  } catch {
    return [];
  }
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch {
    throw new Error(`--upstream must be a URL such as http://127.0.0.1:8080, not "${options.upstream}".`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`--upstream must be an http(s) URL, not "${options.upstream}".`);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const errors = options.errors ?? false;


  /** What each forwarded request was (its bytes), and what the upstream answered (its bytes), by engine object. */
  const calls = new WeakMap<EngineInput, Call>();
  const answers = new WeakMap<EngineOutput, Answer>();

  const forward = async (input: EngineInput, operation: EngineOperation | undefined): Promise<EngineOutput> => {
    const call = calls.get(input);
    if (!call) throw { name: 'UPSTREAM_REQUEST', message: 'the proxy lost the request it was forwarding', status: 500 };
    const base = upstream.href.replace(/\/$/, '');
    const headers = new Headers();
    for (const [name, value] of Object.entries(call.headers)) if (!notForwarded.has(name) && value !== undefined) headers.set(name, headerText(value)!);
    let response: Response;
    let body: Buffer;
    try {
      response = await fetch(`${base}${call.url}`, {
        method: call.method,
        headers,
        body: call.body.length > 0 && call.method !== 'GET' && call.method !== 'HEAD' ? new Uint8Array(call.body) : null,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      const reason = describeFailure(error, timeoutMs);
      const timedOut = reason.startsWith('no answer within');
      throw { name: timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNREACHABLE', message: `the upstream ${upstream.href} did not answer: ${reason}`, status: timedOut ? 504 : 502 };
    }
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!notReturned.has(name)) answerHeaders[name] = value;
    });
    // Judged as documented when the Content-Type does not contradict the documented one (judgedHeaders); the
    // client still gets the header as the upstream sent it.
    const judged = judgedHeaders(operation, response.status, answerHeaders);
    const parsed = judgedBody(answerHeaders['content-type'], response.status, body.toString('utf8'));
    const output: EngineOutput = { statusCode: response.status, headers: judged, body: parsed };
    answers.set(output, { status: response.status, headers: answerHeaders, body });
    return output;
  };

  const prepared = engineFor(options.description as Json | undefined, { kind: 'proxy', upstream: upstream.href, errors, forward });
  const routes = compileRoutes(prepared.document);
  const engine = await prepared.engine;
  const reports: ExchangeReport[] = [];

  const record = (call: Call | undefined, answer: Answer, forwarded: boolean, violations: Violation[]) => {
    const operation = call ? matchRoute(routes, call.segments, call.method)?.operation : undefined;
    const report: ExchangeReport = {
      time: new Date().toISOString(),
      method: call?.method ?? '?',
      url: call?.url ?? '(not valid HTTP)',
      operation: operation ? `${operation.operationId} ${operation.method.toUpperCase()} ${operation.template}` : undefined,
      status: answer.status,
      forwarded,
      violations: violations.map(toReported),
    };
    reports.push(report);
    options.onReport?.(report);
  };

  const answerFor = (call: Call, result: EngineResult): { answer: Answer; forwarded: boolean; violations: Violation[] } => {
    if (!result.ok) {
      const { error } = result;
      if (error.name === 'UPSTREAM_UNREACHABLE' || error.name === 'UPSTREAM_TIMEOUT') {
        const violation: Violation = { location: ['response', 'upstream'], severity: 'Error', code: error.status, message: error.message };
        return { answer: errorAnswer(error.status!, error.message, { violations: [violation] }), forwarded: true, violations: [violation] };
      }
      // A refusal of the engine (errors mode: an invalid request), as Prism's own proxy gives it.
      const validation: Violation[] = (error.additional?.validation ?? []).map((entry) => ({ ...entry, severity: entry.severity ?? 'Error', location: ['request', ...(entry.location ?? [])] }));
      const violations = validation.length > 0 ? validation : [{ location: ['request'], severity: 'Error', code: error.status, message: error.detail || error.message }];
      return { answer: problemAnswer(call, error), forwarded: false, violations };
    }
    const violations = [...toViolations('request', result.validations.input), ...toViolations('response', result.validations.output)];
    if (result.output.statusCode >= 500) {
      violations.push({ location: ['response', 'status'], severity: 'Warning', code: result.output.statusCode, message: `the upstream answered ${result.output.statusCode}, a server error` });
    }
    const upstreamAnswer = answers.get(result.output) ?? { status: result.output.statusCode, headers: result.output.headers ?? {}, body: Buffer.from(JSON.stringify(result.output.body ?? '')) };
    const responseErrors = violations.filter((violation) => violation.location[0] === 'response' && violation.severity === 'Error');
    if (errors && responseErrors.length > 0) {
      return {
        answer: problemAnswer(call, {
          name: 'https://stoplight.io/prism/errors#VIOLATIONS',
          message: 'Request/Response not valid',
          status: 500,
          detail: 'The answer of the upstream breaks the contract, and the proxy runs with errors on.',
          additional: { validation: responseErrors.map((violation) => ({ location: violation.location, severity: violation.severity, code: violation.code, message: violation.message })) },
        }),
        forwarded: true,
        violations,
      };
    }
    const headers = { ...upstreamAnswer.headers, ...corsHeaders(call.headers) };
    if (violations.length > 0) headers['sl-violations'] = headerSafe(JSON.stringify(violations)).slice(0, 8000);
    return { answer: { status: upstreamAnswer.status, headers, body: upstreamAnswer.body }, forwarded: true, violations };
  };

  const server = createHttpServer({
    label: 'the proxy',
    // The implementation decides what it accepts; the proxy only keeps from the engine what it cannot read.
    maxBodyBytes: 64 * 1024 * 1024,
    onOwnAnswer: (call, answer) => record(call, answer, false, violationsOf(answer)),
    handle: async (call) => {
      const fault = checkCall(call);
      if (fault) {
        record(call, fault, false, violationsOf(fault));
        return fault;
      }
      const input = engineInput(call, Object.fromEntries(Object.entries(call.headers).map(([name, value]) => [name, headerText(value)!])));
      calls.set(input, call);
      const { answer, forwarded, violations } = answerFor(call, await engine.request(input));
      record(call, answer, forwarded, violations);
      return answer;
    },
  });
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? 0, host);
  const upstreamCheck = await checkUpstream(upstream.href);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let stopping: Promise<void> | undefined;
  return {
    url: urlOf(host, port),
    port,
    upstream: upstream.href,
    upstreamCheck,
    reports,
    stop: () => (stopping ??= closeServer(server).then(resolveClosed)),
    closed,
  };
}
