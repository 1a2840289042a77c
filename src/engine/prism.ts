// Prism's HTTP engine (@stoplight/prism-http), used as a library in this process: the operations of a document,
// and one call of the engine per request, in mock or proxy mode. It is an optional peer dependency: the client
// needs none of it, the mock and the proxy load it on first use and say how to install it when it is missing.
import { createRequire } from 'node:module';
import { isJson, sameMediaType } from '../http/exchange.js';
import { keptAnswers, type Mocker } from './answers.js';
import { prepareEngineModules } from './modules.js';
import { candidatesOf, operationTable, type Router, routedFirst } from './routing.js';
import { keptVerdicts, withoutCallbacks } from './verdicts.js';

/** The engine version this package is built and tested with (the last one that runs on Node 20). */
export const engineVersion = '5.12.0';
export const engineInstallCommand = `npm install --save-dev --save-exact @stoplight/prism-http@${engineVersion}`;

/** A request as the engine takes it. */
export interface EngineInput {
  method: string;
  url: { path: string; query: Record<string, string | string[]> };
  headers: Record<string, string>;
  body: unknown;
}

export interface EngineOutput {
  statusCode: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A fault of a request or an answer, as the engine's validator reports it. */
export interface EngineValidation {
  path?: string[];
  code?: string | number;
  message: string;
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
}

/** What one call of the engine gives: an answer with the faults found on the way, or an error it refused with. */
export type EngineResult =
  | { ok: true; output: EngineOutput; validations: { input: EngineValidation[]; output: EngineValidation[] } }
  | { ok: false; error: EngineError };

/** The engine's refusal: a problem (RFC 9457) with Prism's type, or any error it threw. */
export interface EngineError {
  /** Prism's problem type (`https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY`), or the error's name. */
  name: string;
  message: string;
  status?: number;
  detail?: string;
  additional?: {
    validation?: { location?: string[] | undefined; severity?: string | undefined; code?: string | number | undefined; message: string }[];
    headers?: Record<string, string>;
  };
}

export interface MockCallConfig {
  /** The status to answer with (Prefer: code=...). */
  code?: number | undefined;
  /** The named example to answer with (Prefer: example=...). */
  exampleKey?: string | undefined;
  /** Generate the answer from the schema instead of the examples (Prefer: dynamic=true). */
  dynamic?: boolean | undefined;
}

/**
 * Sends a request to the implementation behind the proxy and gives its answer. Rejects with an EngineError (a
 * status and a message) when there is no answer. The engine still routes, validates the request before and the
 * answer after; the forwarding is the proxy's own, so that it has a time limit, keeps the bytes it was sent, and
 * passes every status on as it came (the engine's own forwarder answers a 501 from its mock instead).
 */
export type Forward = (input: EngineInput, operation: EngineOperation | undefined) => Promise<EngineOutput>;

/** What the engine knows of the operation a request reached (none when no path of the description matched). */
export interface EngineOperation {
  method: string;
  path: string;
  responses?: { code: string; contents?: { mediaType: string }[] }[];
}

/**
 * The engine's mode. In mock mode it routes a request among the operations that could answer its route, keeps the
 * example answers it makes and keeps its verdicts on the requests it judged (routing.ts, answers.ts, verdicts.ts);
 * `fullPath` turns all three off: every request is routed among all the operations and judged, and every answer is
 * made again, as in Prism's own server (the tests compare the two).
 */
export type EngineMode =
  | { kind: 'mock'; fullPath?: boolean | undefined }
  | { kind: 'proxy'; upstream: string; errors: boolean; forward: Forward };

/** The operation a request was routed to by the description's own routes: its method and path template. */
export interface EngineRoute {
  method: string;
  template: string;
}

export interface Engine {
  /**
   * The engine's result for a request. With `route`, the engine routes among the operations that could answer that
   * route only (see routing.ts); without it, among all the document's operations.
   */
  request(input: EngineInput, mock?: MockCallConfig, route?: EngineRoute): Promise<EngineResult>;
}

interface PrismHttpModule {
  /** The engine's default mocker and router (its `mock` and `route` components), from the engine's own modules. */
  mocker: Mocker;
  router: Router;
  getHttpOperationsFromSpec(spec: object | string): Promise<unknown[]>;
  createInstance(
    config: object,
    components: { logger: object; forward?: unknown; mock?: Mocker; route?: Router },
  ): {
    request(
      input: object,
      operations: unknown[],
      config?: object,
    ): () => Promise<{ _tag: 'Left'; left: EngineError } | { _tag: 'Right'; right: Omit<Extract<EngineResult, { ok: true }>, 'ok'> }>;
  };
}

/** Prism logs through a pino-style logger: everything goes nowhere (the mock reports faults in its answers). */
const silentLogger: Record<string, unknown> = {};
for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'success', 'start']) silentLogger[level] = () => {};
silentLogger.child = () => silentLogger;

