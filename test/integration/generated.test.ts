import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { steps } from '../../scripts/build.js';
import { generatedDir, outputs } from '../../scripts/lib/paths.js';

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name), path.join(prefix, entry.name)) : [path.join(prefix, entry.name)],
    ),
  );
  return nested.flat().sort();
}

describe('generated/', () => {
  let fresh = '';
  beforeAll(async () => {
    fresh = await mkdtemp(path.join(os.tmpdir(), 'generated-'));
    // Every step of the build that writes a file of generated/, as \`npm run build -- --out\` runs them: not lint, which
    // writes none (test/integration/lint.test.ts lints the description with the same command and rules).
    const out = outputs(fresh);
    for (const step of steps) if (!step.compiles && step.produces(out).length > 0) await step.run(out);
  });
  afterAll(() => rm(fresh, { recursive: true, force: true }));

  it('holds exactly the files a build produces', async () => {
    expect(await filesUnder(generatedDir)).toEqual(await filesUnder(fresh));
  });

  it('is what a build of openapi/ produces now (run `npm run build` when this fails)', async () => {
    for (const file of await filesUnder(fresh)) {
      const committed = await readFile(path.join(generatedDir, file), 'utf8');
      const rebuilt = await readFile(path.join(fresh, file), 'utf8');
      expect(committed === rebuilt, `generated/${file} is stale`).toBe(true);
    }
  });
});
