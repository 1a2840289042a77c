// The description as Markdown, for readers and AI assistants: `reference.md` (the guides, every operation with its
// parameters, scope, body, answers and errors and an example of each, every schema with its fields, every
// enumeration with its values, names, meanings and the facts kept per value) and `llms.txt` (the index: what the API
// is, the data centers, auth, each operation in one line with a link into the reference).
// Both are made from the bundle and sit beside the docs page, which links them. The description's links point into
// the docs page (`#/section/scopes`, `#/schemas/period`, `#/monitors/getmonitor`); here they point at the reference's
// own headings, and a link the reference cannot resolve stops the build.
import { exampleOf, serializeBody } from '../../src/description/examples.js';
import {
  deref,
  isRecord,
  listOf,
  type MediaType,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type Parameter,
  type SchemaNode,
  type Server,
} from '../../src/description/openapi.js';

const schemaPrefix = '#/components/schemas/';
/** The first line of the table of values that the bundle's enum descriptions end with (scripts/redocly/decorators/enum-tables.js). */
const enumTableStart = '| Value |';

/** GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation dropped. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .trim()
    .split('')
    .filter((char) => /[a-z0-9 _-]/.test(char))
    .join('')
    .replaceAll(' ', '-');

/** A Markdown table cell: pipes escaped, one line. */
const cell = (text: unknown) =>
  String(text ?? '')
    .trim()
    .replaceAll('|', '\\|')
    .replaceAll(/\s*\n\s*/g, ' ');

/** The first line of a text, for one-line listings. */
const firstLine = (text: unknown) =>
  String(text ?? '')
    .split('\n')[0]!
    .trim();

/** Text as code. */
const code = (text: unknown) => `\`${String(text)}\``;
/** A value as code, as JSON writes it (`"URL"`, `1`): a string and a number stay apart. */
const literal = (value: unknown) => code(JSON.stringify(value));

/** A JSON example as a fenced block. */
const jsonBlock = (value: unknown) => ['```json', JSON.stringify(value, null, 2), '```'];

