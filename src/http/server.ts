// The HTTP server (node:http) of the mock and the proxy: it reads each request (bounded), answers what is not even
// valid HTTP/1.1 with a 4xx that names the fault in the contract's error shape, and hands the rest to a handler.
import http from 'node:http';
import type { Socket } from 'node:net';
import { option, say, type Worded, type Wording, wording } from '../options.js';
import { type Answer, type Call, createCall, errorAnswer, quote } from './exchange.js';

export interface ServerOptions {
  /** Answers one request; never throws (a handler error becomes a 500 naming it). */
  handle: (call: Call) => Promise<Answer>;
  /** Largest request body accepted; larger bodies get 413. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** Most connections open at once; the server closes more as they arrive. Default 256. */
  maxConnections?: number | undefined;
  /** What the server is, in its messages. Default "the mock". */
  label?: string | undefined;
  /** Called with each answer the server gave itself, without the handler (for the proxy's report). */
  onOwnAnswer?: ((call: Call | undefined, answer: Answer) => void) | undefined;
  /** Every answer to a request it read, the handler's and its own (413), as it goes out: CORS headers for a page. */
  finish?: ((call: Call, answer: Answer) => Answer) | undefined;
}

/**
 * The time limits every server we ship sets on a connection (a whole request, its headers, an idle keep-alive), how
 * often Node checks them, and its default cap on open connections: together they bound what slow or idle clients can
 * hold. Headers come in one packet: a client that has not sent them within 5 s is closed (checked every second).
 */
export const serverLimits = {
  requestTimeout: 60_000,
  headersTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
  keepAliveTimeout: 5_000,
  maxConnections: 256,
} as const;

/** How long a client has to read an answer on a connection the server ends, before it is closed anyway. */
const closeGraceMs = 1_000;

const send = (response: http.ServerResponse, answer: Answer) => {
  if (response.headersSent) return;
  response.writeHead(answer.status, { ...answer.headers, 'Content-Length': String(answer.body.length) });
  response.end(answer.body);
};

/**
 * Writes an answer on a connection the server ends, and closes it for good after a grace time to read it: a client
 * that never reads would otherwise keep it half open, and its place among the connections.
 */
function rawAnswer(socket: Socket, answer: Answer) {
  if (!socket.writable) return socket.destroy();
  const head = [`HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? ''}`];
  for (const [name, value] of Object.entries({ ...answer.headers, 'Content-Length': String(answer.body.length), Connection: 'close' })) {
    for (const line of [value].flat()) head.push(`${name}: ${line}`);
  }
  setTimeout(() => socket.destroy(), closeGraceMs).unref();
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), answer.body]));
}

/** Records an answer the server gave itself (the proxy reports it) and gives it back. */
type OwnAnswer = (call: Call | undefined, answer: Answer) => Answer;

/** The server (not listening yet: see listen()). */
export function createHttpServer(options: ServerOptions): http.Server {
  const finish = (call: Call | undefined, answer: Answer) => (call && options.finish ? options.finish(call, answer) : answer);
  const own: OwnAnswer = (call, answer) => {
    options.onOwnAnswer?.(call, answer);
    return finish(call, answer);
  };
  const reader = bodyReader(options, own);
  // requireHostHeader is off so that the server, not Node, answers a request without Host (with a body naming it).
  const { requestTimeout, headersTimeout, connectionsCheckingInterval, keepAliveTimeout } = serverLimits;
  const server = http.createServer(
    { requestTimeout, headersTimeout, connectionsCheckingInterval, keepAliveTimeout, requireHostHeader: false },
    (request, response) => {
      const fault = shapeFault(request);
      if (fault) {
        request.resume();
        send(
          response,
          own(undefined, errorAnswer(400, `the request is not valid HTTP/1.1: ${fault}`, { headers: { Connection: 'close' } })),
        );
        return;
      }
      reader(request, response, (call) =>
        options.handle(call).then(
          (answer) => send(response, finish(call, answer)),
          (error: Error) =>
            send(response, finish(call, errorAnswer(500, `${options.label ?? 'the mock'} failed on this request (${error.message})`))),
        ),
      );
    },
  );
  // A cap on open connections bounds the memory of many slow or idle clients.
  server.maxConnections = options.maxConnections ?? serverLimits.maxConnections;
  answerProtocolFaults(server, own);
  closeSilentConnections(server, (socket) => rawAnswer(socket, own(undefined, errorAnswer(408, 'the request did not arrive in time'))));
  return server;
}

/**
 * Ends a connection whose first request has not come whole within serverLimits.headersTimeout (`onSilent`, then
 * closed for good after a grace time). Node applies its own limit only to a request it has begun to read: a client
 * that connects and sends nothing, or its headers a line at a time, would keep its place among the connections.
 */