const requireHere = createRequire(import.meta.url);
let loaded: PrismHttpModule | undefined;

/** Loads the engine once per process; throws an error naming the install command when it is missing. */
export function loadEngine(): PrismHttpModule {
  if (loaded) return loaded;
  let entry: string;
  try {
    entry = requireHere.resolve('@stoplight/prism-http');
  } catch {
    throw new Error(
      `The mock, the proxy and verify need Prism's HTTP engine, an optional peer dependency of monitoring-service-api. Install it in your project:\n  ${engineInstallCommand}\n(set SCARF_ANALYTICS=false first to turn off the install-time analytics of one of its dependencies)`,
    );
  }
  const releaseStandIns = prepareEngineModules(entry);
  const engine = requireHere(entry) as Omit<PrismHttpModule, 'mocker' | 'router'>;
  // Not exported by the entry: their own modules (the engine's version is pinned, see engineVersion).
  const requireEngine = createRequire(entry);
  const mocker = (requireEngine('./mocker') as { default: Mocker }).default;
  const router = (requireEngine('./router') as { default: Router }).default;
  releaseStandIns();
  loaded = {
    // Read when called: the reader of descriptions loads on first use (modules.ts).
    getHttpOperationsFromSpec: (spec) => engine.getHttpOperationsFromSpec(spec),
    createInstance: engine.createInstance,
    mocker,
    router,
  };
  return loaded;
}