/** The guides of info.description (every `##` section). */
const guidesOf = (bundle: OpenApiDocument) => String(bundle.info?.description ?? '').trim();
const guideHeadings = (bundle: OpenApiDocument) => (guidesOf(bundle).match(/^## .+$/gm) ?? []).map((heading) => heading.slice(3).trim());

const isEnumeration = (schema: SchemaNode) => Array.isArray(schema.enum);
const scopeOf = (operation: Operation): string | undefined =>
  (operation.security ?? []).find((entry) => Array.isArray(entry.ServiceOAuthToken))?.ServiceOAuthToken?.[0];

/**
 * Turns the docs page's links of the description into links to the reference's headings: a guide
 * (`#/section/<slug>`), a schema (`#/schemas/<name>`, `#/schemas`), an operation (`#/<tag>/<operationId>`).
 */
function linkRewriter(bundle: OpenApiDocument): (text: string) => string {
  const targets = new Map<string, string>([['/schemas', 'schemas']]);
  for (const heading of guideHeadings(bundle)) targets.set(`/section/${anchorOf(heading)}`, anchorOf(heading));
  for (const name of Object.keys(bundle.components?.schemas ?? {})) targets.set(`/schemas/${name.toLowerCase()}`, anchorOf(name));
  for (const { operation } of operationsOf(bundle)) {
    for (const tag of operation.tags ?? []) {
      targets.set(`/${anchorOf(String(tag))}/${String(operation.operationId).toLowerCase()}`, anchorOf(String(operation.summary)));
    }
  }
  return (text) =>
    text.replaceAll(/\]\(#(\/[^)\s]*)\)/g, (_whole, target: string) => {
      const anchor = targets.get(target);
      if (!anchor) throw new Error(`reference.md: the description links to #${target}, which is no guide, schema or operation.`);
      return `](#${anchor})`;
    });
}

const characters = (count: number) => `${count} character${count === 1 ? '' : 's'}`;

/** A description without the table of values that the bundle appends to an enumeration's (the table is shown apart). */
const proseOf = (description: unknown) => {
  const text = String(description ?? '');
  const tableAt = text.indexOf(enumTableStart);
  return (tableAt === -1 ? text : text.slice(0, tableAt)).trim();
};

/** A schema node in words: a link to a named schema, or its type with its constraints. */
function typeOf(node: unknown): string {
  if (node === undefined || node === true) return 'any';
  if (node === false) return 'nothing';
  if (!isRecord(node)) return 'any';
  if (typeof node.$ref === 'string' && node.$ref.startsWith(schemaPrefix)) {
    const name = node.$ref.slice(schemaPrefix.length);
    return `[${code(name)}](#${anchorOf(name)})`;
  }
  if (node.const !== undefined) return literal(node.const);
  if (Array.isArray(node.enum)) {
    const meanings = listOf(node['x-enum-descriptions']);
    const values = listOf(node.enum).map((value, index) =>
      meanings[index] !== undefined && String(meanings[index]) !== String(value)
        ? `${literal(value)} (${meanings[index]})`
        : literal(value),
    );
    return `one of ${values.join(', ')}`;
  }
  for (const [keyword, words] of [
    ['allOf', 'all of'],
    ['oneOf', 'one of'],
    ['anyOf', 'any of'],
  ] as const) {
    if (!Array.isArray(node[keyword])) continue;
    const branches = listOf(node[keyword]).map(typeOf);
    if (branches.length === 1) return branches[0]!;
    return `${words} ${branches.join(', ')}`;
  }
  const types: unknown[] = node.type === undefined ? (node.properties ? ['object'] : []) : [node.type].flat();
  if (types.length === 0) return 'any';
  const described = types.map((type) => (type === 'array' ? `array of ${typeOf(node.items)}` : code(type))).join(' or ');
  const constraints = [
    node.format && `format ${code(node.format)}`,
    node.pattern && `pattern ${code(node.pattern)}`,
    typeof node.minLength === 'number' && `at least ${characters(node.minLength)}`,
    typeof node.maxLength === 'number' && `at most ${characters(node.maxLength)}`,
    typeof node.minimum === 'number' && `at least ${node.minimum}`,
    typeof node.maximum === 'number' && `at most ${node.maximum}`,
  ].filter(Boolean);
  return constraints.length > 0 ? `${described} (${constraints.join(', ')})` : described;
}

/** The fields of an object schema as a table (nothing when it has no properties). */
function fieldsTable(schema: SchemaNode, links: (text: string) => string): string[] {
  const entries = Object.entries(isRecord(schema.properties) ? schema.properties : {});
  if (entries.length === 0) return [];
  const required = new Set(listOf(schema.required));
  const lines = ['| Field | Type | Required | Description |', '|---|---|---|---|'];
  for (const [name, property] of entries) {
    lines.push(
      `| ${code(name)} | ${cell(typeOf(property))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(links(proseOf(isRecord(property) ? property.description : undefined)))} |`,
    );
  }
  const open = schema.additionalProperties;
  if (open === false) lines.push('', 'No other field is allowed.');
  else if (open === true) lines.push('', 'Other fields may be present: ignore those you do not know (core document, section 9).');
  else if (open !== undefined) lines.push('', `Other fields: ${typeOf(open)}.`);
  return lines;
}

/** The structure of a schema: its fields, or its parts (allOf, oneOf, anyOf) with the fields of the inline ones. */
function structureOf(schema: SchemaNode, links: (text: string) => string): string[] {
  const lines: string[] = [];
  for (const [keyword, words] of [
    ['allOf', 'All of'],
    ['oneOf', 'Exactly one of'],
    ['anyOf', 'Any of'],
  ] as const) {
    if (!Array.isArray(schema[keyword])) continue;
    const parts = listOf(schema[keyword]);
    const inline = (part: unknown): part is SchemaNode => isRecord(part) && typeof part.$ref !== 'string' && Boolean(part.properties);
    lines.push(`${words}:`, '');
    parts.forEach((part, index) => {
      lines.push(`${index + 1}. ${inline(part) ? (part.title ? `${part.title}: the fields below` : 'the fields below') : typeOf(part)}`);
    });
    lines.push('');
    parts.forEach((part, index) => {
      if (!inline(part)) return;
      lines.push(`Fields of ${index + 1}:`, '', ...fieldsTable(part, links), '');
    });
  }
  if (schema.properties) lines.push(...fieldsTable(schema, links), '');
  else if (lines.length === 0) lines.push(`Type: ${typeOf(schema)}.`, '');
  const example = listOf(schema.examples)[0] ?? schema.example;
  if (example !== undefined)
    lines.push(...(typeof example === 'object' ? ['Example:', '', ...jsonBlock(example)] : [`Example: ${literal(example)}.`]), '');
  return lines;
}

/** The media type and schema of a body or an answer, in words. */
const bodyOf = (content: Record<string, MediaType> | undefined) =>
  Object.entries(content ?? {})
    .map(([mediaType, media]) => `${typeOf(media.schema)} (${code(mediaType)})`)
    .join(', ');

function operationSection(
  bundle: OpenApiDocument,
  links: (text: string) => string,
  path: string,
  method: string,
  operation: Operation,
  parameters: Parameter[],
): string {
  const lines = [
    `### ${operation.summary}`,
    '',
    `${code(`${method.toUpperCase()} ${path}`)} (operationId ${code(operation.operationId)})`,
    '',
  ];
  const description = links(String(operation.description ?? '').trim());
  if (description) lines.push(description, '');
  const scope = scopeOf(operation);
  if (scope && !description.includes('**Scope:**')) lines.push(`**Scope:** ${code(scope)}`, '');
  if (!scope) lines.push('**Scope:** none: this call takes no access token.', '');
  if (parameters.length > 0) {
    lines.push('| Parameter | In | Required | Type | Description |', '|---|---|---|---|---|');
    for (const parameter of parameters) {
      lines.push(
        `| ${code(parameter.name)} | ${parameter.in} | ${parameter.required ? 'yes' : 'no'} | ${cell(typeOf(parameter.schema))} | ${cell(links(proseOf(parameter.description)))} |`,
      );
    }
    lines.push('');
  }
  const body = deref(bundle, operation.requestBody);
  if (body) {
    lines.push(`Request body${body.required ? '' : ' (optional)'}: ${bodyOf(body.content)}.`, '');
    const [mediaType, media] = Object.entries(body.content ?? {})[0] ?? [];
    const example = mediaType ? exampleOf(bundle, media) : undefined;
    if (mediaType && example !== undefined) {
      lines.push(
        ...(mediaType.startsWith('application/json') ? jsonBlock(example) : ['```', serializeBody(mediaType, example), '```']),
        '',
      );
    }
  }
  lines.push('| Status | Answer | Body |', '|---|---|---|');
  const responses = Object.entries(operation.responses ?? {}).map(([status, raw]) => [status, deref(bundle, raw) ?? {}] as const);
  for (const [status, response] of responses) {
    lines.push(
      `| ${status} | ${cell(links(String(response.description ?? '')))} | ${cell(bodyOf(response.content) || 'none documented')} |`,
    );
  }
  lines.push('');
  const [successStatus, success] = responses.find(([status]) => status.startsWith('2')) ?? [];
  const media = Object.values(success?.content ?? {})[0];
  const example = media ? exampleOf(bundle, media) : undefined;
  if (example !== undefined) lines.push(`Example answer (${successStatus}):`, '', ...jsonBlock(example), '');
  return lines.join('\n');
}

/** Splits a Markdown table row into its cells (a `\|` stays inside its cell). */
function rowCells(row: string): string[] {
  const cells: string[] = [];
  let current = '';
  for (let index = 1; index < row.length; index++) {
    const char = row[index]!;
    if (char === '|' && row[index - 1] !== '\\') {
      cells.push(current.trim());
      current = '';
    } else current += char;
  }
  return cells;
}

/**
 * The facts an enumeration keeps per value (range, units of time, monitor types not supported, ...), as the columns of
 * the table the bundle's description ends with: column title → value (as the table writes it) → cell.
 */
function factColumns(description: string): Map<string, Map<string, string>> {
  const rows = description
    .slice(description.indexOf(enumTableStart))
    .split('\n')
    .filter((line) => line.startsWith('|'));
  const [header, , ...values] = rows.map(rowCells);
  const columns = new Map<string, Map<string, string>>();
  header?.forEach((title, index) => {
    if (title === 'Value' || title === 'Meaning') return;
    columns.set(title, new Map(values.map((cells) => [cells[0]!, cells[index] ?? ''])));
  });
  return columns;
}

function enumerationSection(name: string, schema: SchemaNode, links: (text: string) => string): string {
  const names = listOf(schema['x-enum-varnames']);
  const meanings = listOf(schema['x-enum-descriptions']);
  const description = String(schema.description ?? '');
  const prose = links(proseOf(description));
  const tableAt = description.indexOf(enumTableStart);
  const facts = tableAt === -1 ? new Map<string, Map<string, string>>() : factColumns(description.slice(tableAt));
  const lines = [`### ${name}`, ''];
  if (schema.title) lines.push(`${schema.title}.${prose ? ` ${prose}` : ''}`, '');
  else if (prose) lines.push(prose, '');
  lines.push(
    `| Value | Name | Meaning |${[...facts.keys()].map((title) => ` ${title} |`).join('')}`,
    `|---|---|---|${[...facts.keys()].map(() => '---|').join('')}`,
  );
  listOf(schema.enum).forEach((value, index) => {
    const shown = cell(literal(value));
    const factCells = [...facts.values()].map((column) => ` ${column.get(shown) ?? ''} |`).join('');
    lines.push(`| ${shown} | ${cell(names[index])} | ${cell(meanings[index])} |${factCells}`);
  });
  lines.push('');
  return lines.join('\n');
}

function schemaSection(name: string, schema: SchemaNode, links: (text: string) => string): string {
  const lines = [`### ${name}`, ''];
  const description = links(proseOf(schema.description));
  if (schema.title) lines.push(`${schema.title}.${description ? ` ${description}` : ''}`, '');
  else if (description) lines.push(description, '');
  lines.push(...structureOf(schema, links));
  return lines.join('\n');
}

/** The full Markdown reference. */
export function markdownReference(bundle: OpenApiDocument): string {
  const links = linkRewriter(bundle);
  const schemas = Object.entries(bundle.components?.schemas ?? {});
  const parts = [
    `# ${bundle.info?.title} (version ${bundle.info?.version})`,
    '',
    String(bundle.info?.summary ?? ''),
    '',
    links(guidesOf(bundle)),
    '',
    '## Operations',
    '',
  ];
  for (const { path, method, operation, parameters } of operationsOf(bundle)) {
    parts.push(operationSection(bundle, links, path, method, operation, parameters));
  }
  parts.push('## Schemas', '', 'Every named schema of the API but the enumerations (which follow), with its fields.', '');
  for (const [name, schema] of schemas) if (!isEnumeration(schema)) parts.push(schemaSection(name, schema, links));
  parts.push(
    '## Enumerations',
    '',
    'Every enumerated value of the API, with its name for code, its meaning and the facts kept per value.',
    '',
  );
  for (const [name, schema] of schemas) if (isEnumeration(schema)) parts.push(enumerationSection(name, schema, links));
  const reference = `${parts.join('\n').trimEnd()}\n`;
  const anchors = headingAnchors(reference);
  const repeated = anchors.filter((anchor, index) => anchors.indexOf(anchor) !== index);
  if (repeated.length > 0)
    throw new Error(`reference.md: two headings share the anchor ${repeated.map((anchor) => `#${anchor}`).join(', ')}.`);
  return reference;
}

/** The anchors of the headings of a Markdown text (outside fenced code). */
export function headingAnchors(markdown: string): string[] {
  let fenced = false;
  const anchors: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) anchors.push(anchorOf(line.replace(/^#+ /, '')));
  }
  return anchors;
}

/** A server's URL with each variable at its default. */
const expandedUrl = (server: Server) =>
  String(server.url).replaceAll(/\{([^}]+)\}/g, (whole: string, name: string) => String(server.variables?.[name]?.default ?? whole));

/** llms.txt (llmstxt.org): the API in a page, each operation one line linking into the reference. */
export function llmsText(bundle: OpenApiDocument, referenceFile = 'reference.md'): string {
  const version = String(bundle.info?.version);
  const lines = [`# ${bundle.info?.title}`, '', `> ${firstLine(bundle.info?.summary)} Version ${version}.`, ''];
  lines.push(
    `Every resource request carries \`Authorization: Service-oauthtoken <access token>\` and \`Accept: application/json; version=${version}\`; ` +
      'access tokens come from the identity provider of the same data center (OAuth 2.0 authorization-code grant once, then the refresh-token grant), ' +
      `which takes no access token. Answers are an envelope \`{code, message, data}\`; errors are \`{code, message}\`. The full reference: [${referenceFile}](${referenceFile}).`,
    '',
    '## Data centers',
    '',
  );
  for (const server of bundle.servers ?? []) {
    if (!server['x-data-center']) continue;
    const name = firstLine(server.description).split('.')[0];
    lines.push(`- ${server['x-data-center']} (${name}): API root ${expandedUrl(server)}, identity provider ${server['x-auth-url']}`);
  }
  lines.push('', "Every host above is a placeholder (the documents do not give them): use your data center's real hosts.");
  lines.push('', '## Guides', '');
  for (const heading of guideHeadings(bundle)) lines.push(`- [${heading}](${referenceFile}#${anchorOf(heading)})`);
  lines.push('', '## Operations', '');
  for (const { path, method, operation } of operationsOf(bundle)) {
    const scope = scopeOf(operation);
    lines.push(
      `- [${operation.summary}](${referenceFile}#${anchorOf(String(operation.summary))}): \`${method.toUpperCase()} ${path}\`${scope ? `, scope \`${scope}\`` : ', on the identity provider, no access token'}`,
    );
  }
  lines.push(
    '',
    '## Optional',
    '',
    `- [Schemas](${referenceFile}#schemas): every schema with its fields`,
    `- [Enumerations](${referenceFile}#enumerations): every enumerated value with its meaning`,
    '',
  );
  return lines.join('\n');
}
