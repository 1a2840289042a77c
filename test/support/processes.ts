// Processes of a command under test, read from /proc (Linux): to prove that nothing outlives it.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { distFile, root } from '../../scripts/lib/paths.js';

export { freePort } from '../../scripts/lib/ports.js';

/**
 * The compiled command line, what `npx monitoring-service-api` runs (npm test's pretest compiles it): a test that
 * starts the command runs this, which starts without tsx's compile step (about half a second of CPU per process).
 * Only `npm run mock` and what it runs (`tsx src/bin.ts`) are tested through tsx, in mock-cli.test.ts.
 */
export const compiledBin = distFile('bin.js');

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The command line of a process ('' when it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** Every process below `pid` (children, their children, ...), now. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie is gone for our purpose: it only waits for its parent to read its status.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return check();
}

export interface Command {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output (stdout and stderr), or rejects after the timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the command has exited and its output is read to the end (its pipes closed). */
  closed: Promise<void>;
}

/**
 * Sends a signal to a process and every process below it, as a terminal sends Ctrl-C to its foreground job.
 * (Commands under test stay in the test runner's process group: a Ctrl-C on the runner reaches them too.)
 */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  for (const target of [pid, ...descendants(pid)]) {
    try {
      process.kill(target, signal);
    } catch {
      // gone already
    }
  }
}

/** Starts a command (in the repository, or `cwd`), output captured. Not detached: it lives and dies with the suite. */
export function startCommand(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd: string = root): Command {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    child,
    output: () => output,
    exited,
    closed,
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`${pattern} did not appear within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() =>
          setTimeout(() => {
            if (listeners.has(check)) {
              listeners.delete(check);
              clearTimeout(timer);
              reject(new Error(`the command exited before ${pattern} appeared; output:\n${output}`));
            }
          }, 50),
        );
        check();
      }),
  };
}
