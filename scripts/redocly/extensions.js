// The registry of extension keys (EXTENSIONS.md at the root): one table, whose first column is the key in backticks.
import { readFileSync } from 'node:fs';

export const extensionsFile = new URL('../../EXTENSIONS.md', import.meta.url);

/** The `x-` keys of the table of EXTENSIONS.md, in its order. */
export function registeredExtensions(markdown = readFileSync(extensionsFile, 'utf8')) {
  const keys = [];
  for (const line of markdown.split('\n')) {
    const match = /^\|\s*`(x-[A-Za-z0-9_-]+)`\s*\|/.exec(line);
    if (match) keys.push(match[1]);
  }
  return keys;
}
