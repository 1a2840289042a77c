// The guides of the description (info.description, Markdown) read as a reader reads them: headings, sections,
// code blocks and tables. Shared by the docs page's browser test and the checks of the guides' content.
import type { Json } from './bundle.js';

/** The text of the Markdown headings of one level, outside fenced code, without inline Markdown. */
export function headings(markdown: string, level: number): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : new RegExp(`^#{${level}}\\s+(.+?)\\s*#*\\s*$`).exec(line);
    if (match?.[1]) found.push(match[1].replace(/[`*_]/g, ''));
  }
  return found;
}

/** The Markdown of the `## title` section of a guide, up to the next `## ` heading; throws when there is none. */
export function guideSection(markdown: string, title: string): string {
  const start = markdown.split('\n').indexOf(`## ${title}`);
  if (start < 0) throw new Error(`No "## ${title}" section in the guides`);
  const lines = markdown.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => line.startsWith('## '));
  return (end < 0 ? lines : lines.slice(0, end)).join('\n');
}

/** The fenced code blocks of some Markdown, without their indentation. */
export function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)```\w*\n([\s\S]*?)^\1```/gm)].map((block) =>
    block[2]!
      .split('\n')
      .map((line) => line.slice(block[1]!.length))
      .join('\n'),
  );
}

/**
 * The rows of the first Markdown table whose header row starts with these cells, inline code unwrapped; throws
 * when there is none.
 */
export function markdownTable(markdown: string, ...header: string[]): string[][] {
  const lines = markdown.split('\n');
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((cell) => cell.trim().replace(/`/g, ''));
  const start = lines.findIndex((line) => line.startsWith('|') && header.every((title, i) => cells(line)[i] === title));
  if (start < 0) throw new Error(`No table with the columns ${header.join(', ')}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

/** A server's URL with its variables at their defaults. */
export const expandedUrl = (server: Json) =>
  String(server.url).replace(/\{(\w+)\}/g, (_, name: string) => String(server.variables?.[name]?.default));
