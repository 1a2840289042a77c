// The Markdown forms beside the docs page (generated/docs/reference.md and llms.txt): the reference holds every
// guide heading of the page (read from the guides' source, the description's info), every operation with its
// method, path, scope, parameters, statuses and example answer, every schema with its fields, every enumeration value
// with its name, meaning and facts; each of its links lands on one of its headings; llms.txt links each operation
// and guide to a heading the reference has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anchorOf, headingAnchors } from '../../scripts/lib/markdown-reference.js';
import { outputs } from '../../scripts/lib/paths.js';
import { deref, type Json, loadBundle, operationsOf } from '../support/bundle.js';

const bundle = loadBundle();
const reference = readFileSync(outputs().referenceMd, 'utf8');
const llms = readFileSync(outputs().llmsTxt, 'utf8');
/** The text of a `###` section of the reference, from its heading to the next one. */
function sectionAt(start: number): string {
  const end = reference.indexOf('\n### ', start + 5);
  return reference.slice(start, end === -1 ? undefined : end);
}

const anchors = headingAnchors(reference);
const headings = new Set(anchors);

describe('reference.md', () => {
  it('holds every guide heading of the docs page', () => {
    const guides = String(bundle.info.description).match(/^## .+$/gm) ?? [];
    expect(guides.length).toBeGreaterThan(10);
    for (const heading of guides) expect(reference).toContain(`\n${heading}\n`);
  });

  it('holds every operation: its summary, method and path, scope, parameters, every documented status, an example answer', () => {
    for (const { path, method, operation, parameters } of operationsOf(bundle)) {
      const start = reference.indexOf(`\n### ${operation.summary}\n`);
      expect(start, operation.operationId).toBeGreaterThan(0);
      const section = sectionAt(start);
      expect(section).toContain(`\`${method.toUpperCase()} ${path}\``);
      for (const status of Object.keys(operation.responses!))
        expect(section, `${operation.operationId} ${status}`).toMatch(new RegExp(`\\n\\| ${status} \\|`));
      for (const parameter of parameters)
        expect(section, `${operation.operationId} ${parameter.name}`).toContain(`\n| \`${parameter.name}\` | ${parameter.in} |`);
      const scope = (operation.security ?? []).find((entry: Json) => entry.ServiceOAuthToken)?.ServiceOAuthToken?.[0];
      expect(section).toContain(scope ? `\`${scope}\`` : '**Scope:** none');
      const success = Object.entries<Json>(operation.responses!).find(([status]) => status.startsWith('2'))!;
      const examples = Object.values<Json>(deref(bundle, success[1])!.content ?? {})[0]?.examples;
      if (examples) expect(section, operation.operationId).toContain(`Example answer (${success[0]}):`);
    }
  });

  it('holds every schema that is not an enumeration, with each of its fields', () => {
    let fields = 0;
    for (const [name, schema] of Object.entries<Json>(bundle.components.schemas)) {
      if (Array.isArray(schema.enum)) continue;
      const start = reference.indexOf(`\n### ${name}\n`);
      expect(start, name).toBeGreaterThan(reference.indexOf('\n## Schemas\n'));
      const section = sectionAt(start);
      const parts = [schema, ...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
      for (const field of parts.flatMap((part: Json) => Object.keys(part.properties ?? {}))) {
        fields += 1;
        expect(section, `${name}.${field}`).toContain(`\n| \`${field}\` |`);
      }
    }
    expect(fields).toBeGreaterThan(40);
  });

  it('links only to its own headings, each heading once (the docs page links of the description are rewritten)', () => {
    expect(reference).not.toContain('](#/');
    const links = [...reference.matchAll(/\]\(#([^)\s]*)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(50);
    for (const link of links) expect(headings, link).toContain(link);
    expect(anchors.length).toBe(headings.size);
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
          `| \`${JSON.stringify(value).replaceAll('|', '\\|')}\` | ${schema['x-enum-varnames'][index]} | ${String(schema['x-enum-descriptions'][index]).replaceAll('|', '\\|').replaceAll('\n', ' ')} |`,
        );
      });
    }
    expect(values).toBeGreaterThan(100);
  });

  it('keeps the facts of a value in its row (the range and units of time of a period, a browser version)', () => {
    expect(sectionAt(reference.indexOf('\n### Period\n'))).toContain(
      '| `7` | LastMonth | Last Month | 12 am of the 1st of the previous month until 12 am of the 1st of the current month | Hourly (2), Daily (3), Weekly (4) |',
    );
    expect(sectionAt(reference.indexOf('\n### BrowserType\n'))).toMatch(/\| `2` \| \w+ \| second supported browser \| 88 \|/);
  });
});

describe('llms.txt', () => {
  it('says what the API is, how to authenticate, and lists the data centers with both addresses', () => {
    expect(llms.startsWith(`# ${bundle.info.title}\n\n> `)).toBe(true);
    expect(llms).toContain('`Authorization: Service-oauthtoken <access token>`');
    for (const server of bundle.servers as Json[]) {
      if (!server['x-data-center']) continue;
      const apiRoot = String(server.url).replace('{api_host}', server.variables.api_host.default);
      expect(llms).toMatch(
        new RegExp(`^- ${server['x-data-center']} \\(.+\\): API root ${apiRoot}, identity provider ${server['x-auth-url']}$`, 'm'),
      );
    }
  });

  it('links every operation and guide to a heading of the reference', () => {
    const links = [...llms.matchAll(/\]\(reference\.md#([^)]+)\)/g)].map((match) => match[1]!);
    for (const { operation } of operationsOf(bundle)) expect(links).toContain(anchorOf(String(operation.summary)));
    for (const link of links) expect(headings, link).toContain(link);
  });
});
