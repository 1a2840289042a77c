// The MCP server over Streamable HTTP, for assistants in other processes or on other machines. Anyone who can reach
// the port could otherwise spend the operator's credentials, so every request is checked before the protocol sees it
// (src/http/guard.ts): its Host must name this machine, the listen address or a name the operator allowed (DNS
// rebinding), a web page's Origin must be allowed, and it must carry the operator's bearer token. Each client gets a
// session of its own (an MCP server per session over the tool calls they share: one client of the service, one access
// token); the sessions are capped and idle ones are closed, so that no client can make the server keep unbounded memory.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  allowedHostNames,
  allowedOriginList,
  bearerFault,
  bearerTokenFault,
  hostFault,
  listensOnLoopback,
  originFault,
  ownOrigins,
} from '../http/guard.js';
import { closeServer, closeSilentConnections, listen, serverLimits, urlOf } from '../http/server.js';
import { OptionError, portOption, positiveWholeNumber } from '../options.js';
import { createToolCalls, type McpServerOptions, type ToolCalls } from './calls.js';
import { serverFor } from './server.js';

export interface McpHttpOptions extends McpServerOptions {
  /** The token every request must carry, `Authorization: Bearer <token>`: at least 16 characters, kept secret. */
  token: string;
  /** Port to listen on (0: a free one). Default 4020. */
  port?: number | undefined;
  /** Address to listen on. Default 127.0.0.1 (this machine only). */
  host?: string | undefined;
  /** Origins of web pages allowed to call besides the server's own (`https://assistant.example.com`). */
  allowedOrigins?: readonly string[] | undefined;
  /** Names the server is reached by besides this machine's and its listen address (its public name behind a proxy). */
  allowedHosts?: readonly string[] | undefined;
  /** Most sessions open at once. Default 32. */
  maxSessions?: number | undefined;
  /** A session unused this long is closed when room is needed for a new one. Default 30 minutes. */
  sessionIdleMs?: number | undefined;
  /** The time in ms (tests). Default Date.now. */
  clock?: (() => number) | undefined;
}

export interface RunningMcpHttpServer {
  /** The MCP endpoint, `http://127.0.0.1:4020/mcp`. */
  url: string;
  host: string;
  port: number;
  /** True when the address serves other machines too (0.0.0.0, a network address). */
  beyondLoopback: boolean;
  /** The sessions open now. */
  sessions(): number;
  stop(): Promise<void>;
}

/** The path of the MCP endpoint. */
export const mcpEndpoint = '/mcp';
const defaults = { port: 4020, host: '127.0.0.1', maxSessions: 32, sessionIdleMs: 30 * 60_000 };
/** A message of the protocol is small: a tool's arguments. The SDK's own bound is 4 MiB. */
const maxRequestBodySize = 1024 * 1024;

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/** A refusal in the shape of the protocol's errors (a JSON-RPC error without an id), with a message that says why. */
function refuse(response: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: status === 404 ? -32001 : -32000, message }, id: null });
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
  response.end(body);
}

/** Checks the options that are the HTTP transport's own; a TypeError names the first wrong one. */
function httpSettings(options: McpHttpOptions) {
  const { token } = options;
  const tokenFault = bearerTokenFault('token', token);
  if (tokenFault) throw new OptionError(tokenFault);
  const port = portOption(options.port, defaults.port);
  return {
    token,
    port,
    host: options.host ?? defaults.host,
    allowedOrigins: allowedOriginList('allowedOrigins', options.allowedOrigins),
    allowedHosts: allowedHostNames('allowedHosts', options.allowedHosts),
    maxSessions: positiveWholeNumber('maxSessions', options.maxSessions, defaults.maxSessions),
    sessionIdleMs: positiveWholeNumber('sessionIdleMs', options.sessionIdleMs, defaults.sessionIdleMs),
    clock: options.clock ?? Date.now,
  };
}

/**
 * The body of a client's first request, read whole before a session's place is taken: its JSON, or its text when it
 * is none (the protocol's transport then answers the parse error). Undefined when it is larger than
 * maxRequestBodySize (answered 413 here).
 */
function firstBody(request: http.IncomingMessage, response: http.ServerResponse): Promise<unknown> {
  const tooLarge = () =>
    refuse(response, 413, `Payload Too Large: a message of this server has at most ${maxRequestBodySize} bytes.`, { Connection: 'close' });
  return new Promise((resolve, reject) => {
    if (Number(request.headers['content-length']) > maxRequestBodySize) {
      tooLarge();
      return resolve(undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxRequestBodySize) return void chunks.push(chunk);
      // Read no further: answered, then the connection closed once the answer has left.
      request.removeAllListeners('data');
      request.pause();
      response.once('finish', () => request.destroy());
      tooLarge();
      resolve(undefined);
    });
    request.on('error', reject);
    request.on('end', () => {
      if (size > maxRequestBodySize) return;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(text);
      }
    });
  });
}

/** The answers for a page of an allowed origin: which headers it may send and read (CORS). */
function allowedOriginHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': 'Mcp-Session-Id', Vary: 'Origin' };
}

/** The open sessions: capped, the idle ones closed when room is needed. */
class Sessions {
  private readonly open = new Map<string, Session>();
  private opening = 0;

