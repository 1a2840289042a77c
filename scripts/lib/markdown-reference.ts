// The description as Markdown, for readers and AI assistants: `reference.md` (the guides, every operation with its
// parameters, scope, answers and errors, every enumeration with its values and meanings) and `llms.txt` (the index:
// what the API is, the data centers, auth, each operation in one line with a link into the reference).
// Both are made from the bundle and sit beside the docs page, which links them.
import { deref, operationsOf, type Json } from '../../src/description/openapi.js';

/** A Markdown table cell: pipes escaped, one line. */
const cell = (text: unknown) =>
  String(text ?? '')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ')
    .trim();

/** GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation dropped. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .trim()
    .split('')
    .filter((char) => /[a-z0-9 _-]/.test(char))
    .join('')
    .replaceAll(' ', '-');

/** The first sentence (or line) of a text, for one-line listings. */
const firstLine = (text: unknown) =>
  String(text ?? '')
    .split('\n')[0]!
    .trim();

/** The name of a schema a node refers to (`MonitorListResponse`), or a short description of an inline one. */
function schemaName(document: Json, node: Json | undefined): string {
  if (!node) return '';
  if (typeof node.$ref === 'string') return `\`${node.$ref.split('/').at(-1)}\``;
  const schema = deref(document, node) ?? {};
  if (schema.type === 'array' && schema.items) return `array of ${schemaName(document, schema.items)}`;
  return schema.type ? `\`${[schema.type].flat().join(' | ')}\`` : 'any';
}

function scopeOf(operation: Json): string | undefined {
  const requirement = (operation.security ?? []).find((entry: Json) => Array.isArray(entry.ServiceOAuthToken));
  return requirement?.ServiceOAuthToken?.[0];
}

function operationSection(document: Json, path: string, method: string, operation: Json, parameters: Json[]): string {
  const lines = [`### ${operation.summary}`, '', `\`${method.toUpperCase()} ${path}\` (operationId \`${operation.operationId}\`)`, ''];
  const description = String(operation.description ?? '').trim();
  if (description) lines.push(description, '');
  const scope = scopeOf(operation);
  if (scope && !description.includes('**Scope:**')) lines.push(`**Scope:** \`${scope}\``, '');
  if (parameters.length > 0) {
    lines.push('| Parameter | In | Required | Schema | Description |', '|---|---|---|---|---|');
    for (const parameter of parameters) {
      lines.push(
        `| \`${parameter.name}\` | ${parameter.in} | ${parameter.required ? 'yes' : 'no'} | ${cell(schemaName(document, parameter.schema))} | ${cell(firstLine(parameter.description))} |`,
      );
    }
    lines.push('');
  }
  const body = deref(document, operation.requestBody);
  if (body) {
    for (const [mediaType, media] of Object.entries<Json>(body.content ?? {}))
      lines.push(`Request body (\`${mediaType}\`): ${schemaName(document, media.schema)}.`, '');
  }
  lines.push('| Status | Answer | Body |', '|---|---|---|');
  for (const [status, raw] of Object.entries<Json>(operation.responses ?? {})) {
    const response = deref(document, raw) ?? {};
    const bodies = Object.entries<Json>(response.content ?? {}).map(
      ([mediaType, media]) => `${schemaName(document, media.schema)} (\`${mediaType}\`)`,
    );
    lines.push(`| ${status} | ${cell(firstLine(response.description))} | ${cell(bodies.join(', '))} |`);
  }
  lines.push('');
  return lines.join('\n');
}

function enumerationSection(name: string, schema: Json): string {
  const names: string[] = schema['x-enum-varnames'] ?? [];
  const meanings: string[] = schema['x-enum-descriptions'] ?? [];
  const lines = [`### ${name}`, ''];
  if (schema.title) lines.push(`${schema.title}.`, '');
  lines.push('| Value | Name | Meaning |', '|---|---|---|');
  schema.enum.forEach((value: unknown, index: number) => {
    lines.push(`| \`${cell(JSON.stringify(value))}\` | ${cell(names[index])} | ${cell(meanings[index])} |`);
  });
  lines.push('');
  return lines.join('\n');
}

/** The guides of info.description, without the enum tables' decorations (they are in Enumerations). */
const guidesOf = (bundle: Json) => String(bundle.info.description ?? '').trim();

/** The full Markdown reference. */
export function markdownReference(bundle: Json): string {
  const parts = [
    `# ${bundle.info.title} (version ${bundle.info.version})`,
    '',
    String(bundle.info.summary ?? ''),
    '',
    guidesOf(bundle),
    '',
    '## Operations',
    '',
  ];
  for (const { path, method, operation, parameters } of operationsOf(bundle))
    parts.push(operationSection(bundle, path, method, operation, parameters));
  parts.push('## Enumerations', '', 'Every enumerated value of the API, with its name for code and its meaning.', '');
  for (const [name, schema] of Object.entries<Json>(bundle.components?.schemas ?? {})) {
    if (Array.isArray(schema.enum)) parts.push(enumerationSection(name, schema));
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

/** llms.txt (llmstxt.org): the API in a page, each operation one line linking into the reference. */
export function llmsText(bundle: Json, referenceFile = 'reference.md'): string {
  const lines = [`# ${bundle.info.title}`, '', `> ${firstLine(bundle.info.summary)} Version ${bundle.info.version}.`, ''];
  lines.push(
    'Every request carries `Authorization: Service-oauthtoken <access token>` and `Accept: application/json; version=2.0`; ' +
      'access tokens come from the identity provider of the same data center (OAuth 2.0 authorization-code flow, then refresh tokens). ' +
      `Answers are an envelope \`{code, message, data}\`; errors are \`{code, message}\`. The full reference: [${referenceFile}](${referenceFile}).`,
    '',
    '## Data centers',
    '',
  );
  for (const server of bundle.servers ?? []) {
    if (server['x-data-center']) lines.push(`- ${server['x-data-center']}: ${firstLine(server.description)}`);
  }
  lines.push('', '## Guides', '');
  for (const heading of guidesOf(bundle).match(/^## .+$/gm) ?? []) {
    const title = heading.slice(3).trim();
    lines.push(`- [${title}](${referenceFile}#${anchorOf(title)})`);
  }
  lines.push('', '## Operations', '');
  for (const { path, method, operation } of operationsOf(bundle)) {
    const scope = scopeOf(operation);
    lines.push(
      `- [${operation.summary}](${referenceFile}#${anchorOf(String(operation.summary))}): \`${method.toUpperCase()} ${path}\`${scope ? `, scope \`${scope}\`` : ''}`,
    );
  }
  lines.push('', '## Optional', '', `- [Enumerations](${referenceFile}#enumerations): every enumerated value with its meaning`, '');
  return lines.join('\n');
}
