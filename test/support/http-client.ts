// Plain HTTP for the mock's tests: node:http with the request target sent exactly as given (no URL
// normalization, unlike fetch), and raw bytes over a socket for requests that are not even valid HTTP.
import http from 'node:http';
import net from 'node:net';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body as JSON, when it is JSON. */
  json?: any;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  timeoutMs?: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function parse(status: number, headers: http.IncomingHttpHeaders, text: string): Reply {
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

/** Sends one request to origin (http://127.0.0.1:PORT) with `target` as the request target, as is. */
export function send(origin: string, target: string, options: SendOptions = {}): Promise<Reply> {
  const { hostname, port } = new URL(origin);
  // Without an explicit Content-Length, node:http sends the body of a GET after a header block that announces
  // none: the server then reads the body as the next request.
  const headers =
    options.body === undefined ? options.headers : { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) };
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: hostname, port, method: options.method ?? 'GET', path: target, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve(parse(response.statusCode ?? 0, response.headers, Buffer.concat(chunks).toString('utf8'))));
    });
    request.setTimeout(options.timeoutMs ?? 15_000, () =>
      request.destroy(new Error(`no answer to ${options.method ?? 'GET'} ${target} within ${options.timeoutMs ?? 15_000} ms`)),
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** Writes raw bytes to origin and reads the answer until the server closes the connection (or the timeout). */
export function sendRaw(origin: string, bytes: string | Buffer, timeoutMs = 10_000): Promise<Reply> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One answer is all we want: stop once it is complete.
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      if (end !== -1 && length && text.length >= end + 4 + Number(length[1])) socket.destroy();
    });
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!match)
        return reject(new Error(`no HTTP answer to ${JSON.stringify(String(bytes).slice(0, 60))}: ${JSON.stringify(text.slice(0, 200))}`));
      const end = text.indexOf('\r\n\r\n');
      const headers: http.IncomingHttpHeaders = {};
      for (const line of text.slice(0, end).split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve(parse(Number(match[1]), headers, text.slice(end + 4)));
    });
    socket.write(bytes);
  });
}

/** Runs tasks with at most `concurrency` at a time, in order of the list; resolves with their results. */
export async function pool<T, R>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
