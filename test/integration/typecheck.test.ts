import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.js';

describe('TypeScript', () => {
  it('compiles the generated types, the client, the scripts and the tests with tsc --noEmit in strict mode', async () => {
    const result = await run('tsc', ['-p', 'tsconfig.json', '--noEmit', '--strict'], { allowFailure: true });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
