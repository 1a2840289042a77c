// scripts/lib/proc.ts reads processes from Linux's /proc: the bench's CPU time per request and memory rest on it.
import { describe, expect, it } from 'vitest';
import { cpuMs, processTree, statFields, treeCpuMs, treeRssMb } from '../../scripts/lib/proc.js';

const cpuMsOfThisProcess = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

describe.runIf(process.platform === 'linux')('/proc readers', () => {
  it("reads this process's stat line after its name: its state, then its parent", () => {
    const fields = statFields('self')!;
    expect(fields[0]).toBe('R');
    expect(Number(fields[1])).toBe(process.ppid);
    expect(statFields(2 ** 22 + 1)).toBeUndefined(); // above Linux's largest pid: never a process
  });

  it('finds a process first in its own tree, and its parent above it', () => {
    expect(processTree(process.pid)[0]).toBe(process.pid);
    expect(processTree(process.ppid)).toContain(process.pid);
  });

  it("counts this process's CPU time as Node does, within a clock tick or two; its tree's time and memory at least its own", () => {
    const until = cpuMsOfThisProcess() + 100;
    while (cpuMsOfThisProcess() < until); // busy: the clock ticks that /proc counts
    // Between two readings of Node's own count (the process's other threads may run meanwhile), rounded to ticks.
    const before = cpuMsOfThisProcess();
    const counted = cpuMs(process.pid);
    const after = cpuMsOfThisProcess();
    expect(counted).toBeGreaterThan(before - 25);
    expect(counted).toBeLessThan(after + 25);
    // The tree holds the processes this one started and that still run too (other tests of this worker may start some).
    expect(treeCpuMs(process.pid)).toBeGreaterThanOrEqual(counted);
    expect(treeRssMb(process.pid)).toBeGreaterThan(process.memoryUsage().rss / 2 ** 20 / 2);
  });
});
