// The repository type-checks, the docs' TypeScript samples included (tsconfig.json maps the package's name to
// src/index.ts for them, as a reader who copies one gets it), by TypeScript 7's native compiler: it reports what
// TypeScript 5.9 reports here, in a fifth of the CPU time (decisions/0010). A consumer's view with both compilers is
// test/e2e/consumer.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { loadBundle, operationsOf } from '../support/bundle.js';
import { codeSamplesOf } from '../support/code-samples.js';
import { exec, type Result } from '../support/consumer-project.js';
import { tsc7Args, tsc7Path } from '../support/tsc.js';

/**
 * One run of the compiler for both tests: its diagnostics, then (--listFiles) every file of the program, one a line.
 * A line that names no file is a diagnostic.
 */
let program: Promise<Result> | undefined;
const compiled = async () => {
  program ??= (async () =>
    exec(await tsc7Path(), ['-p', 'tsconfig.json', '--noEmit', '--strict', '--pretty', 'false', '--listFiles', ...tsc7Args], {
      cwd: root,
    }))();
  const result = await program;
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  const isFile = (line: string) => existsSync(path.resolve(root, line));
  return { ...result, files: lines.filter(isFile), diagnostics: lines.filter((line) => !isFile(line)) };
};

describe('TypeScript', () => {
  it('compiles the generated types, the client, the scripts, the tests and the docs samples with tsc --noEmit in strict mode (TypeScript 7)', async () => {
    const { code, diagnostics, stderr, files } = await compiled();
    expect(diagnostics.join('\n') + stderr).toBe('');
    expect(code).toBe(0);
    expect(files.length).toBeGreaterThan(100);
  });

  it("has the docs' TypeScript sample of every operation in that program, compiled against the project's client (src/)", async () => {
    const bundle = loadBundle();
    const typescript = codeSamplesOf(bundle).filter((sample) => sample.lang === 'TypeScript');
    expect(typescript.length).toBe(operationsOf(bundle).length);
    const { files } = await compiled();
    const samplesDir = path.join(root, 'openapi', 'code_samples', 'TypeScript') + path.sep;
    const samples = files
      .filter((file) => path.resolve(root, file).startsWith(samplesDir))
      .map((file) => readFileSync(path.resolve(root, file), 'utf8'));
    for (const sample of typescript) expect(samples, `the TypeScript sample of ${sample.operationId}`).toContain(sample.source);
    // The package's name resolves to the sources, not to an installed copy.
    expect(files).toContain(path.join(root, 'src', 'index.ts'));
  });
});
