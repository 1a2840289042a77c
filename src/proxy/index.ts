// monitoring-service-api/proxy: the validating proxy. It sits in front of a server that implements the API, sends
// every request on to it, and checks the request and the answer against the contract with Prism's engine in proxy
// mode. What breaks the contract is reported (formatReport, and the `sl-violations` header of the answer); the
// answer goes back to the client as the implementation gave it. An upstream that does not answer is a reported
// failure (502, or 504 after the time limit), never a pass.
//
// With `errors: true`, a request that breaks the contract is refused (422) without being forwarded, and an answer
// that breaks it becomes a 500 naming the violations. The upstream is the server's root: the proxy forwards
// /api/... and /oauth/... with their paths as they are.

import type { OpenApiDocument } from '../description/openapi.js';
import { compileRoutes } from '../description/routes.js';
import { engineFor } from '../engine/packaged.js';
import type { Engine, EngineError, EngineResult } from '../engine/prism.js';
import { engineInput, problemAnswer, refusalViolations, toViolations } from '../engine/translate.js';
import { describeFetchFailure } from '../fetch/failure.js';
import { originOf, withCors } from '../http/cors.js';
import {
  type Answer,
  type Call,
  checkCall,
  errorAnswer,
  headerText,
  textHeaders,
  type Violation,
  violationsHeader,
} from '../http/exchange.js';
import { closeServer, createHttpServer, listen, urlOf } from '../http/server.js';
import { OptionError, option, portOption, positiveWholeNumber, wording } from '../options.js';
import { ExchangeLog } from './exchange-log.js';
import { defaultMaxReports, describeTally, type ExchangeReport } from './reports.js';
import { Upstream } from './upstream.js';

export { type ExchangeReport, formatReport, type ReportedViolation, summarizeReports } from './reports.js';

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
  /** Largest request body the proxy takes (413 above). Default 1 MiB, as the mock's. */
  maxBodyBytes?: number | undefined;
  /** Largest answer the proxy reads from the upstream (502 above, saying so). Default 8 MiB. */
  maxAnswerBytes?: number | undefined;
  /** Most connections open at once; more are closed as they arrive. Default 256. */
  maxConnections?: number | undefined;
  /** The bundled description to check against. Default: this package's. */
  description?: object | undefined;
  /** Called with each exchange, as it completes. */
  onReport?: ((report: ExchangeReport) => void) | undefined;
  /** How many of the last exchanges `reports` keeps (the summary counts them all). Default 1000. */
  maxReports?: number | undefined;
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
  /** The last exchanges (`maxReports`, default 1000), oldest first. */
  readonly reports: ExchangeReport[];
  /** The summary of every exchange so far, by operation (what the command prints when it stops). */
  summary(): string;
  stop(): Promise<void>;
  readonly closed: Promise<void>;
}

export const proxyDefaults = {
  timeoutMs: 30_000,
  maxBodyBytes: 1024 * 1024,
  maxAnswerBytes: 8 * 1024 * 1024,
  maxConnections: 256,
} as const;

