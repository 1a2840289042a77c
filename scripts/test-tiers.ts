// npm test: the three tiers one after the other, each in a vitest process of its own, then one closing line with the
// counts and each tier's wall time and CPU time (user + system of the tier's whole process tree: vitest, its
// workers, and what the tests start: Chromium, npm, the compilers). It is also how the tiers' time targets are
// measured (decisions/0010): `npm test -- --tiers docs` times the docs page's browser tests alone (the page, its console).
//
// CPU time: the kernel counts a process's time into its parent's when the parent waits for it, so the times of every
// descendant that was waited for reach this process. Chromium's helper processes are not: they outlive the browser
// process and go to init. So the tier runs under a small python3 helper made a "child subreaper" (Linux prctl): the
// orphans of the tier go to it and it waits for them. Without python3 the time of such orphans is missed, and the
// closing line says so.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript, type ScriptLine, UsageError } from '../src/cli/args.js';
import { bin, root } from './lib/paths.js';
import { statFields, ticksToMs } from './lib/proc.js';

/** What each measure runs: vitest's arguments after `run`. */
const measures: Record<string, string[]> = {
  unit: ['--project', 'unit'],
  integration: ['--project', 'integration'],
  e2e: ['--project', 'e2e'],
  docs: ['--project', 'e2e', 'test/e2e/docs.test.ts', 'test/e2e/docs-console.test.ts'],
};

export const testTiersLine = {
  usage: `Usage: npm test -- [--tiers unit,integration,e2e]
Runs each tier in its own vitest process, one after the other, and prints each one's wall and CPU time.
  --tiers LIST   the tiers to run, in order, of ${Object.keys(measures).join(', ')} (docs: the docs page's browser tests alone).
                 Default unit,integration,e2e.
  -h, --help     this help.
Exit status 1 when a test failed.`,
  options: { tiers: { type: 'string', default: 'unit,integration,e2e' } },
} satisfies ScriptLine;

export interface TierCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface TierTime extends TierCounts {
  tier: string;
  wallMs: number;
  cpuMs: number;
  exitCode: number;
}

/**
 * Runs a command as a child subreaper (python3, Linux): orphans of the command go to the helper, which waits for them,
 * so that their time reaches the helper's count of its children, and through it this process's.
 */
const subreaper = `
import ctypes, os, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
child = os.fork()
if child == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
status = os.waitpid(child, 0)[1]
deadline = time.time() + 10  # orphans still running (a browser's helpers) get this long to end
while time.time() < deadline:
    try:
        if os.waitpid(-1, os.WNOHANG)[0] == 0: time.sleep(0.05)
    except ChildProcessError:
        break
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)
`;

let python: boolean | undefined;
/** Whether python3 is there to run the subreaper. */
function hasPython(): boolean {
  try {
    python ??= execFileSync('python3', ['-c', 'import ctypes'], { stdio: 'ignore' }) !== undefined;
  } catch {
    python = false;
  }
  return python;
}

/** The CPU time, in ms, of the children of this process that have ended (user + system), from /proc/self/stat. */
function childrenCpuMs(): number {
  // cutime and cstime: fields 16 and 17 of proc(5).
  const fields = statFields('self') ?? [];
  return ticksToMs(Number(fields[13]) + Number(fields[14]));
}

/** Runs one tier; its summary reporter writes the counts to the file named by TEST_SUMMARY_FILE. */
async function runTier(tier: string, scratch: string): Promise<TierTime> {
  const summaryFile = path.join(scratch, `${tier}.json`);
  const vitest = [bin('vitest'), 'run', ...measures[tier]!];
  const [command, ...args] = hasPython() ? ['python3', '-c', subreaper, ...vitest] : vitest;
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const exitCode = await new Promise<number>((resolve) => {
    const child = spawn(command!, args, { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_SUMMARY_FILE: summaryFile } });
    child.on('close', (code) => resolve(code ?? 1));
  });
  const wallMs = performance.now() - started;
  const cpuMs = childrenCpuMs() - cpuBefore;
  let counts: TierCounts = { passed: 0, failed: 1, skipped: 0 };
  try {
    counts = JSON.parse(readFileSync(summaryFile, 'utf8')) as TierCounts;
  } catch {
    // vitest ended before its reporter wrote: a failure, counted as one
  }
  return { tier, wallMs, cpuMs, exitCode, ...counts };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The closing line: the counts of every tier, then each tier's time and CPU, then the sum. */
export function closingLine(times: TierTime[]): string {
  const sum = (key: 'passed' | 'failed' | 'skipped' | 'wallMs' | 'cpuMs') => times.reduce((total, time) => total + time[key], 0);
  const each = times.map((time) => `${time.tier} ${seconds(time.wallMs)} (CPU ${seconds(time.cpuMs)})`).join(', ');
  return `tests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped; ${each}; all ${seconds(sum('wallMs'))} (CPU ${seconds(sum('cpuMs'))})`;
}

/** The tiers of `--tiers`, checked. */
export function tiersOf(list: string): string[] {
  const tiers = list.split(',').map((tier) => tier.trim());
  const unknown = tiers.find((tier) => !(tier in measures));
  if (unknown !== undefined)
    throw new UsageError(`--tiers: no tier "${unknown}" (${Object.keys(measures).join(', ')})\n${testTiersLine.usage}`);
  return tiers;
}

async function main(values: Record<string, string | boolean | undefined>) {
  const tiers = tiersOf(String(values.tiers));
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'test-tiers-'));
  const times: TierTime[] = [];
  try {
    for (const tier of tiers) times.push(await runTier(tier, scratch));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`\n${closingLine(times)}`);
  if (!hasPython())
    console.log("(without python3: the CPU time of processes that outlived their parent, such as Chromium's helpers, is not counted)");
  if (times.some((time) => time.exitCode !== 0 || time.failed > 0)) process.exitCode = 1;
}

runScript(testTiersLine, import.meta.url, main);
