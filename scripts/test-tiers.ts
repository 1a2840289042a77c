// npm test: the three tiers one after the other, each in a vitest process of its own, then one closing line with the
// counts and each tier's wall time and CPU time (user + system of the tier's whole process tree: vitest, its
// workers, and what the tests start: Chromium, npm, the compilers). It is also how the tiers' time targets are
// measured (decisions/0010): `npm test -- --tiers docs` times the docs browser test alone.
//
// CPU time comes from the kernel's count of the children this process waited for (/proc/self/stat: cutime and
// cstime), which holds every descendant that its parent waited for in turn. A process that outlives its parent
// would be missed; none does (the process tests check that nothing is left behind).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript, type ScriptLine, UsageError } from '../src/cli/args.js';
import { bin, root } from './lib/paths.js';

/** What each measure runs: vitest's arguments after `run`. */
const measures: Record<string, string[]> = {
  unit: ['--project', 'unit'],
  integration: ['--project', 'integration'],
  e2e: ['--project', 'e2e'],
  docs: ['--project', 'e2e', 'test/e2e/docs.test.ts'],
};

export const testTiersLine = {
  usage: `Usage: npm test -- [--tiers unit,integration,e2e]
Runs each tier in its own vitest process, one after the other, and prints each one's wall and CPU time.
  --tiers LIST   the tiers to run, in order, of ${Object.keys(measures).join(', ')} (docs: the docs browser test alone).
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

/** The CPU time, in ms, of the children of this process that have ended (user + system). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command's name (which may hold spaces): cutime and cstime are the 16th and 17th of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks();
}

let ticks: number | undefined;
function clockTicks(): number {
  ticks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticks;
}

/** Runs one tier; its summary reporter writes the counts to the file named by TEST_SUMMARY_FILE. */
async function runTier(tier: string, scratch: string): Promise<TierTime> {
  const summaryFile = path.join(scratch, `${tier}.json`);
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const exitCode = await new Promise<number>((resolve) => {
    const child = spawn(bin('vitest'), ['run', ...measures[tier]!], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, TEST_SUMMARY_FILE: summaryFile },
    });
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
  if (times.some((time) => time.exitCode !== 0 || time.failed > 0)) process.exitCode = 1;
}

runScript(testTiersLine, import.meta.url, main);
