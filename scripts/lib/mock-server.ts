// Starts and stops the Prism mock on the mock document (see mock-document.ts for its URL shape).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { outputs, root } from './paths.js';
import { apiRoot } from './mock-document.js';

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  host?: string;
  /** The mock document to serve; generated/mock/openapi.json by default. */
  document?: string;
  /** Prism's log level. */
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  /** How long to wait for the first answer. */
  startTimeoutMs?: number;
  /** Where Prism's own output goes; dropped by default. */
  onOutput?: (text: string) => void;
}

export interface RunningMock {
  /** The API root, as a real data center's `{base_url}`: http://host:port/api */
  baseUrl: string;
  /** The identity provider, as a real data center's `{auth_url}`: http://host:port */
  authUrl: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const prismCli = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  const document = options.document ?? outputs().mockDocument;
  const child = spawn(process.execPath, [prismCli, 'mock', document, '--port', String(port), '--host', host, '-v', options.logLevel ?? 'warn'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-4000);
    options.onOutput?.(text);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };

  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited (code ${child.exitCode}) before answering:\n${output}`);
    try {
      // Any HTTP answer means Prism is serving; with -v warn it prints nothing when ready.
      await fetch(`${origin}${apiRoot}/`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Prism did not answer on ${origin} within ${options.startTimeoutMs ?? 30_000} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { baseUrl: `${origin}${apiRoot}`, authUrl: origin, port, process: child, stop };
}
