// The fenced blocks of the users' guides (README.md and docs/*.md), each with what the tests do with it. The info
// string of a fence is the language, then at most one mark (CONTRIBUTING.md, *The guides*):
//   ts            type-checked as a module of a fresh project that installed the packed package
//   ts run        type-checked, then run with Node in that project
//   ts vitest     type-checked, then run as a vitest test file in that project
//   sh            parsed (bash -n)
//   sh run        run by bash in that project against a mock on a free port (127.0.0.1:4010 replaced by it)
//   json          parsed; json seed also checked as the mock's seed
//   yaml          parsed (a CI workflow, a compose file)
//   text          output shown to the reader, not run
//   <any> outline only an outline (a placeholder host, a secret): skipped, and listed
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../../scripts/lib/paths.js';

export type Check = 'typecheck' | 'run' | 'vitest' | 'parse' | 'seed' | 'shown' | 'outline';

export interface GuideBlock {
  /** The guide, relative to the repository: `docs/04-testing-against-the-mock.md`. */
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  language: string;
  check: Check;
  /** The block's text, without the indentation of its fence. */
  source: string;
}

/** What each language and mark means; a fence outside this table is a fault the tests name. */
const checks: Record<string, Record<string, Check>> = {
  ts: { '': 'typecheck', run: 'run', vitest: 'vitest', outline: 'outline' },
  sh: { '': 'parse', run: 'run', outline: 'outline' },
  json: { '': 'parse', seed: 'seed', outline: 'outline' },
  yaml: { '': 'parse', outline: 'outline' },
  text: { '': 'shown' },
};

/** The guides: the README, then docs/ in reading order. */
export function guideFiles(): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Where a fence is malformed or unknown, said by file and line. */
export class GuideBlockError extends Error {}

/** The fenced blocks of one guide, in order. Throws a GuideBlockError naming the first fence it cannot place. */
export function guideBlocks(file: string, markdown = readFileSync(path.join(root, file), 'utf8')): GuideBlock[] {
  const blocks: GuideBlock[] = [];
  const lines = markdown.split('\n');
  let open: { line: number; indent: string; language: string; check: Check; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^( *)```(.*)$/.exec(text);
    if (open) {
      if (fence && fence[1] === open.indent && fence[2]!.trim() === '') {
        blocks.push({ file, line: open.line, language: open.language, check: open.check, source: open.body.join('\n') });
        open = undefined;
      } else open.body.push(text.startsWith(open.indent) ? text.slice(open.indent.length) : text);
      return;
    }
    if (!fence) return;
    const [language = '', mark = '', ...rest] = fence[2]!.trim().split(/\s+/);
    const check = checks[language]?.[mark];
    if (!check || rest.length > 0)
      throw new GuideBlockError(`${file}:${index + 1}: a fence must say its language and at most one mark, not "${fence[2]}"`);
    open = { line: index + 1, indent: fence[1]!, language, check, body: [] };
  });
  if (open) throw new GuideBlockError(`${file}:${open.line}: the fence is never closed`);
  return blocks;
}

/** Every block of every guide. */
export function allGuideBlocks(): GuideBlock[] {
  return guideFiles().flatMap((file) => guideBlocks(file));
}

/** `docs/x.md:12`: where a block is, for messages and file names. */
export const where = (block: GuideBlock) => `${block.file}:${block.line}`;

/** The sources of the blocks of a language in a part of a guide: from a heading to the next one of its level or above. */
export function sectionBlocks(file: string, heading: string, language: string): string[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`No "${heading}" in ${file}`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return guideBlocks(file)
    .filter((block) => block.language === language && block.line > start && (end < 0 || block.line <= end))
    .map((block) => block.source);
}
