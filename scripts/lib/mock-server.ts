// The contract mock: Prism on the mock document (see mock-document.ts for its URL shape), behind a thin front
// (mock-front.ts) that answers every bad request with a 4xx naming the fault, in the contract's error shape.
//
//   const mock = await startMock();          // a free port on 127.0.0.1; resolves once it answers
//   mock.baseUrl  // http://127.0.0.1:PORT/api  (a data center's {base_url})
//   mock.authUrl  // http://127.0.0.1:PORT      (its {auth_url})
//   await mock.stop();                        // closes the front, stops Prism, leaves no process behind
//
// If Prism dies (it should not: the front keeps the requests that used to kill it away), the front restarts it
// on the same port and the clients see one 400 for the request in flight.
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import type http from 'node:http';
import { outputs } from './paths.js';
import { apiRoot } from './mock-document.js';
import { closeServer, createFront, listen } from './front.js';
import { mockPolicy } from './mock-front.js';
import { freePort, startPrism, urlOf, type PrismLogLevel, type PrismProcess } from './prism-process.js';

export { freePort } from './prism-process.js';

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The mock document to serve; generated/mock/openapi.json by default. */
  document?: string;
  /** Prism's log level. Default warn. */
  logLevel?: PrismLogLevel;
  /** How long to wait for the first answer. Default 30 s. */
  startTimeoutMs?: number;
  /** Where Prism's own output goes; dropped by default. */
  onOutput?: (text: string) => void;
  /** The front in front of Prism (default true). false serves bare Prism on the port, with its own answers to faults. */
  front?: boolean;
  /** Largest request body the front accepts (413 above). Default 1 MiB. */
  maxBodyBytes?: number;
  /** How many times Prism is restarted after dying, within a minute, before the mock gives up. Default 5. */
  maxRestarts?: number;
}

export interface RunningMock {
  /** The API root, as a real data center's `{base_url}`: http://host:port/api */
  baseUrl: string;
  /** The identity provider, as a real data center's `{auth_url}`: http://host:port */
  authUrl: string;
  host: string;
  port: number;
  /** The Prism process serving now (a new one after a restart). */
  readonly process: ChildProcess;
  /** Prism's own address (behind the front; the same as authUrl without the front). */
  readonly prismUrl: string;
  /** Process ids: the process running the front (this one) and Prism. */
  pids(): { front: number | undefined; prism: number };
  /** How many times Prism was restarted after dying. */
  readonly restarts: number;
  /** Prism's recent output. */
  output(): string;
  stop(): Promise<void>;
  /** Resolves when the mock has stopped for good: after stop(), or when Prism keeps dying. */
  closed: Promise<{ reason: string }>;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const documentFile = options.document ?? outputs().mockDocument;
  const useFront = options.front ?? true;
  const prismOptions = {
    command: 'mock' as const,
    document: documentFile,
    logLevel: options.logLevel,
    startTimeoutMs: options.startTimeoutMs,
    onOutput: options.onOutput,
  };

  if (!useFront) {
    const port = options.port || (await freePort(host));
    const prism = await startPrism({ ...prismOptions, host, port });
    const closed = prism.exited.then(({ code, signal }) => ({ reason: `Prism exited (${signal ?? `code ${code}`})` }));
    return {
      baseUrl: `${prism.url}${apiRoot}`,
      authUrl: prism.url,
      host,
      port,
      process: prism.child,
      prismUrl: prism.url,
      pids: () => ({ front: undefined, prism: prism.pid }),
      restarts: 0,
      output: prism.output,
      stop: prism.stop,
      closed,
    };
  }

  const document = JSON.parse(readFileSync(documentFile, 'utf8'));
  let prism!: PrismProcess;
  // Until Prism answers (and while it restarts), calls wait for it.
  let restarting: Promise<PrismProcess> | undefined;
  let stopping = false;
  let restarts = 0;
  const restartTimes: number[] = [];
  let resolveClosed!: (value: { reason: string }) => void;
  const closed = new Promise<{ reason: string }>((resolve) => (resolveClosed = resolve));

  const server: http.Server = createFront({
    upstream: async () => {
      const current = restarting ? await restarting : prism;
      return { host: current.host, port: current.port };
    },
    upstreamAlive: () => restarting === undefined && prism.running(),
    policy: mockPolicy(document),
    maxBodyBytes: options.maxBodyBytes,
  });
  // The front listens first, so that a busy port fails at once.
  const port = await listen(server, options.port ?? 0, host);

  const giveUp = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    await closeServer(server, 500);
    resolveClosed({ reason });
  };

  const supervise = (current: PrismProcess) => {
    void current.exited.then(({ code, signal }) => {
      if (stopping || current !== prism) return;
      const now = Date.now();
      restartTimes.push(now);
      while (restartTimes.length > 0 && restartTimes[0]! < now - 60_000) restartTimes.shift();
      if (restartTimes.length > (options.maxRestarts ?? 5)) {
        void giveUp(`Prism kept dying (last exit: ${signal ?? `code ${code}`}):\n${current.output()}`);
        return;
      }
      options.onOutput?.(`\nPrism exited (${signal ?? `code ${code}`}); restarting it.\n`);
      restarting = startPrism({ ...prismOptions, host: '127.0.0.1', port: current.port })
        .catch(() => startPrism({ ...prismOptions, host: '127.0.0.1' }))
        .then((next) => {
          prism = next;
          restarts++;
          restarting = undefined;
          supervise(next);
          if (stopping) void next.stop();
          return next;
        });
      restarting.catch((error: Error) => void giveUp(`Prism could not be restarted: ${error.message}`));
    });
  };

  // Prism listens on loopback only; the front is what clients reach.
  restarting = startPrism({ ...prismOptions, host: '127.0.0.1' });
  try {
    prism = await restarting;
  } catch (error) {
    stopping = true;
    await closeServer(server, 0);
    throw error;
  } finally {
    restarting = undefined;
  }
  supervise(prism);

  const stop = async () => {
    const wasStopping = stopping;
    stopping = true;
    await closeServer(server);
    const current = restarting ? await restarting.catch(() => prism) : prism;
    await current.stop();
    if (!wasStopping) resolveClosed({ reason: 'stopped' });
  };

  const origin = urlOf(host, port);
  return {
    baseUrl: `${origin}${apiRoot}`,
    authUrl: origin,
    host,
    port,
    get process() {
      return prism.child;
    },
    get prismUrl() {
      return prism.url;
    },
    pids: () => ({ front: process.pid, prism: prism.pid }),
    get restarts() {
      return restarts;
    },
    output: () => prism.output(),
    stop,
    closed,
  };
}
