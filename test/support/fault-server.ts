// A scriptable HTTP server on 127.0.0.1 (a free port) that records every request it receives and answers as a
// test tells it: any status, headers and body, late, or not at all (dropped connection, no answer).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** Order of arrival, from 0. */
  index: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body (sent with Content-Type: application/json;charset=UTF-8). */
  json?: unknown;
  /** A text body. */
  text?: string;
  /** Answer this late. */
  delayMs?: number;
  /** Close the connection without answering (a network error for the client). */
  drop?: boolean;
  /** Never answer (until the server stops). */
  hang?: boolean;
}

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface FaultServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Replace the handler. */
  handle(handler: Handler): void;
  /** Forget the recorded requests. */
  clear(): void;
  stop(): Promise<void>;
}

const notFound: Handler = () => ({ status: 404, json: { code: 404, message: 'URL Not found' } });

export async function startFaultServer(initial: Handler = notFound): Promise<FaultServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        index: requests.length,
      };
      requests.push(recorded);
      let reply: Reply;
      try {
        reply = await handler(recorded);
      } catch (error) {
        reply = { status: 500, text: `fault server handler failed: ${String(error)}` };
      }
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (reply.hang) return;
      if (reply.drop) {
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> = { ...reply.headers };
      let body = '';
      if (reply.json !== undefined) {
        body = JSON.stringify(reply.json);
        headers['Content-Type'] ??= 'application/json;charset=UTF-8';
      } else if (reply.text !== undefined) {
        body = reply.text;
        headers['Content-Type'] ??= 'text/plain';
      }
      if (!res.destroyed) res.writeHead(reply.status ?? 200, headers).end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('fault server: no address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    handle(next) {
      handler = next;
    },
    clear() {
      requests.length = 0;
    },
    stop() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The service's success envelope. */
export const envelope = (data: unknown) => ({ code: 0, message: 'success', data });
