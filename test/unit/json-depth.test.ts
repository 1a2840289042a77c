// How deep a JSON value nests, in one pass whatever its depth: the bound of bodies and seeds.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCall, createCall } from '../../src/http/exchange.js';
import { maxJsonDepth, tooDeepAt } from '../../src/http/json-depth.js';
import { maxSeedBytes, readSeedFile } from '../../src/simulator/seed.js';
import { loadBundle } from '../support/bundle.js';

const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('tooDeepAt', () => {
  it('names the first value past the bound, by its JSON pointer', () => {
    expect(tooDeepAt({ a: [1, { b: {} }] }, 4)).toBeUndefined();
    expect(tooDeepAt({ a: [1, { 'b/c': {} }] }, 3)).toBe('/a/1/b~1c');
    expect(tooDeepAt(nested(maxJsonDepth))).toBeUndefined();
    expect(tooDeepAt(nested(maxJsonDepth + 1))).toBe('/0'.repeat(maxJsonDepth));
  });

  it('walks a value half a million levels deep without a stack overflow', () => {
    expect(tooDeepAt(nested(500_000))).toBe('/0'.repeat(maxJsonDepth));
  });
});

describe('a body nested too deep', () => {
  it('is a 400 naming the depth, before the engine', () => {
    const body = Buffer.from(`{"display_name":"x","description":"d","extra":${'{"a":'.repeat(300)}1${'}'.repeat(300)}}`);
    const call = createCall({ method: 'POST', url: '/api/monitor_groups', headers: { 'content-type': 'application/json' }, body });
    const fault = checkCall(call);
    expect(fault?.status).toBe(400);
    expect(JSON.parse(fault!.body.toString('utf8')).message).toMatch(
      /^Bad Request: the body nests arrays and objects more than 256 deep, at "\/extra\/a\/a/,
    );
  });
});

describe('a seed file', () => {
  const bundle = loadBundle();
  const folder = mkdtempSync(path.join(tmpdir(), 'seed-'));

  it('nested too deep: a SeedError naming the file and the pointer', () => {
    const file = path.join(folder, 'deep.json');
    writeFileSync(file, JSON.stringify({ customers: [{ name: 'A', zaaid: '1', monitors: [{ monitor_id: '2', tags: nested(300) }] }] }));
    expect(() => readSeedFile(bundle, file)).toThrow(
      /deep\.json is not valid.*\n {2}\/customers\/0\/monitors\/0\/tags(\/0)+: nests arrays and objects more than 260 deep/s,
    );
  });

  it('larger than the bound: refused before it is read', () => {
    const file = path.join(folder, 'large.json');
    writeFileSync(file, ' '.repeat(maxSeedBytes + 1));
    expect(() => readSeedFile(bundle, file)).toThrow(new RegExp(`large\\.json is not valid.*has ${maxSeedBytes + 1} bytes`, 's'));
  });
});
