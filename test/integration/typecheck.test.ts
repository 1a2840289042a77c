import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.js';
import { loadBundle, operationsOf } from '../support/bundle.js';
import { codeSamplesOf, typeCheckSamples } from '../support/code-samples.js';

describe('TypeScript', () => {
  it('compiles the generated types, the client, the scripts and the tests with tsc --noEmit in strict mode', async () => {
    const result = await run('tsc', ['-p', 'tsconfig.json', '--noEmit', '--strict'], { allowFailure: true });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it("compiles the docs' TypeScript sample of every operation against the project's client (src/)", () => {
    const bundle = loadBundle();
    const typescript = codeSamplesOf(bundle).filter((sample) => sample.lang === 'TypeScript');
    expect(typescript.length).toBe(operationsOf(bundle).length);
    expect(typeCheckSamples(typescript)).toEqual([]);
  });
});
