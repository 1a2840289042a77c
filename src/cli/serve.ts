// What the long-running commands (mock, proxy, mcp --http) share: they serve until SIGINT (Ctrl-C), SIGTERM or SIGHUP,
// whoever started them, as every server command does. Around that, what a script needs (decision 0019):
// - `--detach`: the server runs in a process of its own (its own session, its output in `--log-file` or nowhere), and
//   the command returns once it answers, having printed its banner (its address and pid); it fails, leaving nothing
//   running, when the server cannot start. One command, no polling: a CI step that starts it can end at once.
// - `--pid-file FILE`: the server's pid, written once it answers and removed when it stops.
// - `--stop-with-parent`: the opt-in of the repository's own npm scripts, which also stop when the process that
//   started them has gone (npm stopped by SIGTERM ends its shell but not tsx).
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type OptionSpec, UsageError } from './args.js';
import { unwritable, writeWhole } from './files.js';
import { whenLauncherGone } from './launcher-watch.js';

/** The options of every server command. */
export const servingOptions = {
  detach: { type: 'boolean', default: false },
  'pid-file': { type: 'string' },
  'log-file': { type: 'string' },
  'stop-with-parent': { type: 'boolean', default: false },
} satisfies OptionSpec;

/** The lines of a server command's usage that describe the serving options, their text starting at `column`. */
export function servingUsage(what: string, column: number): string {
  const help: [flag: string, lines: string[]][] = [
    [
      '--detach',
      [
        `run the ${what} in the background: return once it answers, having printed its address and pid`,
        `(exit 1 or 2, nothing left running, when it cannot start). It runs until signalled: kill PID.`,
      ],
    ],
    ['--pid-file FILE', [`write the ${what}'s pid to FILE once it answers; FILE is removed when it stops.`]],
    ['--log-file FILE', [`with --detach: append what the ${what} prints to FILE (else it goes nowhere).`]],
    ['--stop-with-parent', [`also stop when the process that started the ${what} has gone (the repository's npm start does).`]],
  ];
  return help
    .flatMap(([flag, [first, ...rest]]) => [`  ${flag.padEnd(column - 2)}${first}`, ...rest.map((line) => `${' '.repeat(column)}${line}`)])
    .join('\n');
}

/** What a server command's usage says of its life. */
export const untilSignalled = 'It runs until SIGINT (Ctrl-C), SIGTERM or SIGHUP, whoever started it.';

export interface Serving {
  detach: boolean;
  pidFile: string | undefined;
  logFile: string | undefined;
  stopWithParent: boolean;
}

/** The serving options of the parsed options, checked (a UsageError names the fault): nothing is written yet. */
export function servingOf(values: Record<string, unknown>, usage: string): Serving {
  const text = (name: string) => (typeof values[name] === 'string' && values[name] !== '' ? (values[name] as string) : undefined);
  const serving = {
    detach: values.detach === true,
    pidFile: text('pid-file'),
    logFile: text('log-file'),
    stopWithParent: values['stop-with-parent'] === true,
  };
  if (serving.logFile !== undefined && !serving.detach)
    throw new UsageError(`--log-file goes with --detach (in the foreground, redirect the output: > FILE).\n${usage}`);
  if (serving.detach && serving.stopWithParent)
    throw new UsageError(
      `--detach and --stop-with-parent: a detached server outlives the command that starts it. Give one of them.\n${usage}`,
    );
  for (const [flag, file] of [
    ['--pid-file', serving.pidFile],
    ['--log-file', serving.logFile],
  ] as const) {
    const problem = file === undefined ? undefined : unwritable(file);
    if (problem) throw new UsageError(`${flag} ${file}: cannot write it (${problem}).\n${usage}`);
  }
  return serving;
}

// ---------------------------------------------------------------------------------------------------------------
// The detached server and the command that starts it talk over an IPC channel, opened only when this variable says
// so (a process forked by a test runner has a channel of its own, which is not ours to use).

const detachedVariable = 'MONITORING_SERVICE_API_DETACHED';

type Report = { ready: { banner: string; warning?: string | undefined } } | { failed: { message: string; exitCode: number } };

/** This process as a detached server: its channel to the command that started it, until it has said how the start went. */
const starter: { report(message: Report, then?: () => void): void } | undefined = (() => {
  if (process.env[detachedVariable] !== '1' || !process.send) return undefined;
  delete process.env[detachedVariable];
  // The command that started it was stopped before the server answered (Ctrl-C on it): nobody knows this process.
  const orphaned = () => process.exit(1);
  process.once('disconnect', orphaned);
  return {
    report(message, then = () => {}) {
      process.off('disconnect', orphaned);
      process.send!(message, undefined, {}, () => {
        process.disconnect();
        then();
      });
    },
  };
})();

