// Every code block of the guides (README.md and docs/), in the project the README's Install commands made, as a
// reader copies it: TypeScript type-checked with `tsc --init`'s defaults (by TypeScript 7: the consumer test holds the
// package's declarations to 5.9 and 7 alike), `ts run` blocks run with Node, `ts vitest` blocks run as one vitest
// suite, shell parsed by bash, and `sh run` blocks run against a mock of their own, the installed package's. What
// runs where is said by the fence (test/support/guide-blocks.ts); test/unit/guides.test.ts lists the outlines.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, exec } from '../support/consumer-project.js';
import { allGuideBlocks, type GuideBlock, where } from '../support/guide-blocks.js';
import { sharedPackage } from '../support/shared-package.js';
import { initDefaults, tsc7Args, tsc7Path } from '../support/tsc.js';

const blocks = allGuideBlocks();
const typescript = blocks.filter((block) => block.language === 'ts' && block.check !== 'outline');
const shell = blocks.filter((block) => block.language === 'sh');

/** A block's file name in the project: its guide and line (`docs-04-testing-against-the-mock-12`). */
const nameOf = (block: GuideBlock) => `${block.file.replace(/\.md$/, '').replace(/\W+/g, '-')}-${block.line}`;

/** The project of the README's Install commands (shared by the e2e files), and this file's folders in it. */
let project = '';
let guides = '';
let out = '';

/** The mock of the package as the project installed it, in this process: a mock per block costs little. */
const installedMock = (): Promise<typeof import('../../src/mock/index.js')> =>
  import(pathToFileURL(path.join(project, 'node_modules', 'monitoring-service-api', 'dist', 'src', 'mock', 'index.js')).href);

beforeAll(async () => {
  ({ project } = await sharedPackage().full);
  guides = path.join(project, 'guides');
  out = path.join(project, 'guides-out');
  mkdirSync(guides);
  for (const block of typescript) {
    const file = block.check === 'vitest' ? `${nameOf(block)}.test.ts` : `${nameOf(block)}.ts`;
    writeFileSync(path.join(guides, file), `${block.source}\n`);
  }
  // tsc --init's defaults, Node's types for the examples that use them, and JavaScript out for the blocks that run.
  const compilerOptions = {
    ...initDefaults,
    types: ['node'],
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    rootDir: '.',
    outDir: out,
  };
  writeFileSync(path.join(guides, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['.'] }, null, 2));
}, 300_000);

afterAll(() => {
  for (const folder of [guides, out]) if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('the TypeScript blocks of the guides', () => {
  it(`type-check in a fresh project with tsc --init's defaults (${typescript.length} blocks)`, async () => {
    const result = await exec(await tsc7Path(), ['-p', 'guides', ...tsc7Args], { cwd: project });
    expect(`${result.stdout}${result.stderr}`).toBe('');
  });

  for (const block of typescript.filter((each) => each.check === 'run')) {
    it(`${where(block)} runs with Node to its end`, async () => {
      const result = await exec(process.execPath, [path.join(out, `${nameOf(block)}.js`)], { cwd: project, timeoutMs: 60_000 });
      expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    });
  }

  it('the `ts vitest` blocks pass as one vitest suite', async () => {
    const suites = typescript.filter((block) => block.check === 'vitest');
    expect(suites.length).toBeGreaterThan(0);
    // A configuration of its own: the project's root holds another file's.
    writeFileSync(path.join(guides, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
    const vitest = path.join(project, 'node_modules', '.bin', 'vitest');
    const result = await exec(vitest, ['run'], { cwd: guides, env: cleanEnv(), timeoutMs: 120_000 });
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Test Files +${suites.length} passed`));
  });
});

describe('the shell blocks of the guides', () => {
  it(`parse (bash -n, ${shell.length} blocks)`, async () => {
    for (const block of shell) {
      const result = await exec('bash', ['-n'], { cwd: project, input: block.source });
      expect(result.stderr, where(block)).toBe('');
    }
  });

  for (const block of shell.filter((each) => each.check === 'run')) {
    it(`${where(block)} runs against the mock, each command succeeding`, async () => {
      const mock = await installedMock().then(({ startMock }) => startMock());
      try {
        const source = block.source.replaceAll('127.0.0.1:4010', new URL(mock.authUrl).host);
        const result = await exec('bash', ['-e', '-o', 'pipefail', '-c', source], { cwd: project, env: cleanEnv(), timeoutMs: 60_000 });
        expect(result.code, `${where(block)}\n${result.stdout}${result.stderr}`).toBe(0);
      } finally {
        await mock.stop();
      }
    });
  }
});
