// monitoring-service-api/mock: the contract mock, in this process. Prism's HTTP engine validates every request at
// the URL shape of a real data center (API root `/api`, identity provider at the root) and names each fault in a
// 4xx `{code, message}`; the simulator answers with state: accounts, monitors, groups, tokens with the identity
// provider's limits, a clock, faults on demand (`mode: 'examples'` replays the description's examples instead).
//
//   const mock = await startMock();          // an HTTP server on a free port of 127.0.0.1
//   mock.baseUrl  // http://127.0.0.1:PORT/api  (a data center's {base_url})
//   mock.authUrl  // http://127.0.0.1:PORT      (its {auth_url})
//   mock.control.registerClient();           // the test API, also over HTTP under /__mock
//   mock.control.world('gw0').baseUrl        // a world, a state of its own: http://127.0.0.1:PORT/worlds/gw0/api
//   await mock.stop();
//
//   const mockFetch = createMockFetch();     // no port at all: a fetch function answering in-process
//   createServiceClient({ baseUrl: mockFetch.baseUrl, authUrl: mockFetch.authUrl, fetch: mockFetch, auth: ... });

import { apiRoot } from '../description/mock-document.js';
import type { OpenApiDocument } from '../description/openapi.js';
import { nullBodyStatuses, untilAborted } from '../fetch/exchange.js';
import { type Call, createCall, errorAnswer, headersRecord, headerText, responseHeaders } from '../http/exchange.js';
import { bearerTokenFault } from '../http/guard.js';
import { closeServer, createHttpServer, listen, urlOf } from '../http/server.js';
import { OptionError, portOption, positiveWholeNumber } from '../options.js';
import { redactTarget } from '../output/redact.js';
import { apiAccess, apiAccessOptions } from './api-access.js';
import { docsAnswer, docsPath, isDocsPath } from './docs.js';
import { type MockHandler, prepareMock } from './handler.js';
import { testApiRefusal } from './test-api-access.js';
import type { ApiAccessOptions, MockBehaviour, MockControl, MockWorlds } from './types.js';
import { isTestApiPath, type Worlds } from './worlds/index.js';

// The coverage's pure functions from the modules that hold them: its counter's module names a call and its answer
// (src/http/), whose Node.js types (Buffer) a project without @types/node must not need to compile.
export { type CoverageFormat, type CoverageFormatOptions, formatCoverage } from '../coverage/format.js';
export { CoverageReportError, readCoverageReport } from '../coverage/read.js';
export { checkCoverage, mergeCoverage } from '../coverage/report.js';
export type * from '../coverage/types.js';
export { engineInstallCommand, engineVersion } from '../engine/prism.js';
export type { JournalEntry, JournalFilter, JournalPage, JournalViolation, NearMiss } from '../journal/types.js';
export { SeedError } from '../simulator/seed.js';
// The public types of the mock, each named once in types.ts.
export type * from './types.js';

export interface MockOptions extends MockBehaviour, ApiAccessOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Address to listen on. Default 127.0.0.1 (loopback only). */
  host?: string | undefined;
  /** Largest request body accepted (413 above). Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** The bundled description to serve (the parsed `monitoring-service-api/openapi.json`). Default: this package's. */
  description?: object | undefined;
  /** Most connections open at once; more are closed as they arrive. Default 256. */
  maxConnections?: number | undefined;
  /**
   * A token every call of the test API (`/__mock`) over HTTP must carry as `Authorization: Bearer TOKEN`. Required
   * for the test API when `host` is beyond loopback (without it the test API is off there); optional on loopback.
   */
  testApiToken?: string | undefined;
  /**
   * Called after each answer, e.g. for a request log. The target has the values of credential parameters redacted
   * (`/oauth/v2/token?client_secret=[redacted]`).
   */
  onAnswer?: ((method: string, target: string, status: number) => void) | undefined;
}

