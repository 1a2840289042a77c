// Starts one Prism process (mock or proxy), waits until it answers HTTP, and stops it with nothing left behind.
//
// Prism runs in its own process group (so a Ctrl-C in a terminal reaches only its owner, which stops it in order)
// with a preloaded guard (exit-with-parent.cjs) that ends it when its owner disappears without stopping it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { root } from './paths.js';

export type PrismLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface PrismOptions {
  command: 'mock' | 'proxy';
  /** The document Prism serves. */
  document: string;
  /** For `proxy`: the server that implements the API. */
  upstream?: string;
  /** More Prism options, e.g. ['--errors']. */
  extraArgs?: string[];
  /** Where Prism listens. Default 127.0.0.1 and a free port. */
  host?: string;
  port?: number;
  logLevel?: PrismLogLevel;
  startTimeoutMs?: number;
  /** Prism's own output, as it comes. */
  onOutput?: (text: string) => void;
}

export interface PrismProcess {
  child: ChildProcess;
  pid: number;
  host: string;
  port: number;
  url: string;
  /** The last 8 kB of Prism's output. */
  output(): string;
  running(): boolean;
  /** Resolves when the process has exited (for whatever reason). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

export const prismCli = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const guard = path.join(root, 'scripts', 'lib', 'exit-with-parent.cjs');

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

export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startPrism(options: PrismOptions): Promise<PrismProcess> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  const args = [
    '--require',
    guard,
    prismCli,
    options.command,
    options.document,
    ...(options.upstream ? [options.upstream] : []),
    '--port',
    String(port),
    '--host',
    host,
    '-v',
    options.logLevel ?? 'warn',
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-8000);
    options.onOutput?.(text);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  // The IPC channel only carries the owner's presence: it must not keep the owner alive.
  child.channel?.unref();
  child.on('error', (error) => collect(Buffer.from(`${error.message}\n`)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;

  const stop = async () => {
    if (!running()) return;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name); // the whole group: Prism and anything it started
      } catch {
        child.kill(name);
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };

  const url = urlOf(host, port);
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!running()) {
      await exited;
      throw new Error(`Prism exited (code ${child.exitCode}) before answering on ${url}:\n${output}`);
    }
    try {
      // Any HTTP answer means Prism is serving; with -v warn it prints nothing when ready.
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Prism did not answer on ${url} within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  }
  return { child, pid: child.pid!, host, port, url, output: () => output, running, exited, stop };
}