/** The command line with some options left out (their values too), as parseArgs reads it. */
function withoutOptions(args: string[], options: OptionSpec, leftOut: string[]): string[] {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const dropped = new Set<number>();
  for (const token of tokens) {
    if (token.kind !== 'option' || !leftOut.includes(token.name)) continue;
    dropped.add(token.index);
    if (token.value !== undefined && !token.inlineValue) dropped.add(token.index + 1);
  }
  return args.filter((_, index) => !dropped.has(index));
}

/** The command line's entry beside this module: `bin.js` once compiled, `bin.ts` under tsx (its loader is in execArgv). */
const entry = () => {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), '..', `bin${path.extname(here)}`);
};

/** What ended the start of a detached server: its report, or its exit before it reported. */
function startOutcome(child: ChildProcess): Promise<Report | { exited: string }> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as Report));
    child.once('exit', (code, signal) => resolve({ exited: signal ? `was stopped by ${signal}` : `exited with status ${code}` }));
    child.once('error', (error) => resolve({ exited: `could not start (${error.message})` }));
  });
}

/**
 * `--detach`: starts `command args` (without --detach and --log-file) as a server in a session of its own, its output
 * in the log file or nowhere (a step's pipe left open would hold the step), and waits for it to answer. Prints its
 * banner and returns once it does; prints its error and sets the exit status when it cannot start.
 */
export async function detach(what: string, command: string, args: string[], options: OptionSpec, serving: Serving): Promise<void> {
  const output = serving.logFile === undefined ? 'ignore' : openSync(serving.logFile, 'a');
  const child = spawn(process.execPath, [...process.execArgv, entry(), command, ...withoutOptions(args, options, ['detach', 'log-file'])], {
    detached: true,
    stdio: ['ignore', output, output, 'ipc'],
    env: { ...process.env, [detachedVariable]: '1' },
  });
  if (typeof output === 'number') closeSync(output);
  const outcome = await startOutcome(child);
  if ('ready' in outcome) {
    console.log(outcome.ready.banner);
    if (outcome.ready.warning) console.error(outcome.ready.warning);
    child.unref();
    return;
  }
  const where = serving.logFile === undefined ? '' : ` (its output: ${serving.logFile})`;
  console.error('failed' in outcome ? outcome.failed.message : `The ${what} ${outcome.exited} before it answered${where}.`);
  process.exitCode = 'failed' in outcome ? outcome.failed.exitCode : 1;
}

/**
 * Ends this process after a failed start with `exitCode`: a detached server first tells the command that started it,
 * which prints the message (this process's own output goes to the log file, or nowhere).
 */
export function exitAfterFailure(message: string, exitCode: number): void {
  if (starter) starter.report({ failed: { message, exitCode } }, () => process.exit(exitCode));
  else process.exit(exitCode);
}

/**
 * A server that answers: it stops on SIGINT, SIGTERM or SIGHUP (and with --stop-with-parent when the process that
 * started it has gone), then `after()` prints what it has to say; its pid file is written, its banner printed (with
 * how to stop it), and a detached server tells the command that started it. A second signal forces the exit.
 */
export function serve(
  what: string,
  server: { stop(): Promise<void> },
  serving: Serving,
  lines: { banner: string; warning?: string | undefined; after?: () => void },
): void {
  const { pidFile } = serving;
  let stopping = false;
  const shutdown = (why: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(why);
    void server.stop().then(() => {
      lines.after?.();
      process.exit(0);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(`${signal}: stopping the ${what}.`));
  if (serving.stopWithParent) whenLauncherGone(() => shutdown(`The process that started the ${what} has gone: stopping.`));
  if (pidFile !== undefined) {
    writeWhole(pidFile, `${process.pid}\n`);
    process.on('exit', () => removePidFile(pidFile));
  }
  const how = starter
    ? `It runs in the background: stop it with kill ${pidFile === undefined ? process.pid : `"$(cat ${pidFile})"`}.`
    : 'Stop it with Ctrl-C.';
  const banner = `${lines.banner}\n${how}`;
  console.log(banner);
  if (lines.warning) console.error(lines.warning);
  starter?.report({ ready: { banner, warning: lines.warning } });
}

/** Removes the pid file if it still names this process (another may have taken it since). */
function removePidFile(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
  } catch {
    // gone already
  }
}
