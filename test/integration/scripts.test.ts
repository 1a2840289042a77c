// The repository's scripts as a developer runs them: --help on each, a clear message for an unknown option, and
// the install step of npm start / npm test that leaves a complete node_modules alone.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { exec } from '../support/consumer-project.js';

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

describe('scripts', () => {
  it.each(['build', 'release', 'bench', 'package'])('%s --help prints its usage and exits 0; an unknown option exits 2 naming it', async (name) => {
    const help = await exec(tsx, [`scripts/${name}.ts`, '--help'], { cwd: root });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: npm run ${name}`));
    const unknown = await exec(tsx, [`scripts/${name}.ts`, '--frobnicate'], { cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown option '--frobnicate'\.\nUsage: npm run/);
  });

  it('the install step finds node_modules complete and installs nothing', async () => {
    const result = await exec(process.execPath, ['scripts/ensure-deps.mjs'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
  });
});
