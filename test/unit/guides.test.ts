// The users' guides as documents (README.md and docs/): every fence says what the tests do with it, every JSON block
// parses and every seed is one the mock takes, every link leads to a guide and a heading that exist, the README stays
// a front page, and its table of operations is the description's. test/e2e/guides.test.ts type-checks and runs the
// code blocks in a fresh project.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { root } from '../../scripts/lib/paths.js';
import { checkSeed } from '../../src/simulator/seed.js';
import { loadBundle, operationsOf } from '../support/bundle.js';
import { markdownTable } from '../support/guide.js';
import { allGuideBlocks, GuideBlockError, guideBlocks, guideFiles, where } from '../support/guide-blocks.js';

const bundle = loadBundle();
const blocks = allGuideBlocks();
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the fences of the guides', () => {
  it('say their language and at most one known mark; a fence that does not is named by file and line', () => {
    expect(blocks.length).toBeGreaterThan(30);
    expect(() => guideBlocks('docs/x.md', 'Text\n\n```js\nlet a;\n```\n')).toThrow(
      new GuideBlockError('docs/x.md:3: a fence must say its language and at most one mark, not "js"'),
    );
    expect(() => guideBlocks('docs/x.md', '```sh run now\nls\n```\n')).toThrow(/docs\/x\.md:1: .*"sh run now"/);
    expect(() => guideBlocks('docs/x.md', '```ts\nlet a;\n')).toThrow('docs/x.md:1: the fence is never closed');
    expect(guideBlocks('docs/x.md', '- A list:\n\n  ```json\n  {"a": 1}\n  ```\n')).toEqual([
      { file: 'docs/x.md', line: 3, language: 'json', check: 'parse', source: '{"a": 1}' },
    ]);
  });

  it('YAML blocks parse', () => {
    for (const block of blocks.filter((each) => each.language === 'yaml' && each.check !== 'outline'))
      expect(() => parseYaml(block.source, { prettyErrors: true }), where(block)).not.toThrow();
  });

  it('JSON blocks parse, and every seed is one the mock takes', () => {
    const json = blocks.filter((block) => block.language === 'json' && block.check !== 'outline');
    expect(json.filter((block) => block.check === 'seed').length).toBeGreaterThan(0);
    for (const block of json) {
      const value: unknown = JSON.parse(block.source);
      if (block.check === 'seed') expect(() => checkSeed(bundle, value, where(block)), where(block)).not.toThrow();
    }
  });

  it('lists the blocks that are only outlines, by file and line', () => {
    const outlines = blocks.filter((block) => block.check === 'outline').map(where);
    console.info(`Outlines the tests do not run (${outlines.length}):\n  ${outlines.join('\n  ')}`);
    // An outline is the exception: a block that can run, runs.
    expect(outlines.length).toBeLessThan(blocks.length / 3);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .replace(/[`*_]/g, (mark) => (mark === '_' ? '_' : ''))
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a guide's headings, outside fenced code. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.+?)\s*$/.exec(line)?.[1];
    if (heading) found.add(anchorOf(heading));
  }
  return found;
}

describe('the links of the guides', () => {
  it('lead to files of the repository and to headings that exist', () => {
    const broken: string[] = [];
    for (const file of [...guideFiles(), 'CONTRIBUTING.md']) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // another site
        const [page = '', anchor] = target!.split('#');
        const linked = page ? path.posix.join(path.posix.dirname(file), page) : file;
        let text: string;
        try {
          text = read(linked);
        } catch {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor && linked.endsWith('.md') && !anchors(text).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reads anchors as GitHub writes them', () => {
    expect(anchorOf("The mock's own choices")).toBe('the-mocks-own-choices');
    expect(anchorOf('Get your refresh token, once')).toBe('get-your-refresh-token-once');
    expect(anchorOf('The request journal: what your code sent')).toBe('the-request-journal-what-your-code-sent');
  });
});

describe('the README', () => {
  const readme = read('README.md');

  it('is a front page: at most 250 lines, linking every guide of docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const file of guideFiles().filter((name) => name.startsWith('docs/') && name !== 'docs/README.md'))
      expect(readme, file).toContain(`](${file})`);
  });

  it("lists the description's operations: method, path, scope and whether the scope is inferred", () => {
    const rows = markdownTable(readme, 'Method', 'Path', 'Scope', 'What it does').map(([method, where, scope]) => [method, where, scope]);
    const servers = (bundle.servers as { url: string }[]).map((server) => new URL(server.url.replace(/\{\w+\}/g, 'x')).pathname);
    expect(new Set(servers)).toEqual(new Set(['/api']));
    const described = operationsOf(bundle).map(({ method, path: template, operation }) => {
      const scopes = (operation.security as Record<string, string[]>[]).flatMap((requirement) => Object.values(requirement).flat());
      const own = (operation.servers ?? bundle.paths[template].servers) === undefined;
      return [
        method.toUpperCase(),
        own ? `/api${template}` : `{auth_url}${template}`,
        scopes.length === 0 ? 'none' : `${scopes.join(', ')}${operation['x-scope-inferred'] ? ' (inferred)' : ''}`,
      ];
    });
    expect(rows.sort()).toEqual(described.sort());
  });
});
