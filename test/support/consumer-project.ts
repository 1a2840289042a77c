// Fresh projects that install the packed package, as its users do, and the tools they bring (TypeScript 7, newer
// Node binaries from the npm registry). Commands run with an environment cleaned of this repository's npm and
// test-runner variables, so that what runs there behaves as in a project of its own.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../../scripts/lib/paths.js';

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: no npm_* variables of our own run, no vitest state, no NODE_OPTIONS. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|TSX_|INIT_CWD$)/i.test(name)) continue;
    env[name] = value;
  }
  return {
    ...env,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** Runs a command to its end; never throws for a non-zero exit (the caller judges the result). */
export function exec(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string },
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A command that exits before reading its input closes the pipe: that is no failure of the run.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Fails with the command's output when it did not exit 0. */
export async function execOk(command: string, args: string[], options: Parameters<typeof exec>[2]): Promise<Result> {
  const result = await exec(command, args, options);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * Where the projects go: a RAM disk (/dev/shm) when there is one with room that allows programs to run (the projects
 * hold some 20,000 files, a quarter of a gigabyte, and run their own binaries), else the system's temporary folder.
 */
export function scratchRoot(): string {
  try {
    const mount = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find(([, point, type]) => point === '/dev/shm' && type === 'tmpfs');
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (mount && !mount[3]!.split(',').includes('noexec') && bavail * bsize > 2 * 1024 ** 3) return '/dev/shm';
  } catch {
    // no /proc or no /dev/shm: not Linux, or a container without them
  }
  return os.tmpdir();
}

/** A folder with a package.json of a user's project (ESM unless `type` says otherwise). */
export function createProject(dir: string, type: 'module' | 'commonjs' = 'module'): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: path.basename(dir), version: '1.0.0', private: true, type }, null, 2)}\n`,
  );
  return dir;
}

/** `npm install` in a project, from the registry (or npm's cache). */
export function npmInstall(dir: string, packages: string[]): Promise<Result> {
  return execOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], { cwd: dir });
}

/**
 * Where the tools go: the user's cache (XDG_CACHE_HOME, else ~/.cache), as npm's own cache, shared by every clone and
 * worktree of the repository on the machine. Each is an exact version: installed once, it serves them all (the six
 * tools are some 750 MB and 17 s of CPU to install, which a fresh clone paid again when they lived in its
 * node_modules/.cache).
 */
export const toolsDir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'monitoring-service-api', 'test-tools');

/**
 * A tool installed once into the tools' folder (e.g. `typescript@7.0.2`, `node@24.21.0`, with the packages it needs
 * beside it in `with`), kept between runs and clones; resolves to the path of its binary `bin`.
 */
export async function tool(spec: string, bin: string, withPackages: string[] = []): Promise<string> {
  const dir = path.join(toolsDir, [spec, ...withPackages].join('+').replace(/[^A-Za-z0-9.@+-]/g, '_'));
  const file = path.join(dir, 'node_modules', '.bin', bin);
  if (existsSync(file)) return file;
  // Installed in a folder of its own, then moved into place whole: a run in another clone may install it meanwhile.
  mkdirSync(toolsDir, { recursive: true });
  const fresh = mkdtempSync(`${dir}.installing-`);
  try {
    await execOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--prefix', fresh, spec, ...withPackages], {
      cwd: fresh,
    });
    try {
      renameSync(fresh, dir);
    } catch (error) {
      if (!existsSync(file)) throw new Error(`${dir} holds no ${bin}: remove the folder, and it is installed again`, { cause: error });
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
  return file;
}

/**
 * Tasks run in the order given, at most `width` of them at a time; `widen` lets more run at once from then on, `stop`
 * drops the tasks still waiting and any given later (their promises reject).
 */
export function inTurns(width: number) {
  let running = 0;
  let stopped = false;
  const waiting: { go: () => void; drop: (error: Error) => void }[] = [];
  const next = () => {
    if (stopped) for (const { drop } of waiting.splice(0)) drop(new Error('not run: stopped before its turn'));
    while (running < width && waiting.length > 0) {
      running++;
      waiting.shift()!.go();
    }
  };
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const turn = new Promise<void>((go, drop) => waiting.push({ go, drop }));
      next();
      return turn.then(() =>
        task().finally(() => {
          running--;
          next();
        }),
      );
    },
    widen(to: number) {
      width = Math.max(width, to);
      next();
    },
    stop() {
      stopped = true;
      next();
    },
  };
}

/** Disk use of a folder in bytes (du, apparent sizes). */
export async function diskUse(dir: string): Promise<number> {
  const result = await execOk('du', ['-sb', dir], { cwd: root });
  return Number(result.stdout.split(/\s/)[0]);
}
