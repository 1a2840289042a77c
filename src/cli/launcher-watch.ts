// Calls back when the processes that launched this one have gone: `npm run x` stopped by SIGTERM kills its shell
// but not tsx, and a closed terminal or a killed parent leaves its children behind. The server commands use it only
// when asked (--stop-with-parent: the repository's npm start and npm run mock): a server command otherwise runs until
// it is signalled, whoever started it. Linux reads /proc; elsewhere only the parent is watched.
import { readFileSync } from 'node:fs';

/** Parent and process group of a process, from /proc; undefined elsewhere or when it is gone. */
function processStat(pid: number): { ppid: number; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** The processes that launched this one within its job (process group): npm, its shell, tsx. */
export function launchers(): number[] {
  const group = processStat(process.pid)?.pgrp;
  const found: number[] = [];
  for (let pid = process.ppid; pid > 1 && found.length < 16; ) {
    const stat = processStat(pid);
    if (!stat || stat.pgrp !== group) break;
    found.push(pid);
    pid = stat.ppid;
  }
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function whenLauncherGone(callback: () => void, intervalMs = 300): void {
  const parent = process.ppid;
  const watched = launchers();
  const timer = setInterval(() => {
    if (process.ppid !== parent || watched.some((pid) => !alive(pid))) {
      clearInterval(timer);
      callback();
    }
  }, intervalMs);
  timer.unref();
}
