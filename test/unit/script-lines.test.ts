// The repository's scripts read their command lines the same way: --help gives the usage, an unknown option a
// usage error naming it (exit status 2 through runScript; test/integration/scripts.test.ts runs one for real).
import { describe, expect, it } from 'vitest';
import { benchLine, benchParts, chosenSections, sections } from '../../scripts/bench.js';
import { buildLine } from '../../scripts/build.js';
import { packageLine } from '../../scripts/package.js';
import { releaseLine } from '../../scripts/release.js';
import { closingLine, testTiersLine, tiersOf } from '../../scripts/test-tiers.js';
import { parseOptions, type ScriptLine, UsageError } from '../../src/cli/args.js';

describe('scripts', () => {
  it.each([
    ['build', buildLine],
    ['bench', benchLine],
    ['package', packageLine],
    ['release', releaseLine],
  ] as [string, ScriptLine][])('%s: --help gives its usage; an unknown option a usage error naming it', (name, line) => {
    expect(line.usage).toMatch(new RegExp(`^Usage: npm run ${name}`));
    expect(parseOptions(line.usage, line.options, ['--help'])).toEqual({ help: true });
    expect(() => parseOptions(line.usage, line.options, ['--frobnicate'])).toThrow(UsageError);
    expect(() => parseOptions(line.usage, line.options, ['--frobnicate'])).toThrow(
      /^Unknown option '--frobnicate'\.[\s\S]*\nUsage: npm run/,
    );
  });
});

describe('npm run bench: --only PARTS', () => {
  it('names every part of the sections once, in the order of the table, and lists them in the usage', () => {
    expect(benchParts).toEqual(['build', 'mock', 'journal', 'coverage', 'hostile', 'worlds', 'client', 'types', 'mcp', 'docs']);
    expect(benchLine.usage).toContain(`comma-separated: ${benchParts.join(', ')}`);
  });

  it('chooses the sections of the parts named, in the order of the table; none named is every section', () => {
    expect(chosenSections(undefined)).toBe(sections);
    expect(chosenSections('mock').map((section) => section.title)).toEqual([
      'startMock() and createMockFetch()',
      'the command lines, ours and prism mock',
    ]);
    expect(chosenSections('types, build').map((section) => section.part)).toEqual(['build', 'types']);
  });

  it('refuses a part it does not know, naming it, with the usage', () => {
    expect(() => chosenSections('mock,prism')).toThrow(UsageError);
    expect(() => chosenSections('mock,prism')).toThrow(
      /^--only takes parts among build, mock, journal, coverage, hostile, worlds, client, types, mcp, docs; not "prism"\.\nUsage: npm run bench/,
    );
    expect(() => chosenSections('')).toThrow(/not ""/);
  });
});

describe('npm test (scripts/test-tiers.ts)', () => {
  it('--help gives its usage; --tiers takes known tiers only, in the order given', () => {
    expect(testTiersLine.usage).toMatch(/^Usage: npm test -- \[--tiers/);
    expect(parseOptions(testTiersLine.usage, testTiersLine.options, ['--help'])).toEqual({ help: true });
    expect(parseOptions(testTiersLine.usage, testTiersLine.options, [])).toMatchObject({ tiers: 'unit,integration,e2e' });
    expect(tiersOf('e2e, unit')).toEqual(['e2e', 'unit']);
    expect(tiersOf('docs')).toEqual(['docs']);
    expect(() => tiersOf('unit,browser')).toThrow(UsageError);
    expect(() => tiersOf('unit,browser')).toThrow(/^--tiers: no tier "browser" \(unit, integration, e2e, docs\)\nUsage: npm test/);
  });

  it("closes with the counts of every tier, then each tier's wall and CPU time, then their sum", () => {
    const tier = (name: string, passed: number, wallMs: number, cpuMs: number) => ({
      tier: name,
      passed,
      failed: name === 'e2e' ? 1 : 0,
      skipped: 2,
      wallMs,
      cpuMs,
      exitCode: 0,
    });
    expect(
      closingLine([tier('unit', 1000, 8_040, 11_960), tier('integration', 400, 55_000, 80_250), tier('e2e', 90, 90_000, 110_000)]),
    ).toBe(
      'tests: 1490 passed, 1 failed, 6 skipped; unit 8.0 s (CPU 12.0 s), integration 55.0 s (CPU 80.3 s), e2e 90.0 s (CPU 110.0 s); all 153.0 s (CPU 202.2 s)',
    );
  });
});
