// Processes the bench starts as their users start them: servers polled until they answer, Node scripts that print
// their figures. Their memory and CPU time are read from /proc (scripts/lib/proc.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { distFile, root } from '../paths.js';
import { freePort } from '../ports.js';
import type { SampleRequest } from '../sample-requests.js';
import { sendSample } from './load.js';
import { since } from './section.js';

export interface Started {
  child: ChildProcess;
  origin: string;
  /** From the spawn to the first answer of the probe request. */
  startupMs: number;
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Spawns a server on a known port and polls it until `first` answers 200. */
export async function startServer(command: string, args: string[], port: number, first: SampleRequest): Promise<Started> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited:\n${output}`);
      return (await sendSample(new URL(origin), first).catch(() => 0)) === 200 ? true : undefined;
    },
    60_000,
    `the first answer of ${args.join(' ')}`,
  );
  return { child, origin, startupMs: since(started) };
}

/** The command line as the build compiles it. */
export const distBin = distFile('bin.js');

/**
 * The mock's command line on a free port, polled until `first` answers: `options` after `mock`, and `nodeOptions`
 * for Node itself (a profiler, the heap's bounds).
 */
export async function startMockCommand(first: SampleRequest, options: string[] = [], nodeOptions: string[] = []): Promise<Started> {
  const port = await freePort();
  return startServer(process.execPath, [...nodeOptions, distBin, 'mock', '--port', String(port), ...options], port, first);
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** A child Node process that runs `code` (an ES module) and prints one JSON line of figures. */
export function nodeFigures(code: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split('\n').at(-1)!)) : reject(new Error(`figures script exited ${code}: ${output}`)),
    );
  });
}