export interface RunningMock {
  /** The API root, as a real data center's `{base_url}`: http://host:port/api */
  readonly baseUrl: string;
  /** The identity provider, as a real data center's `{auth_url}`: http://host:port */
  readonly authUrl: string;
  /** The docs page this mock serves, whose console sends to it: http://host:port/docs/ */
  readonly docsUrl: string;
  readonly host: string;
  readonly port: number;
  /** Stops listening and closes open connections. Calling it again does nothing. */
  stop(): Promise<void>;
  /** Resolves once the mock has stopped. */
  readonly closed: Promise<void>;
  /**
   * The default world's test API as methods (the same as over HTTP under `/__mock`), and the worlds' (`createWorld()`,
   * `world(id)`, `worlds()`, `deleteWorld(id)`: `/__mock/worlds`). Throws in mode 'examples'.
   */
  readonly control: MockControl & MockWorlds;
}

/** A fetch function answered by the mock in this process, with the addresses to configure a client with. */
export interface MockFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** An API root for clients of this fetch: `https://mock.invalid/api` (the host is never looked up). */
  readonly baseUrl: string;
  /** The identity provider for clients of this fetch: `https://mock.invalid`. */
  readonly authUrl: string;
  /** Resolves once Prism's engine is loaded (calls wait for it anyway); rejects when it cannot be. */
  readonly ready: Promise<void>;
  /**
   * The default world's test API as methods (the same as over HTTP under `/__mock`), and the worlds' (`createWorld()`,
   * `world(id)`, `worlds()`, `deleteWorld(id)`), whose addresses are under `https://mock.invalid/worlds/`. Throws in
   * mode 'examples'.
   */
  readonly control: MockControl & MockWorlds;
}

export interface MockFetchOptions extends MockBehaviour {
  /** Largest request body accepted (413 above). Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** The bundled description to serve. Default: this package's. */
  description?: object | undefined;
}

const defaultMaxBodyBytes = 1024 * 1024;

/** The test API's token, checked as every bearer token a server of the package is started with; or none. */
function checkTestApiToken(token: unknown): string | undefined {
  if (token === undefined) return undefined;
  const fault = bearerTokenFault('testApiToken', token);
  if (fault) throw new OptionError(fault);
  return token as string;
}

/**
 * The controls of a mock: the default world's and the worlds', their addresses from `origin`; or in mode 'examples'
 * methods that say there is none.
 */
function controlOf(worlds: Worlds | undefined, origin: () => string): MockControl & MockWorlds {
  if (worlds) return { ...worlds.main.control, ...worlds.controls(origin) };
  const none = () => {
    throw new TypeError("The test API needs the simulator: this mock replays the description's examples (mode 'examples').");
  };
  return {
    createWorld: none,
    world: none,
    worlds: none,
    deleteWorld: none,
    runCoverage: none,
    clearRunCoverage: none,
    registerClient: none,
    grantCode: none,
    advanceClock: none,
    fault: none,
    randomFaults: none,
    state: none,
    setState: none,
    requests: none,
    clearRequests: none,
    coverage: none,
    clearCoverage: none,
    reset: none,
  };
}

/**
 * The origin a call reached the mock by, from its Host header (which the access rules have checked by then: a
 * compose file's service name, an address), for the addresses of the worlds it is told; undefined for one that is
 * not a plain host and port.
 */
function hostOrigin(call: Call): string | undefined {
  const host = headerText(call.headers.host);
  return host !== undefined && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? `http://${host}` : undefined;
}

