// The registry of extension keys (EXTENSIONS.md): every key of the table is used by the description, and every
// x- key of the description is in the table (the lint rule service/known-extensions checks the sources; this test
// checks the bundle too, decorators' output included).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { extensionsFile, registeredExtensions } from '../../scripts/redocly/extensions.js';
import { type Json, loadBundle } from '../support/bundle.js';

const registry = registeredExtensions();

/** The x- keys of a node, at any depth, outside example values. */
function extensionKeys(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node))
    node.forEach((item) => {
      extensionKeys(item, found);
    });
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === 'example' || key === 'value') continue;
      if (key.startsWith('x-')) found.add(key);
      else extensionKeys(value, found);
    }
  }
  return found;
}

/** The YAML files under openapi/. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? yamlFiles(file) : name.endsWith('.yaml') ? [file] : [];
  });
}

describe('EXTENSIONS.md', () => {
  it('has one table of x- keys, each listed once, with where, what reads it, and why', () => {
    expect(registry.length).toBeGreaterThan(10);
    expect(new Set(registry).size).toBe(registry.length);
    const rows = readFileSync(extensionsFile, 'utf8')
      .split('\n')
      .filter((line) => /^\|\s*`x-/.test(line));
    for (const row of rows) {
      const cells = row
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim());
      expect(cells, row).toHaveLength(4);
      for (const cell of cells) expect(cell, row).not.toBe('');
    }
  });

  it('every key of the table is used in openapi/', () => {
    const sources = yamlFiles(path.join(root, 'openapi'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = registry.filter((key) => !new RegExp(`^\\s*-?\\s*${key}:`, 'm').test(sources));
    expect(unused, 'keys of EXTENSIONS.md that the description does not use: remove their rows').toEqual([]);
  });

  it('every x- key of the bundle is in the table, and every key of the table is in the bundle', () => {
    const used = [...extensionKeys(loadBundle())].sort();
    expect(used).toEqual([...registry].sort());
  });
});
