// The repository's scripts as a developer runs them: --help and an unknown option through the runner, and
// the install step of npm start / npm test that leaves a complete node_modules alone.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { exec } from '../support/consumer-project.js';

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

describe('scripts', () => {
  // The usage and the options of every script are checked in-process (test/unit/script-lines.test.ts); here, that
  // the runner they share makes a real process exit 0 on --help and 2 on an unknown option. The script is the one that
  // loads least before the runner reads its options (build and release load their whole tool chain first, some 1.5 s of
  // CPU each); they run as processes in the release checks (release below, build and release in
  // test/e2e/release-check.test.ts).
  it('test-tiers --help prints its usage and exits 0; with an unknown option it exits 2 naming it', async () => {
    const [help, unknown] = await Promise.all([
      exec(tsx, ['scripts/test-tiers.ts', '--help'], { cwd: root }),
      exec(tsx, ['scripts/test-tiers.ts', '--frobnicate'], { cwd: root }),
    ]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm test/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown option '--frobnicate'\.\nUsage: npm test/);
  });

  it('release --check runs the gate on the description and the package API: no breaking change since the last release', async () => {
    const result = await exec(tsx, ['scripts/release.ts', '--check', '--no-build'], { cwd: root });
    // Whether a release is due (a new CHANGELOG entry) depends on the work in progress; the gate's verdict does not.
    expect(result.stdout).toMatch(
      /^(No breaking change since release \d|Nothing to release: the description and the package's API are the ones released)/m,
    );
    expect(result.stdout + result.stderr).not.toMatch(/breaking change\(s\) since/);
  });

  it('the install step finds node_modules complete and installs nothing', async () => {
    const result = await exec(process.execPath, ['scripts/ensure-deps.mjs'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
  });
});