/**
 * Starts the mock's HTTP server. Resolves once it answers; rejects when the port is in use or Prism's engine is
 * not installed (`npm install --save-dev --save-exact @stoplight/prism-http@5.12.0`).
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const testApiToken = checkTestApiToken(options.testApiToken);
  const port = portOption(options.port, 0);
  const maxBodyBytes = positiveWholeNumber('maxBodyBytes', options.maxBodyBytes, defaultMaxBodyBytes);
  const accessOptions = apiAccessOptions(options);
  let handler: MockHandler | undefined;
  // A wrong seed file or option throws here, before anything listens.
  // The origin is known once the server listens; token answers carry its API root as `api_domain`.
  let origin = '';
  const prepared = prepareMock(options.description as OpenApiDocument | undefined, options, {
    origin: (call) => (call && hostOrigin(call)) || origin,
  });
  const ready = prepared.handler;
  ready.catch(() => {}); // reported by the await below
  const onAnswer = options.onAnswer;
  // Ends the delays of faults still running when the mock stops, so that nothing outlives stop().
  const ending = new AbortController();
  const server = createHttpServer({
    handle: async (call) => {
      const refused = isTestApiPath(call.path) ? testApiRefusal(call, { host, port: bound, token: testApiToken }) : access.before(call);
      const answer = refused ?? (isDocsPath(call.path) ? docsAnswer(call) : await (handler ??= await ready)(call, ending.signal));
      onAnswer?.(call.method, redactTarget(call.url), answer.status);
      return answer;
    },
    finish: (call, answer) => (isTestApiPath(call.path) ? answer : access.after(call, answer)),
    onOwnAnswer:
      onAnswer && ((call, answer) => onAnswer(call?.method ?? '?', call ? redactTarget(call.url) : '(not valid HTTP)', answer.status)),
    maxBodyBytes,
    maxConnections: positiveWholeNumber('maxConnections', options.maxConnections, 256),
  });
  // Listen first, so that a busy port fails at once. (No request is handled before this resolves: the server
  // reads requests only once it listens, and `bound` and `access` are set in the same turn.)
  const bound = await listen(server, port, host);
  const access = apiAccess(host, bound, accessOptions);
  try {
    handler = await ready;
  } catch (error) {
    await closeServer(server, 0);
    throw error;
  }
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let stopping: Promise<void> | undefined;
  origin = urlOf(host, bound);
  return {
    baseUrl: `${origin}${apiRoot}`,
    authUrl: origin,
    docsUrl: `${origin}${docsPath}/`,
    host,
    port: bound,
    stop: () => {
      ending.abort(new Error('the mock stopped'));
      return (stopping ??= closeServer(server).then(resolveClosed));
    },
    closed,
    control: controlOf(prepared.worlds, () => origin),
  };
}

/**
 * A `fetch` answered by the mock in this process: no server, no port. Give it to `createServiceClient({ fetch })`,
 * or to MSW (`http.all('*', ({ request }) => mockFetch(request))`). The host of the URL does not matter; the path
 * does (`/api/...` for the API, `/oauth/...` for the identity provider, the same under `/worlds/{id}` for a world).
 */
export function createMockFetch(options: MockFetchOptions = {}): MockFetch {
  const maxBodyBytes = positiveWholeNumber('maxBodyBytes', options.maxBodyBytes, defaultMaxBodyBytes);
  const origin = 'https://mock.invalid';
  const prepared = prepareMock(options.description as OpenApiDocument | undefined, options, { origin: () => origin });
  const handler = prepared.handler;
  handler.catch(() => {}); // reported to each call
  const mockFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const handle = await handler;
    // A request without a body (a GET, most calls) has nothing to read.
    const body = request.body === null ? Buffer.alloc(0) : Buffer.from(await request.arrayBuffer());
    const url = new URL(request.url);
    const call = createCall({ method: request.method, url: `${url.pathname}${url.search}`, headers: headersRecord(request.headers), body });
    const answer =
      body.length > maxBodyBytes
        ? errorAnswer(
            413,
            `the body has ${body.length} bytes; the mock accepts at most ${maxBodyBytes} (the service's own limit is not shown in the documents)`,
          )
        : await untilAborted(handle(call, request.signal), request.signal);
    const empty = nullBodyStatuses.has(answer.status) || request.method === 'HEAD';
    const response = new Response(empty ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: responseHeaders(answer.headers),
    });
    Object.defineProperty(response, 'url', { value: request.url });
    return response;
  };
  const ready = handler.then(() => undefined);
  ready.catch(() => {}); // rejects for whoever awaits it
  return Object.assign(mockFetch, {
    baseUrl: `${origin}${apiRoot}`,
    authUrl: origin,
    ready,
    control: controlOf(prepared.worlds, () => origin),
  });
}
