// Every regular expression that can meet outside input runs in linear time: each literal written in `src/` and each
// `pattern` of the description (the mock and verify compile them against request and answer values). recheck's
// automaton checker proves it, and each expression is then run against long inputs crafted from its own characters,
// the shape that makes a backtracking expression explode.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { type Json, loadBundle } from '../support/bundle.js';

interface Expression {
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** The regular-expression literals of `src/`, read from the syntax tree (not by a pattern over the text). */
function literalsOfSource(): Expression[] {
  const found: Expression[] = [];
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const tree = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText();
        const end = text.lastIndexOf('/');
        const line = tree.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ where: `${path.relative(root, file)}:${line}`, source: text.slice(1, end), flags: text.slice(end + 1) });
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return found;
}

function patternsOfDescription(): Expression[] {
  const found: Expression[] = [];
  const visit = (value: Json, pointer: string) => {
    if (Array.isArray(value))
      value.forEach((item, index) => {
        visit(item, `${pointer}/${index}`);
      });
    else if (value && typeof value === 'object') {
      if (typeof value.pattern === 'string') found.push({ where: `openapi.json#${pointer}/pattern`, source: value.pattern, flags: 'u' });
      for (const [key, item] of Object.entries(value))
        if (key !== 'examples' && key !== 'example') visit(item as Json, `${pointer}/${key}`);
    }
  };
  visit(loadBundle(), '');
  return found;
}

/** Long inputs built from the expression's own characters: runs of each, alternations of pairs, and a bad last one. */
function craftedInputs(expression: Expression): string[] {
  const characters = [...new Set(expression.source.replace(/\\[dDsSwWbB]/g, '').split(''))].filter((char) => char !== '\\');
  const pool = [...characters, ' ', '\t', 'a', '0', '=', ';', ',', '"', '/', '.', '%'];
  const inputs: string[] = [];
  for (const char of pool) inputs.push(`${char.repeat(20_000)}\u0000`);
  for (let index = 0; index + 1 < pool.length; index++) inputs.push(`${(pool[index]! + pool[index + 1]!).repeat(10_000)}\u0000`);
  return inputs;
}

const expressions = [...literalsOfSource(), ...patternsOfDescription()];

describe('regular expressions on outside input', () => {
  it('finds the expressions to check', () => {
    expect(literalsOfSource().length).toBeGreaterThan(10);
    expect(patternsOfDescription().length).toBeGreaterThan(0);
  });

  it.each(expressions.map((expression) => [expression.where, expression] as const))('%s is linear (recheck)', (_where, expression) => {
    const diagnostics = checkSync(expression.source, expression.flags, { checker: 'automaton' });
    expect(diagnostics.status, `/${expression.source}/${expression.flags}: ${JSON.stringify(diagnostics)}`).toBe('safe');
  });

  it.each(expressions.map((expression) => [expression.where, expression] as const))(
    '%s finishes on crafted long inputs',
    (_where, expression) => {
      const regex = new RegExp(expression.source, expression.flags.replace(/[gy]/g, ''));
      // A backtracking expression takes minutes on these; each call returning at all is the assertion.
      const results = craftedInputs(expression).map((input) => typeof input.replace(regex, '') === 'string');
      expect(results.every(Boolean)).toBe(true);
    },
  );

  it('recheck tells a backtracking expression apart (the check can fail)', () => {
    expect(checkSync('^(a|a)*$', '', { checker: 'automaton' }).status).toBe('vulnerable');
    // The Prefer parser of release 2.0: one header of 8,000 spaces held the event loop for minutes.
    expect(checkSync('^\\s*([A-Za-z_-]+)\\s*(?:=\\s*"?([^"]*)"?)?\\s*$', '', { checker: 'automaton' }).status).toBe('vulnerable');
  });
});
