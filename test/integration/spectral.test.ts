// Spectral, the linter many API teams run in CI, reads every published form without an error: the 3.1 bundle and
// the 3.0 document with its `spectral:oas` ruleset (recommended and all), and the dereferenced 3.1 document.
import { readFileSync } from 'node:fs';
import { Document, type RulesetDefinition, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { outputs } from '../../scripts/lib/paths.js';

async function errorsOf(file: string, set: 'recommended' | 'all'): Promise<string[]> {
  const spectral = new Spectral();
  // spectral-rulesets' declared type of `oas` is not the RulesetDefinition it is (Spectral reads it as one).
  const ruleset = oas as unknown as RulesetDefinition;
  spectral.setRuleset(set === 'all' ? { extends: [[ruleset, 'all']] } : { extends: [ruleset] });
  const results = await spectral.run(new Document(readFileSync(file, 'utf8'), Parsers.Json, file));
  return results.filter((result) => result.severity === 0).map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`);
}

describe('Spectral (spectral:oas)', () => {
  // "all" turns on every rule of the ruleset, the recommended ones among them, each at the severity "recommended" gives
  // it (spectral-core's Rule.isEnabled): no error with all rules is no error with the recommended ones too.
  it.each([
    ['the 3.1 bundle', 'all (the recommended among them)', outputs().bundleJson],
    ['the 3.0 document', 'all (the recommended among them)', outputs().openapi30Json],
    ['the dereferenced 3.1 document', 'recommended', outputs().dereferencedJson],
  ] as const)('%s, %s rules: no error', async (_name, set, file) => {
    expect(await errorsOf(file, set === 'recommended' ? 'recommended' : 'all')).toEqual([]);
  });
});