/** The upstream's URL, checked: http(s), no credentials in it (they would show in every message). */
function upstreamUrl(value: string): URL {
  let upstream: URL;
  try {
    upstream = new URL(value);
  } catch {
    throw new OptionError(wording`${option('upstream')} must be a URL such as http://127.0.0.1:8080, not ${JSON.stringify(value)}`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new OptionError(wording`${option('upstream')} must be an http(s) URL, not ${JSON.stringify(value)}`);
  if (upstream.username || upstream.password) {
    throw new OptionError(
      wording`${option('upstream')} must not carry a user name or password: the proxy would show them in its messages. Send credentials in the requests to the proxy.`,
    );
  }
  return upstream;
}

/** Whether the upstream answers at all: a GET of its root, any status. */
export async function checkUpstream(upstream: string, timeoutMs = 3000): Promise<UpstreamCheck> {
  try {
    const response = await fetch(upstream, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.arrayBuffer();
    return { answered: true };
  } catch (error) {
    return { answered: false, reason: describeFetchFailure(error, timeoutMs) };
  }
}

/** The violations of an answer the proxy gave itself, from its `sl-violations` header. */
function violationsOf(answer: Answer): Violation[] {
  try {
    const parsed: unknown = JSON.parse(headerText(answer.headers['sl-violations']) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Violation[]) : [];
  } catch {
    return [];
  }
}

/** The options of a proxy, checked (a TypeError names the first wrong one), with their defaults. */
function proxySettings(options: ProxyOptions) {
  return {
    upstream: upstreamUrl(options.upstream),
    timeoutMs: positiveWholeNumber('timeoutMs', options.timeoutMs, proxyDefaults.timeoutMs),
    maxBodyBytes: positiveWholeNumber('maxBodyBytes', options.maxBodyBytes, proxyDefaults.maxBodyBytes),
    maxAnswerBytes: positiveWholeNumber('maxAnswerBytes', options.maxAnswerBytes, proxyDefaults.maxAnswerBytes),
    maxConnections: positiveWholeNumber('maxConnections', options.maxConnections, proxyDefaults.maxConnections),
    errors: options.errors ?? false,
  };
}

/** What the proxy answers for one exchange, and what it reports of it. */
interface Outcome {
  answer: Answer;
  forwarded: boolean;
  violations: Violation[];
}

/** The engine's error for a request: the upstream did not answer (reported as such), or the engine refused it. */
function refusedOutcome(error: EngineError): Outcome {
  if (error.name === 'UPSTREAM_UNREACHABLE' || error.name === 'UPSTREAM_TIMEOUT' || error.name === 'UPSTREAM_TOO_LARGE') {
    const violation: Violation = { location: ['response', 'upstream'], severity: 'Error', code: error.status, message: error.message };
    return { answer: errorAnswer(error.status!, error.message, { violations: [violation] }), forwarded: true, violations: [violation] };
  }
  // A refusal of the engine (errors mode: an invalid request), as Prism's own proxy gives it.
  const validation = refusalViolations(error);
  const violations =
    validation.length > 0
      ? validation
      : [{ location: ['request'], severity: 'Error', code: error.status, message: error.detail || error.message }];
  return { answer: problemAnswer(error), forwarded: false, violations };
}

/** The engine's findings on a forwarded exchange; an upstream's server error is worth a warning, though documented. */
function exchangeViolations(result: Extract<EngineResult, { ok: true }>): Violation[] {
  const violations = [...toViolations('request', result.validations.input), ...toViolations('response', result.validations.output)];
  if (result.output.statusCode >= 500) {
    violations.push({
      location: ['response', 'status'],
      severity: 'Warning',
      code: result.output.statusCode,
      message: `the upstream answered ${result.output.statusCode}, a server error`,
    });
  }
  return violations;
}

/** In errors mode, the 500 that replaces an answer breaking the contract: a problem naming each violation. */
function brokenAnswer(responseErrors: Violation[]): Answer {
  return problemAnswer({
    name: 'https://stoplight.io/prism/errors#VIOLATIONS',
    message: 'Request/Response not valid',
    status: 500,
    detail: 'The answer of the upstream breaks the contract, and the proxy runs with errors on.',
    additional: {
      validation: responseErrors.map((violation) => ({
        location: violation.location,
        severity: violation.severity,
        code: violation.code,
        message: violation.message,
      })),
    },
  });
}

/** The upstream's answer as it gave it, with the violations in `sl-violations`. */
function passedOn(upstreamAnswer: Answer, violations: Violation[]): Answer {
  const headers: Answer['headers'] = { ...upstreamAnswer.headers };
  if (violations.length > 0) headers['sl-violations'] = violationsHeader(violations);
  return { status: upstreamAnswer.status, headers, body: upstreamAnswer.body };
}

/** What the client gets for the engine's result, and what is reported. */
function outcomeOf(result: EngineResult, errors: boolean, upstream: Upstream): Outcome {
  if (!result.ok) return refusedOutcome(result.error);
  const violations = exchangeViolations(result);
  const upstreamAnswer = upstream.answerOf(result.output);
  const responseErrors = violations.filter((violation) => violation.location[0] === 'response' && violation.severity === 'Error');
  if (errors && responseErrors.length > 0) return { answer: brokenAnswer(responseErrors), forwarded: true, violations };
  return { answer: passedOn(upstreamAnswer, violations), forwarded: true, violations };
}

/**
 * One request: answered by the proxy itself when the engine could not survive it; else through the engine, which
 * checks it, forwards it and checks the answer. Either way, reported.
 */
async function handleCall(call: Call, engine: Engine, upstream: Upstream, log: ExchangeLog, errors: boolean): Promise<Answer> {
  const fault = checkCall(call);
  if (fault) {
    log.record(call, fault, false, violationsOf(fault));
    return fault;
  }
  const input = engineInput(call, textHeaders(call.headers));
  upstream.remember(input, call);
  const { answer, forwarded, violations } = outcomeOf(await engine.request(input), errors, upstream);
  log.record(call, answer, forwarded, violations);
  return answer;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const settings = proxySettings(options);
  const port = portOption(options.port, 0);
  const upstream = new Upstream(settings);
  const prepared = engineFor(options.description as OpenApiDocument | undefined, {
    kind: 'proxy',
    upstream: settings.upstream.href,
    errors: settings.errors,
    forward: upstream.forward,
  });
  const log = new ExchangeLog(
    compileRoutes(prepared.document),
    options.onReport,
    positiveWholeNumber('maxReports', options.maxReports, defaultMaxReports),
  );
  const engine = await prepared.engine;

  const server = createHttpServer({
    label: 'the proxy',
    maxBodyBytes: settings.maxBodyBytes,
    maxConnections: settings.maxConnections,
    onOwnAnswer: (call, answer) => log.record(call, answer, false, violationsOf(answer)),
    handle: (call) => handleCall(call, engine, upstream, log, settings.errors),
    // The upstream's own CORS answer when it gives one, else the proxy's: one of each header, never both.
    finish: (call, answer) => (answer.headers['access-control-allow-origin'] ? answer : withCors(answer, originOf(call.headers))),
  });
  const host = options.host ?? '127.0.0.1';
  const bound = await listen(server, port, host);
  const upstreamCheck = await checkUpstream(settings.upstream.href);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let stopping: Promise<void> | undefined;
  return {
    url: urlOf(host, bound),
    port: bound,
    upstream: settings.upstream.href,
    upstreamCheck,
    reports: log.reports,
    summary: () => describeTally(log.tally),
    stop: () => (stopping ??= closeServer(server).then(resolveClosed)),
    closed,
  };
}
