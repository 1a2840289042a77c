// The release check end to end, as a maintainer works: a copy of the repository, changes to openapi/, and
// `npm run release -- --check`, which builds generated/ and dist/ and judges the description and the package's
// TypeScript API against releases/. In the e2e tier: its build of the copy runs the TypeScript compiler over the
// whole package, and beside the integration tier's own compiler runs on two cores it made them miss their limits.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changelogFile, wayForward } from '../../scripts/lib/breaking-changes.js';
import { root } from '../../scripts/lib/paths.js';
import { exec } from '../support/consumer-project.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'release-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A copy of the repository, as a maintainer's checkout: its files (not dist/, .git or node_modules), and a
 * node_modules of links to this one's packages, without its build stamps (the copy builds for itself).
 */
function repositoryCopy(): string {
  const copy = path.join(scratch, 'repository');
  const skipped = new Set(['node_modules', 'dist', '.git', 'test-results'].map((name) => path.join(root, name)));
  cpSync(root, copy, { recursive: true, filter: (source) => !skipped.has(source) && !source.endsWith('.tgz') });
  mkdirSync(path.join(copy, 'node_modules'));
  for (const entry of readdirSync(path.join(root, 'node_modules')))
    if (entry !== '.cache') symlinkSync(path.join(root, 'node_modules', entry), path.join(copy, 'node_modules', entry));
  return copy;
}

/** Edits a file of the copy; the edit must change it. */
function edit(copy: string, file: string, change: (text: string) => string): void {
  const absolute = path.join(copy, file);
  const before = readFileSync(absolute, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} must apply`).not.toBe(before);
  writeFileSync(absolute, after);
}

// Two runs: the two additions, then a removal on top of them.
describe('npm run release -- --check, on a copy of the repository', () => {
  it('passes an optional attribute of Monitor and a known value of the open MonitorType with no CHANGELOG line; refuses a removed property', async () => {
    const copy = repositoryCopy();
    edit(copy, 'openapi/components/schemas/Monitor.yaml', (text) =>
      text.replace('properties:\n', 'properties:\n  note:\n    type: string\n    description: A note on the monitor.\n'),
    );
    edit(copy, 'openapi/components/schemas/constants/monitor-types.yaml', (text) =>
      text
        .replace("    - 'PROBE_CAPACITY'\n", "    - 'PROBE_CAPACITY'\n    - 'EXAMPLE-TYPE'\n")
        .replace(/( {4}- PROBE_CAPACITY +# PROBE_CAPACITY\n)/, '$1    - EXAMPLE_TYPE # EXAMPLE-TYPE\n')
        .replace(
          /( {4}- further entry returned by GET \/api\/monitor_type_constants # PROBE_CAPACITY\n)/,
          '$1    - Cloud services # EXAMPLE-TYPE\n',
        )
        .replace('      - MEMORYDB-GLOBAL-CLUSTER\n', '      - MEMORYDB-GLOBAL-CLUSTER\n      - EXAMPLE-TYPE\n'),
    );
    const check = (...options: string[]) =>
      exec('npm', ['run', '--silent', 'release', '--', '--check', ...options], { cwd: copy, timeoutMs: 480_000 });

    const additions = await check();
    expect(additions.code, additions.stdout + additions.stderr).toBe(0);
    expect(additions.stdout).toMatch(/^No breaking change since release 2\.0 /m);
    expect(additions.stdout).toMatch(/^The gate passes\. Before a release: .*CHANGELOG\.md/m);
    expect(readFileSync(path.join(copy, 'CHANGELOG.md'), 'utf8')).toBe(readFileSync(changelogFile, 'utf8'));

    // The property, and its example's value (lint checks that examples name only declared attributes).
    edit(copy, 'openapi/components/schemas/MonitorGroupCreate.yaml', (text) => text.replace(/\n {2}description:\n(?: {4}.*\n)+/, '\n'));
    edit(copy, 'openapi/components/examples/NewMonitorGroup.yaml', (text) => text.replace(/^ {2}description: .*\n/m, ''));
    // The removal is the description's to judge: this run rebuilds the bundle only, and the package's API is the one
    // the first run built (one build of the package per test is its cost on two cores).
    const bundled = await exec(path.join(copy, 'node_modules', '.bin', 'tsx'), ['scripts/build.ts', '--only', 'bundle'], { cwd: copy });
    expect(bundled.code, bundled.stdout + bundled.stderr).toBe(0);
    const removal = await check('--no-build');
    expect(removal.code, removal.stdout + removal.stderr).toBe(1);
    expect(removal.stdout).toContain('(property-removed, #/components/schemas/MonitorGroupCreate/properties/description)');
    expect(removal.stdout).toContain(wayForward);
    expect(removal.stdout).not.toMatch(/Monitor\/properties\/note|KnownMonitorType/);
  }, 1_000_000);
});
