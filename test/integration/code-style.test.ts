// The code is formatted and linted as biome.json says (`npm run format` writes the format, `npm run check` checks
// both): a change that leaves either undone fails here.
import { describe, expect, it } from 'vitest';
import { bin, root } from '../../scripts/lib/paths.js';
import { exec } from '../support/consumer-project.js';

describe('code style', () => {
  it('biome finds nothing to format or fix in src/, scripts/ and test/', async () => {
    // The installed binary, without npx (which loads npm to find it: some 0.4 s of CPU).
    const result = await exec(bin('biome'), ['ci', '--colors=off', '.'], { cwd: root });
    expect(result.stdout + result.stderr).toMatch(/Checked \d+ files/);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});
