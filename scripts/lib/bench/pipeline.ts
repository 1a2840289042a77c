// The build of generated/: cold into a scratch folder (every step), then with nothing changed.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../../build.js';
import { type BenchSection, ms, since } from './section.js';

export const pipeline: BenchSection = {
  part: 'build',
  title: 'the build',
  async run({ skipBuild, row }) {
    if (skipBuild) return;
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-build-'));
    try {
      let started = performance.now();
      const cold = await build({ out: scratch, force: true });
      row('build of generated/, cold (every step)', ms(since(started)), '', cold.map((step) => `${step.step} ${ms(step.ms)}`).join(', '));
      await build(); // brings generated/ and dist/ up to date, if they were not
      started = performance.now();
      const noop = await build();
      row('build, nothing changed', ms(since(started)), '', `${noop.filter((step) => step.ran).length} of ${noop.length} steps ran`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
