// What ships stays small enough to read: no file in src/ longer than 400 lines, no function longer than 80. A room
// that grows past them is split into files that read as their steps.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';

const maxFileLines = 400;
const maxFunctionLines = 80;

const sources = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => path.join('src', file));

/** Each function of a file longer than the bound, as `file:line name (N lines)`. */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      const name = node.name?.getText(source) ?? '(anonymous)';
      if (lines > maxFunctionLines) found.push(`${file}:${lineOf(node.getStart())} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the size of src/', () => {
  const texts = sources.map((file) => [file, readFileSync(path.join(root, file), 'utf8')] as const);

  it('has the files it should (the walk found them)', () => {
    expect(sources).toContain(path.join('src', 'index.ts'));
    expect(sources.length).toBeGreaterThan(50);
  });

  it(`keeps every file at most ${maxFileLines} lines`, () => {
    const long = texts
      .filter(([, text]) => text.split('\n').length > maxFileLines)
      .map(([file, text]) => `${file} (${text.split('\n').length})`);
    expect(long).toEqual([]);
  });

  it(`keeps every function at most ${maxFunctionLines} lines`, () => {
    expect(texts.flatMap(([file, text]) => longFunctions(file, text))).toEqual([]);
    // The walk sees functions of every kind: a long one made here is found.
    const made = `const f = () => {\n${'  call();\n'.repeat(maxFunctionLines)}};\n`;
    expect(longFunctions('made.ts', made)).toEqual([`made.ts:1 (anonymous) (${maxFunctionLines + 2} lines)`]);
  });
});