/** The version of the engine installed next to this package. */
export function installedEngineVersion(): string | undefined {
  try {
    return (requireHere('@stoplight/prism-http/package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The engine's operations of a document, as `getHttpOperationsFromSpec` gives them, and the engine that made them. */
export interface PrecomputedOperations {
  engineVersion: string;
  operations: unknown[];
}

const operationsByDocument = new WeakMap<object, Promise<unknown[]>>();

/**
 * The engine's operations of a (mock) document, computed once per document object, or taken from `precomputed`
 * (made at build time: it saves reading the document at each start) when the installed engine made them.
 */
export function engineOperations(document: object, precomputed?: PrecomputedOperations): Promise<unknown[]> {
  let operations = operationsByDocument.get(document);
  if (!operations) {
    const prism = loadEngine();
    operations =
      precomputed && precomputed.engineVersion === installedEngineVersion()
        ? Promise.resolve(structuredClone(precomputed.operations))
        : prism.getHttpOperationsFromSpec(document);
    operationsByDocument.set(document, operations);
  }
  return operations;
}

/**
 * The proxy's forwarding in the shape of the engine's component: `(request, baseUrl, upstreamProxy, resource) =>
 * (logger) => TaskEither` (an fp-ts Either is a plain `{ _tag, left | right }` object). With `errors`, the engine
 * hands it the request's violations, and an invalid request is refused without being forwarded.
 */
function forwardComponent(mode: Extract<EngineMode, { kind: 'proxy' }>) {
  return (
    { data, validations }: { data: EngineInput; validations: EngineValidation[] },
    _baseUrl: string,
    _upstreamProxy: unknown,
    operation?: EngineOperation,
  ) =>
    () =>
    async () => {
      const errors = validations.filter((validation) => validation.severity === 0);
      if (errors.length > 0) {
        const unauthorized = errors.some((validation) => validation.code === 401);
        const left: EngineError = unauthorized
          ? {
              name: 'https://stoplight.io/prism/errors#UNAUTHORIZED',
              message: 'Invalid security scheme used',
              status: 401,
              detail: 'The request does not carry the credentials the operation requires.',
            }
          : {
              name: 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY',
              message: 'Invalid request',
              status: 422,
              detail: 'The request is not valid, so the proxy did not forward it.',
              additional: {
                validation: errors.map((validation) => ({
                  location: validation.path ?? [],
                  severity: 'Error',
                  code: validation.code,
                  message: validation.message,
                })),
              },
            };
        return { _tag: 'Left' as const, left };
      }
      try {
        return { _tag: 'Right' as const, right: await mode.forward(data, operation) };
      } catch (error) {
        return { _tag: 'Left' as const, left: error as EngineError };
      }
    };
}

/**
 * The headers of an answer as the engine should judge them. The engine compares the Content-Type with the
 * documented key to the letter: an answer in the documented type whose parameters do not contradict it
 * (`application/json` for `application/json; version=2.0`) is judged as the documented one (see `sameMediaType`).
 */
export function judgedHeaders(
  operation: EngineOperation | undefined,
  status: number,
  headers: Record<string, string>,
): Record<string, string> {
  const judged = { ...headers };
  const contentType = judged['content-type'];
  if (!contentType) return judged;
  const documented = (operation?.responses ?? [])
    .filter((entry) => entry.code === String(status) || entry.code.toUpperCase() === `${String(status)[0]}XX` || entry.code === 'default')
    .flatMap((entry) => entry.contents ?? [])
    .map((content) => content.mediaType);
  const match = documented.find((mediaType) => sameMediaType(contentType, mediaType));
  if (match) judged['content-type'] = match;
  return judged;
}

const placeVerbs = ['must', 'should', 'is', 'has'];

/**
 * The rule of one of the engine's validation messages, without the place it repeats:
 * `Response body property data.0.x must be string` gives `must be string`; `Request query parameter id must match
 * pattern "^[0-9]+$"` gives `must match pattern "^[0-9]+$"`. Read word by word (the place can hold a service's
 * attribute names): a message of another shape is given as it is, its first letter in lower case.
 */
export function ruleOf(message: string): string {
  const words = message.split(' ');
  let start = words[0] === 'Request' || words[0] === 'Response' ? 1 : 0;
  const first = words[start];
  const placeLength =
    words[start + 1] === 'parameter' && ['path', 'query', 'header', 'cookie'].includes(first ?? '')
      ? 3
      : first === 'body' && words[start + 1] === 'property'
        ? 3
        : first === 'header'
          ? 2
          : first === 'body'
            ? 1
            : 0;
  if (placeLength > 0 && placeVerbs.includes(words[start + placeLength] ?? '')) start += placeLength;
  const text = words.slice(start).join(' ');
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** An answer's body as the engine judges it: parsed when its Content-Type is JSON and it parses, else the text. */
export function judgedBody(contentType: string | undefined, status: number, text: string): unknown {
  if (text.length === 0) return undefined;
  if (contentType && isJson(contentType.split(';')[0]!.trim().toLowerCase()) && status !== 204) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all: the engine judges the text against the schema, and says so.
    }
  }
  return text;
}

/** The engine on a document, in mock or proxy mode. Loads Prism and the operations once. */
export async function createEngine(document: object, mode: EngineMode, precomputed?: PrecomputedOperations): Promise<Engine> {
  const prism = loadEngine();
  const operations = await engineOperations(document, precomputed);
  const base = {
    checkSecurity: true,
    validateRequest: true,
    // The mock answers with the description's own examples, which lint and the tests check; the proxy judges
    // what the implementation answers.
    validateResponse: mode.kind === 'proxy',
    errors: mode.kind === 'proxy' ? mode.errors : false,
    upstreamProxy: undefined,
  };
  const config = mode.kind === 'proxy' ? { ...base, isProxy: true, upstream: new URL(mode.upstream) } : { ...base, isProxy: false };
  const components =
    mode.kind === 'proxy'
      ? { logger: silentLogger, forward: forwardComponent(mode) }
      : { logger: silentLogger, ...(mode.fullPath ? {} : { mock: keptAnswers(prism.mocker), route: routedFirst(prism.router) }) };
  const instance = prism.createInstance({ ...config, mock: { dynamic: false } }, components);
  const table = mode.kind === 'mock' && mode.fullPath ? new Map() : operationTable(operations);
  const candidatesFor = (route: EngineRoute | undefined) => (route && candidatesOf(table, route.method, route.template)) ?? operations;
  const judge = async (input: EngineInput, mock: MockCallConfig, route: EngineRoute | undefined): Promise<EngineResult> => {
    // A fresh mock configuration per call: the engine writes the request's Accept into it.
    const callConfig = { ...config, mock: { dynamic: mock.dynamic ?? false, code: mock.code, exampleKey: mock.exampleKey } };
    const candidates = candidatesFor(route);
    try {
      const result = await instance.request(input, candidates, callConfig)();
      return result._tag === 'Right' ? { ok: true, ...result.right } : { ok: false, error: result.left };
    } catch (error) {
      // The engine throws on some input it cannot read: the fault stays inside this one request.
      const thrown = error instanceof Error ? error : new Error(String(error));
      return { ok: false, error: { name: thrown.name, message: thrown.message } };
    }
  };
  const kept = mode.kind === 'mock' && !mode.fullPath ? keptVerdicts(judge, (route) => withoutCallbacks(candidatesFor(route))) : judge;
  return { request: (input, mock = {}, route) => kept(input, mock, route) };
}
