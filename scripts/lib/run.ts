// Runs a command of node_modules/.bin and fails with its output when it fails.
import { spawn } from 'node:child_process';
import { bin, root } from './paths.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], options: { allowFailure?: boolean } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(command), args, {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { code: code ?? 1, stdout, stderr };
      if (result.code !== 0 && !options.allowFailure) {
        reject(new Error(`${command} ${args.join(' ')} failed (exit ${result.code}):\n${stdout}${withoutBanner(stderr)}`));
      } else {
        resolve(result);
      }
    });
  });
}

/** Redocly CLI prints a boxed Node-version banner on stderr; it says nothing about our files. */
export function withoutBanner(text: string): string {
  return text.replace(/^\s*[╔║╚].*$\n?/gmu, '');
}
