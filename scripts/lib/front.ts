// A thin HTTP front (node:http) in front of a Prism process, shared by the mock and the validating proxy.
//
// It reads each request (bounded), refuses what would crash or confuse Prism with a 4xx that names the fault in
// the contract's error shape `{code, message}`, forwards the rest over keep-alive connections, and lets a policy
// look at (and rewrite) what Prism answers. Requests that are not even valid HTTP get the same kind of answer.
import http from 'node:http';
import type { Socket } from 'node:net';

export interface Call {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  /** The path, percent-encoded as sent. */
  path: string;
  /** Percent-decoded segments of the path after its leading slash. */
  segments: string[];
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  /** The parsed media type of the body (lower case), when there is a Content-Type. */
  mediaType?: MediaType;
}

export interface MediaType {
  type: string;
  parameters: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
}

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

export interface FrontPolicy {
  /** Answers a call itself (a fault, a played answer), or returns undefined to forward it. */
  before(call: Call): Answer | undefined;
  /** What goes back to the client for Prism's answer. */
  after(call: Call, answer: Answer): Answer;
  /** What to do with a fault the front found itself (for reporting). */
  onFault?(call: Call | undefined, answer: Answer): void;
}

export interface FrontOptions {
  /** Where Prism listens; awaited for each call (it changes when Prism is restarted). */
  upstream: () => Promise<{ host: string; port: number }>;
  /** Whether the Prism process that served `upstream` is still running. */
  upstreamAlive: () => boolean;
  policy: FrontPolicy;
  /** Largest request body accepted; larger bodies get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** What the front is, in its messages. Default "the mock". */
  label?: string;
}

/** The titles of the statuses of the core document's section 7 (and a few the mock adds). */
export const statusTitles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden URL',
  404: 'URL Not found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The headers Prism sends with every answer (CORS on), so the front's own answers look the same. */
export const corsHeaders: http.OutgoingHttpHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Expose-Headers': '*',
};

export const errorContentType = 'application/json;charset=UTF-8';

/** An error answer in the contract's shape, `{code, message}`, with the fault also in `sl-violations`. */
export function errorAnswer(status: number, detail: string, options: { code?: number; violations?: Violation[]; headers?: http.OutgoingHttpHeaders } = {}): Answer {
  const title = statusTitles[status] ?? http.STATUS_CODES[status] ?? 'Error';
  const message = detail ? `${title}: ${detail}` : title;
  const body = Buffer.from(JSON.stringify({ code: options.code ?? status, message }));
  const violations = options.violations ?? [{ location: ['request'], severity: 'Error', code: status, message: detail || title }];
  return {
    status,
    headers: {
      ...corsHeaders,
      'Content-Type': errorContentType,
      'sl-violations': headerSafe(JSON.stringify(violations)),
      ...options.headers,
    },
    body,
  };
}

/** Header values must be Latin-1 without control characters. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Quotes a piece of the request in a message, shortened and without control characters. */
export function quote(text: string, max = 60): string {
  const shown = text.length > max ? `${text.slice(0, max)}...` : text;
  return JSON.stringify(shown);
}

