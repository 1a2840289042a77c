// What Linux's /proc says of processes: the fields of a process's stat line, its descendants, and CPU time in ms.
// One home for the scripts that measure processes (the bench, npm test's closing line).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The fields of /proc/PID/stat after the command's name (which may hold spaces and parentheses), so that index 0 is
 * the state (field 3 of proc(5)): field N of proc(5) is index N - 3. Undefined when the process is gone.
 */
export function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

let ticksPerSecond: number | undefined;

/** Clock ticks (as /proc counts CPU time) in milliseconds. */
export function ticksToMs(ticks: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (ticks * 1000) / ticksPerSecond;
}

/** A process and every process below it, the process first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = statFields(Number(entry))?.[1];
    if (parent !== undefined) children.set(Number(parent), [...(children.get(Number(parent)) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  for (const queue = [pid]; queue.length > 0; ) {
    const current = queue.shift()!;
    tree.push(current);
    queue.push(...(children.get(current) ?? []));
  }
  return tree;
}

/** The CPU time (user and system, fields 14 and 15 of proc(5)) a process has used so far, in ms; 0 once it is gone. */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? ticksToMs(Number(fields[11]) + Number(fields[12])) : 0;
}

/** The CPU time a process and every process below it have used so far, in ms. */
export function treeCpuMs(pid: number): number {
  return processTree(pid).reduce((sum, current) => sum + cpuMs(current), 0);
}

/** The resident memory of a process and its descendants, in MB. */
export function treeRssMb(pid: number): number {
  let kb = 0;
  for (const current of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${current}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}
