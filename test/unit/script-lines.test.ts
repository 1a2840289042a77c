// The repository's scripts read their command lines the same way: --help gives the usage, an unknown option a
// usage error naming it (exit status 2 through runScript; test/integration/scripts.test.ts runs one for real).
import { describe, expect, it } from 'vitest';
import { parseOptions, UsageError, type ScriptLine } from '../../src/cli/args.js';
import { benchLine } from '../../scripts/bench.js';
import { buildLine } from '../../scripts/build.js';
import { packageLine } from '../../scripts/package.js';
import { releaseLine } from '../../scripts/release.js';

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