const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[^"\\\\\\x00-\\x08\\x0a-\\x1f\\x7f]|\\\\[\\x09\\x20-\\xff])*"';
const mediaTypePattern = new RegExp(`^ *(${token})/(${token}) *((?:; *${token} *= *(?:${token}|${quoted}) *)*)$`);
const parameterPattern = new RegExp(`; *(${token}) *= *(${token}|${quoted}) *`, 'g');

/** Parses a Content-Type as Prism's body parser does (RFC 9110); undefined when it is not a media type. */
export function parseMediaType(value: string): MediaType | undefined {
  const match = mediaTypePattern.exec(value);
  if (!match) return undefined;
  const parameters: Record<string, string> = {};
  for (const parameter of match[3]!.matchAll(parameterPattern)) {
    const raw = parameter[2]!;
    parameters[parameter[1]!.toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return { type: `${match[1]}/${match[2]}`.toLowerCase(), parameters };
}

export const isJson = (type: string) => type === 'application/json' || /^[a-z0-9.+-]+\/[a-z0-9.+-]*\+json$/.test(type);
export const isForm = (type: string) => type === 'application/x-www-form-urlencoded';

function tryDecode(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Faults of the request target and body that Prism 5.14 cannot survive or answers without the contract's shape:
 * malformed percent-encoding in the path (Prism's process dies), the query or a form body (dies), a Content-Type
 * that is not a media type (500), a JSON body that does not parse (a body of another shape), bytes that are not
 * UTF-8 in a JSON or form body.
 */
export function checkCall(call: Omit<Call, 'segments'> & { segments?: string[] }): Answer | undefined {
  if (!call.url.startsWith('/')) return errorAnswer(400, `the request target ${quote(call.url)} is not a path (send the path, e.g. /api/monitors)`);
  const [, query = ''] = splitTarget(call.url);
  if (call.path.includes('\\')) {
    // Prism reads a raw backslash as a slash, and would answer for another path.
    return errorAnswer(400, `the path ${quote(call.path)} has a raw backslash (percent-encode it as %5C)`, { violations: [{ location: ['request', 'path'], severity: 'Error', code: 'path', message: 'raw backslash in the path' }] });
  }
  for (const segment of call.path.split('/')) {
    if (/^(\.|%2e){1,2}$/i.test(segment)) {
      // Prism resolves . and .. segments (even percent-encoded ones) before routing: refuse them rather than
      // answer for another path.
      return errorAnswer(400, `the path ${quote(call.path)} has a dot segment ${quote(segment)} (send the path without . and .. segments)`, { violations: [{ location: ['request', 'path'], severity: 'Error', code: 'path', message: `dot segment ${segment} in the path` }] });
    }
    if (!tryDecode(segment)) return errorAnswer(400, `the path has malformed percent-encoding in the segment ${quote(segment)}`, { violations: [{ location: ['request', 'path'], severity: 'Error', code: 'encoding', message: `malformed percent-encoding in ${segment}` }] });
  }
  for (const part of query.split('&')) {
    if (!tryDecode(part.replace(/\+/g, ' '))) return errorAnswer(400, `the query string has malformed percent-encoding in ${quote(part)}`, { violations: [{ location: ['request', 'query'], severity: 'Error', code: 'encoding', message: `malformed percent-encoding in ${part}` }] });
  }
  const contentType = call.headers['content-type'];
  if (contentType !== undefined && contentType !== '') {
    if (!call.mediaType) return errorAnswer(400, `the Content-Type header ${quote(contentType)} is not a media type (send e.g. application/json;charset=UTF-8)`, { violations: [{ location: ['request', 'header', 'content-type'], severity: 'Error', code: 'content-type', message: `not a media type: ${contentType}` }] });
  }
  if (call.body.length === 0 || !call.mediaType) return undefined;
  const { type, parameters } = call.mediaType;
  if (!isJson(type) && !isForm(type)) return undefined;
  const charset = parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return errorAnswer(400, `charset=${parameters.charset} is not supported: send ${type} in UTF-8 (Content-Type: ${type};charset=UTF-8)`, { violations: [{ location: ['request', 'header', 'content-type'], severity: 'Error', code: 'charset', message: `unsupported charset ${parameters.charset}` }] });
  }
  let text: string;
  try {
    text = utf8.decode(call.body);
  } catch {
    return errorAnswer(400, 'the body is not valid UTF-8 (send JSON and form bodies in UTF-8)', { violations: [{ location: ['request', 'body'], severity: 'Error', code: 'encoding', message: 'the body is not valid UTF-8' }] });
  }
  if (isJson(type)) {
    try {
      JSON.parse(text);
    } catch (error) {
      const reason = (error as Error).message;
      return errorAnswer(400, `the body is not valid JSON (${reason})`, { violations: [{ location: ['request', 'body'], severity: 'Error', code: 'invalid_json', message: `the body is not valid JSON: ${reason}` }] });
    }
  } else {
    for (const part of text.split('&')) {
      if (!tryDecode(part.replace(/\+/g, ' '))) return errorAnswer(400, `the form body has malformed percent-encoding in ${quote(part)}`, { violations: [{ location: ['request', 'body'], severity: 'Error', code: 'encoding', message: `malformed percent-encoding in ${part}` }] });
    }
  }
  return undefined;
}

export function splitTarget(url: string): [string, string | undefined] {
  const index = url.indexOf('?');
  return index === -1 ? [url, undefined] : [url.slice(0, index), url.slice(index + 1)];
}

function decodeSegments(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'content-length', 'host']);

/** The front's HTTP server (not listening yet: see listen()). */
export function createFront(options: FrontOptions): http.Server {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const label = options.label ?? 'the mock';
  // Never read more than this much of a body that is already too large: beyond it the connection is closed.
  const drainLimit = maxBodyBytes + 64 * 1024 * 1024;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' });

  const forward = async (call: Call, attempt = 1): Promise<Answer> => {
    const target = await options.upstream();
    const headers: string[] = [];
    for (let index = 0; index < call.rawHeaders.length; index += 2) {
      if (!hopByHop.has(call.rawHeaders[index]!.toLowerCase())) headers.push(call.rawHeaders[index]!, call.rawHeaders[index + 1]!);
    }
    headers.push('Host', `${target.host}:${target.port}`, 'Content-Length', String(call.body.length));
    let reusedSocket = false;
    try {
      return await new Promise<Answer>((resolve, reject) => {
        const request = http.request({ agent, host: target.host, port: target.port, method: call.method, path: call.url, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const responseHeaders: http.OutgoingHttpHeaders = {};
            for (let index = 0; index < response.rawHeaders.length; index += 2) {
              const name = response.rawHeaders[index]!;
              if (!hopByHop.has(name.toLowerCase())) responseHeaders[name] = response.rawHeaders[index + 1]!;
            }
            resolve({ status: response.statusCode ?? 502, headers: responseHeaders, body: Buffer.concat(chunks) });
          });
        });
        request.setTimeout(30_000, () => request.destroy(new Error('Prism did not answer within 30 s')));
        request.on('error', (error) => {
          reusedSocket = request.reusedSocket;
          reject(error);
        });
        request.end(call.body);
      });
    } catch (error) {
      // A kept-alive connection that Prism closed between two calls: the request never reached it, so it is
      // sent once more on a fresh connection (never after a failure on a new one: in proxy mode the request may
      // already have reached the implementation).
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt === 1 && reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE') && options.upstreamAlive()) return forward(call, 2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!options.upstreamAlive()) {
        return errorAnswer(400, `${label} could not process this request: Prism stopped while handling it (${(error as Error).message})`);
      }
      throw error;
    }
  };

  const send = (response: http.ServerResponse, answer: Answer) => {
    if (response.headersSent) return;
    const headers = { ...answer.headers, 'Content-Length': String(answer.body.length) };
    response.writeHead(answer.status, headers);
    response.end(answer.body);
  };

  // requireHostHeader is off so that the front, not Node, answers a request without Host (with a body naming it).
  const server = http.createServer({ requestTimeout: 60_000, headersTimeout: 30_000, keepAliveTimeout: 5_000, requireHostHeader: false }, (request, response) => {
    const shapeFault =
      request.httpVersionMajor !== 1
        ? `HTTP/${request.httpVersion} is not supported: send HTTP/1.1`
        : request.httpVersionMinor === 1 && request.headers.host === undefined
          ? 'the Host header is missing (HTTP/1.1 requires it)'
          : undefined;
    if (shapeFault) {
      const answer = errorAnswer(400, `the request is not valid HTTP/1.1: ${shapeFault}`, { headers: { Connection: 'close' } });
      options.policy.onFault?.(undefined, answer);
      request.resume();
      send(response, answer);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        tooLarge = true;
        if (size > drainLimit) {
          const answer = errorAnswer(413, `the body has more than ${drainLimit} bytes; ${label} accepts at most ${maxBodyBytes} (the service's own limit is not shown in the documents)`, { headers: { Connection: 'close' } });
          options.policy.onFault?.(undefined, answer);
          request.removeAllListeners('data');
          request.pause();
          response.once('finish', () => request.destroy());
          send(response, answer);
        }
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => response.destroy());
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      // The absolute form (GET http://host/api/monitors), which servers must accept, is read as its path.
      const absolute = /^https?:\/\/[^/?#]*(.*)$/i.exec(request.url ?? '');
      if (absolute) request.url = absolute[1]!.startsWith('/') ? absolute[1]! : `/${absolute[1]}`;
      const [path] = splitTarget(request.url ?? '');
      const contentType = request.headers['content-type'];
      const call: Call = {
        method: request.method ?? 'GET',
        url: request.url ?? '',
        path,
        segments: decodeSegments(path),
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        body,
        mediaType: contentType ? parseMediaType(contentType) : undefined,
      };
      const handle = async (): Promise<Answer> => {
        if (tooLarge) return errorAnswer(413, `the body has ${size} bytes; ${label} accepts at most ${maxBodyBytes} (the service's own limit is not shown in the documents)`);
        const fault = checkCall(call) ?? options.policy.before(call);
        if (fault) {
          options.policy.onFault?.(call, fault);
          return fault;
        }
        return options.policy.after(call, await forward(call));
      };
      handle().then(
        (answer) => send(response, answer),
        (error: Error) => send(response, errorAnswer(503, `the mock could not reach Prism (${error.message})`)),
      );
    });
  });

  const rawAnswer = (socket: Socket, answer: Answer) => {
    if (!socket.writable) return socket.destroy();
    const head = [`HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? ''}`];
    for (const [name, value] of Object.entries({ ...answer.headers, 'Content-Length': String(answer.body.length), Connection: 'close' })) head.push(`${name}: ${value}`);
    socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), answer.body]));
  };

  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const reason = `${error.reason ?? error.message} (${error.code})`;
    const answer =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? errorAnswer(431, `the request line and headers exceed ${http.maxHeaderSize} bytes`)
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? errorAnswer(408, 'the request did not arrive in time')
          : errorAnswer(400, `the request is not valid HTTP/1.1: ${reason}`);
    options.policy.onFault?.(undefined, answer);
    rawAnswer(socket, answer);
  });
  server.on('checkExpectation', (request: http.IncomingMessage, response: http.ServerResponse) => {
    send(response, errorAnswer(417, `the expectation ${quote(String(request.headers.expect ?? ''))} is not supported (only 100-continue is)`, { headers: { Connection: 'close' } }));
  });
  // CONNECT and protocol upgrades are not part of the API.
  server.on('connect', (request: http.IncomingMessage, socket: Socket) => {
    const answer = errorAnswer(405, `CONNECT is not supported: the API answers plain HTTP requests`, { headers: { Allow: 'GET, POST' } });
    rawAnswer(socket, answer);
    void request;
  });
  server.on('upgrade', (request: http.IncomingMessage, socket: Socket) => {
    rawAnswer(socket, errorAnswer(400, `the protocol upgrade to ${quote(String(request.headers.upgrade ?? ''))} is not supported: the API answers plain HTTP requests`));
  });
  server.on('close', () => agent.destroy());
  return server;
}

export function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} on ${host} is in use: pick another with --port N (or --port 0 for a free one).`)
          : error,
      );
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
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
