// The Markdown forms beside the docs page (generated/docs/reference.md and llms.txt): the reference holds every
// guide heading, every operation with its method, path, scope and statuses, every enumeration value with its name
// and meaning; llms.txt links each operation and guide to a heading the reference has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../scripts/lib/markdown-reference.js';
import { outputs } from '../../scripts/lib/paths.js';
import { loadBundle, operationsOf, type Json } from '../support/bundle.js';

const bundle = loadBundle();
const reference = readFileSync(outputs().referenceMd, 'utf8');
const llms = readFileSync(outputs().llmsTxt, 'utf8');
/** The text of a `###` section of the reference, from its heading to the next one. */
function sectionAt(start: number): string {
  const end = reference.indexOf('\n### ', start + 5);
  return reference.slice(start, end === -1 ? undefined : end);
}

const headings = new Set([...reference.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));

describe('reference.md', () => {
  it('holds every guide heading of the docs page', () => {
    const guides = String(bundle.info.description).match(/^## .+$/gm) ?? [];
    expect(guides.length).toBeGreaterThan(10);
    for (const heading of guides) expect(reference).toContain(`\n${heading}\n`);
  });

  it('holds every operation: its summary, method and path, scope and every documented status', () => {
    for (const { path, method, operation } of operationsOf(bundle)) {
      const start = reference.indexOf(`\n### ${operation.summary}\n`);
      expect(start, operation.operationId).toBeGreaterThan(0);
      const section = sectionAt(start);
      expect(section).toContain(`\`${method.toUpperCase()} ${path}\``);
      for (const status of Object.keys(operation.responses))
        expect(section, `${operation.operationId} ${status}`).toMatch(new RegExp(`\\n\\| ${status} \\|`));
      const scope = (operation.security ?? []).find((entry: Json) => entry.ServiceOAuthToken)?.ServiceOAuthToken?.[0];
      if (scope) expect(section).toContain(`\`${scope}\``);
    }
  });

  it('holds every enumeration value with its name and meaning', () => {
    let values = 0;
    for (const [name, schema] of Object.entries<Json>(bundle.components.schemas)) {
      if (!Array.isArray(schema.enum)) continue;
      const start = reference.indexOf(`\n### ${name}\n`);
      expect(start, name).toBeGreaterThan(0);
      const section = sectionAt(start);
      schema.enum.forEach((value: unknown, index: number) => {
        values += 1;
        expect(section, `${name} ${JSON.stringify(value)}`).toContain(
          `| \`${JSON.stringify(value).replaceAll('|', '\\|')}\` | ${schema['x-enum-varnames'][index]} |`,
        );
        expect(section).toContain(String(schema['x-enum-descriptions'][index]).replaceAll('|', '\\|').split('\n')[0]);
      });
    }
    expect(values).toBeGreaterThan(100);
  });
});

describe('llms.txt', () => {
  it('says what the API is, and lists the data centers', () => {
    expect(llms.startsWith(`# ${bundle.info.title}\n\n> `)).toBe(true);
    for (const server of bundle.servers as Json[]) if (server['x-data-center']) expect(llms).toContain(`- ${server['x-data-center']}: `);
  });

  it('links every operation and guide to a heading of the reference', () => {
    const links = [...llms.matchAll(/\]\(reference\.md#([^)]+)\)/g)].map((match) => match[1]!);
    for (const { operation } of operationsOf(bundle)) expect(links).toContain(anchorOf(String(operation.summary)));
    for (const link of links) expect(headings, link).toContain(link);
  });
});