export function closeSilentConnections(server: http.Server, onSilent: (socket: Socket) => void): void {
  const timers = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      onSilent(socket);
      setTimeout(() => socket.destroy(), closeGraceMs).unref();
    }, serverLimits.headersTimeout);
    timer.unref();
    timers.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  // Its first request has come (the headers whole): the request's own limits apply from now on.
  const arrived = (request: http.IncomingMessage) => clearTimeout(timers.get(request.socket as Socket));
  server.prependListener('request', arrived);
  server.prependListener('checkExpectation', arrived);
  server.prependListener('connect', arrived);
  server.prependListener('upgrade', arrived);
}

/** What makes a request no valid HTTP/1.1 that Node lets through: another major version, or no Host in 1.1. */
function shapeFault(request: http.IncomingMessage): string | undefined {
  if (request.httpVersionMajor !== 1) return `HTTP/${request.httpVersion} is not supported: send HTTP/1.1`;
  if (request.httpVersionMinor === 1 && request.headers.host === undefined) return 'the Host header is missing (HTTP/1.1 requires it)';
  return undefined;
}

/**
 * Reads a request's body up to the limit and hands the call on; a larger body gets 413 (the server keeps at most the
 * limit, and closes a connection that sends far more).
 */
function bodyReader(options: ServerOptions, own: OwnAnswer) {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const label = options.label ?? 'the mock';
  // Never read more than this much of a body that is already too large: beyond it the connection is closed.
  const drainLimit = maxBodyBytes + 64 * 1024 * 1024;
  const tooLarge = (size: number, more = false) =>
    errorAnswer(
      413,
      `the body has ${more ? 'more than ' : ''}${size} bytes; ${label} accepts at most ${maxBodyBytes} (the service's own limit is not shown in the documents)`,
      more ? { headers: { Connection: 'close' } } : {},
    );
  return (request: http.IncomingMessage, response: http.ServerResponse, handle: (call: Call) => void) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) {
        chunks.push(chunk);
      } else if (size > drainLimit) {
        request.removeAllListeners('data');
        request.pause();
        response.once('finish', () => request.destroy());
        send(response, own(undefined, tooLarge(drainLimit, true)));
      }
    });
    request.on('error', () => response.destroy());
    request.on('end', () => {
      const call = createCall({
        method: request.method ?? 'GET',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      if (size > maxBodyBytes) send(response, own(call, tooLarge(size)));
      else handle(call);
    });
  };
}

/** Answers what Node's parser refuses, an Expect header, CONNECT and upgrades: none is part of the API. */
function answerProtocolFaults(server: http.Server, own: OwnAnswer): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const reason = `${error.reason ?? error.message} (${error.code})`;
    const answer =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? errorAnswer(431, `the request line and headers exceed ${http.maxHeaderSize} bytes`)
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? errorAnswer(408, 'the request did not arrive in time')
          : errorAnswer(400, `the request is not valid HTTP/1.1: ${reason}`);
    rawAnswer(socket, own(undefined, answer));
  });
  server.on('checkExpectation', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const expectation = quote(String(request.headers.expect ?? ''));
    const answer = errorAnswer(417, `the expectation ${expectation} is not supported (only 100-continue is)`, {
      headers: { Connection: 'close' },
    });
    send(response, own(undefined, answer));
  });
  server.on('connect', (_request: http.IncomingMessage, socket: Socket) => {
    const answer = errorAnswer(405, 'CONNECT is not supported: the API answers plain HTTP requests', { headers: { Allow: 'GET, POST' } });
    rawAnswer(socket, own(undefined, answer));
  });
  server.on('upgrade', (request: http.IncomingMessage, socket: Socket) => {
    const upgrade = quote(String(request.headers.upgrade ?? ''));
    rawAnswer(
      socket,
      own(undefined, errorAnswer(400, `the protocol upgrade to ${upgrade} is not supported: the API answers plain HTTP requests`)),
    );
  });
}

export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The port asked for is taken: the message says what to do, in code's names (`wording` for another interface). */
export class PortInUseError extends Error implements Worded {
  readonly wording: Wording;
  constructor(port: number, host: string) {
    const parts = wording`Port ${port} on ${host} is in use: give another ${option('port')} (${option('port', 0)} takes a free one).`;
    super(say(parts));
    this.wording = parts;
  }
}

/** Starts listening; a busy port fails with a PortInUseError, which says what to do. Resolves with the port. */
export function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, host) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Closes the server: stops listening, ends idle keep-alive connections, then any left after a grace time. */
export function closeServer(server: http.Server, graceMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