  constructor(
    private readonly calls: ToolCalls,
    private readonly settings: ReturnType<typeof httpSettings>,
  ) {}

  get size() {
    return this.open.size;
  }

  /** The session of an id, marked as used now. */
  use(id: string): Session | undefined {
    const session = this.open.get(id);
    if (session) session.lastUsed = this.settings.clock();
    return session;
  }

  /**
   * A new session for a client's first request, whose body has been read whole: a place is taken only by an
   * initialize request, and only while it is answered (a client that sends its request slowly holds none). False
   * when all places are taken by sessions in use.
   */
  async start(request: http.IncomingMessage, response: http.ServerResponse, body: unknown): Promise<boolean> {
    const initializes = [body].flat().some((message) => isInitializeRequest(message));
    // Idle sessions are closed only when room is needed: a client back after a long pause keeps its session otherwise.
    if (initializes && this.open.size + this.opening >= this.settings.maxSessions) this.closeIdle();
    if (initializes && this.open.size + this.opening >= this.settings.maxSessions) return false;
    const taken = initializes ? 1 : 0;
    this.opening += taken;
    const server = serverFor(this.calls);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      maxRequestBodySize,
      onsessioninitialized: (id) => void this.open.set(id, { server, transport, lastUsed: this.settings.clock() }),
      onsessionclosed: (id) => void this.open.delete(id),
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    } finally {
      this.opening -= taken;
      // A first request that was not an initialize opened nothing: its server is not kept.
      if (transport.sessionId === undefined) await server.close();
    }
    return true;
  }

  private closeIdle(): void {
    const now = this.settings.clock();
    for (const [id, session] of this.open) {
      if (now - session.lastUsed < this.settings.sessionIdleMs) continue;
      this.open.delete(id);
      void session.server.close();
    }
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.open.values()];
    this.open.clear();
    await Promise.all(sessions.map((session) => session.server.close()));
  }
}

/** Serves the MCP server over Streamable HTTP at `/mcp`. Throws a TypeError for a wrong option before listening. */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<RunningMcpHttpServer> {
  const settings = httpSettings(options);
  const sessions = new Sessions(createToolCalls(options), settings);
  let origins: string[] = [];

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const fault = hostFault(request.headers, settings.host, settings.allowedHosts) ?? originFault(request.headers, origins);
    if (fault !== undefined) return refuse(response, 403, `Refused: ${fault}.`);
    const cors = allowedOriginHeaders(request.headers.origin);
    if ((request.url ?? '').split('?')[0] !== mcpEndpoint)
      return refuse(response, 404, `Not found: the MCP endpoint is ${mcpEndpoint}.`, cors);
    if (request.method === 'OPTIONS' && request.headers.origin !== undefined) {
      response.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'POST, DELETE',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
        'Access-Control-Max-Age': '600',
      });
      return void response.end();
    }
    const unauthorized = bearerFault(request.headers, settings.token);
    if (unauthorized !== undefined)
      return refuse(response, 401, `Unauthorized: ${unauthorized}.`, { ...cors, 'WWW-Authenticate': 'Bearer' });
    if (request.method !== 'POST' && request.method !== 'DELETE') {
      // GET would open a stream for messages of the server's own, and this server sends none.
      return refuse(response, 405, `${request.method} is not served: POST the protocol's messages, DELETE ends a session.`, {
        ...cors,
        Allow: 'POST, DELETE',
      });
    }
    for (const [name, value] of Object.entries(cors)) response.setHeader(name, value);
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.use(id);
      if (!session) return refuse(response, 404, 'Session not found: it ended or was closed after being idle; initialize a new one.');
      return session.transport.handleRequest(request, response);
    }
    if (request.method === 'DELETE') return refuse(response, 400, 'DELETE ends a session: send its Mcp-Session-Id header.');
    const body = await firstBody(request, response);
    if (body === undefined) return;
    if (!(await sessions.start(request, response, body))) {
      refuse(
        response,
        503,
        `This server holds at most ${settings.maxSessions} sessions and all are in use: end one (DELETE with its Mcp-Session-Id) or wait until one has been idle for ${Math.round(settings.sessionIdleMs / 60_000)} minutes.`,
      );
    }
  }

  const { requestTimeout, headersTimeout, connectionsCheckingInterval, keepAliveTimeout, maxConnections } = serverLimits;
  const server = http.createServer(
    { requestTimeout, headersTimeout, connectionsCheckingInterval, keepAliveTimeout },
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (response.headersSent) return void response.destroy();
        refuse(response, 500, `The MCP server failed on this request (${error instanceof Error ? error.message : String(error)}).`);
      });
    },
  );
  // A cap on open connections bounds the memory of many slow or idle clients, and none may keep its place unused.
  server.maxConnections = maxConnections;
  closeSilentConnections(server, (socket) => socket.destroy());
  const port = await listen(server, settings.port, settings.host);
  origins = [...ownOrigins(settings.host, port), ...settings.allowedOrigins];
  return {
    url: `${urlOf(settings.host, port)}${mcpEndpoint}`,
    host: settings.host,
    port,
    beyondLoopback: !listensOnLoopback(settings.host),
    sessions: () => sessions.size,
    stop: async () => {
      await sessions.closeAll();
      await closeServer(server);
    },
  };
}
