// What the description and the guides say the documents say. Two kinds of slip a reader cannot see, caught here:
// - a standard cited for a value it does not define: an error code called one of RFC 6749's (section 5.2 defines six)
//   must be one of them, and a code of the mock's own is said to be its own, in prose and in the examples;
// - words put in the documents' mouth: a phrase in double quotes in a sentence that cites the core document's section
//   N is that section's text (its tables read as their rows), word for word.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { root } from '../../scripts/lib/paths.js';
import { coreSections } from '../support/core-document.js';
import { guideFiles } from '../support/guide-blocks.js';

/** RFC 6749, section 5.2: the error codes of a token endpoint's error answer. */
const rfc6749Codes = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
];

interface Text {
  where: string;
  text: string;
}

const filesUnder = (folder: string, extension: string): string[] =>
  readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(extension))
    .map((name) => path.posix.join(folder, name.split(path.sep).join('/')));

/** Every string of a YAML file of the description: descriptions, summaries, examples' values. */
function yamlTexts(file: string): Text[] {
  const texts: Text[] = [];
  const walk = (node: unknown, pointer: string) => {
    if (typeof node === 'string') texts.push({ where: `${file}#${pointer}`, text: node });
    else if (node && typeof node === 'object') for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${key}`);
  };
  walk(parse(readFileSync(path.join(root, file), 'utf8')), '');
  return texts;
}

/** The prose of a Markdown file: its paragraphs, list items and table rows, without code. */
function markdownTexts(file: string): Text[] {
  const prose = readFileSync(path.join(root, file), 'utf8').replace(/^( *)```[\s\S]*?^\1```/gm, '');
  return prose.split(/\n(?=\s*\n|\s*[-*] |\s*\d+\. |\|)/).map((text) => ({ where: file, text }));
}

const texts: Text[] = [
  ...filesUnder('openapi', '.yaml').flatMap(yamlTexts),
  ...filesUnder('openapi', '.md').flatMap(markdownTexts),
  ...guideFiles().flatMap(markdownTexts),
];

/** The sentences of a text (a sentence ends at a period or semicolon before a capital, a parenthesis or a list). */
const sentences = (text: string) => text.replace(/\s+/g, ' ').split(/(?<=[.;])\s+(?=[A-Z(`-])/);

/** The codes a sentence calls OAuth 2.0 codes of RFC 6749 that section 5.2 does not define, unless it says they are the mock's own. */
function codesNotOfRfc6749(sentence: string): string[] {
  if (!/RFC 6749|OAuth 2\.0 (error )?code/.test(sentence) || /the mock's own/.test(sentence)) return [];
  return [...sentence.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((match) => match[1]!).filter((code) => !rfc6749Codes.includes(code));
}

describe('RFC 6749 is cited for its own error codes only', () => {
  it("a sentence that calls a code an OAuth 2.0 code of RFC 6749 names one of section 5.2, or says the code is the mock's own", () => {
    const slips = texts.flatMap(({ where, text }) =>
      sentences(text).flatMap((sentence) => codesNotOfRfc6749(sentence).map((code) => `${where}: ${code} in "${sentence}"`)),
    );
    expect(slips).toEqual([]);
  });

  it("an example whose error code RFC 6749 does not define says that the code is the mock's own", () => {
    const slips: string[] = [];
    for (const file of filesUnder('openapi/components/examples', '.yaml')) {
      const example = parse(readFileSync(path.join(root, file), 'utf8')) as {
        summary?: string;
        description?: string;
        value?: { error?: unknown };
      };
      const code = example.value?.error;
      if (typeof code !== 'string' || rfc6749Codes.includes(code)) continue;
      const said = `${example.summary ?? ''} ${example.description ?? ''}`;
      if (!(said.includes(`\`${code}\``) && /the mock's own/.test(said))) slips.push(`${file}: ${code}`);
    }
    expect(slips).toEqual([]);
  });

  it("catches the slip it is for, and lets a code marked as the mock's own pass", () => {
    const slip = 'The mock answers `{code, message, error}`, with the OAuth 2.0 error code (RFC 6749) in `error`: `too_many_requests`.';
    expect(codesNotOfRfc6749(slip)).toEqual(['too_many_requests']);
    const marked = "In `error` an OAuth 2.0 error code of RFC 6749 (`invalid_grant`), or `too_many_requests`, the mock's own code.";
    expect(codesNotOfRfc6749(marked)).toEqual([]);
    expect(codesNotOfRfc6749('`unsupported_grant_type` and `invalid_grant` (RFC 6749, section 5.2).')).toEqual([]);
  });
});

/** Text compared as words: case, inline code, emphasis, table bars and punctuation between words left out. */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[`*|:,;]/g, ' ')
    .replace(/\.(\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A section's text with its subsections ('5' holds 5.1 and 5.2). */
const sectionText = (number: string) =>
  Object.entries(coreSections)
    .filter(([key]) => key === number || key.startsWith(`${number}.`))
    .map(([, text]) => words(text))
    .join(' ');

/** The phrases of a text in double quotes, of three words or more. */
const quotations = (text: string) =>
  [...text.matchAll(/(?<![\w\\=])"([^"]+)"/g)].map((match) => match[1]!).filter((quote) => quote.trim().split(/\s+/).length >= 3);

describe("what is quoted from the core document is the document's text", () => {
  it('a phrase in double quotes in a sentence that cites section N is in section N, word for word', () => {
    const slips: string[] = [];
    let checked = 0;
    for (const { where, text } of texts)
      for (const sentence of sentences(text)) {
        const cited = [...sentence.matchAll(/section (\d+(?:\.\d+)?)/g)].map((match) => match[1]!);
        if (cited.length === 0) continue;
        for (const quote of quotations(sentence)) {
          checked += 1;
          if (!cited.some((number) => sectionText(number).includes(words(quote))))
            slips.push(`${where}: "${quote}" (section ${cited.join(', ')})`);
        }
      }
    expect(slips).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('reads a table row of the document as its words', () => {
    expect(sectionText('8')).toContain(words('Access tokens generated from refresh tokens: at most 10 in 10 minutes'));
    expect(sectionText('8')).not.toContain(words('20 refresh tokens per user'));
    expect(sectionText('5')).toContain(words('Read-only access to most modules'));
  });
});
