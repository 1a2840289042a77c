// The console of the docs page, made at build time: what it knows of each operation (from the bundled description:
// parameters, named examples, the requests one click away), and its code and style (scripts/docs-console/, bundled
// by esbuild into one script the page runs as it is). scripts/lib/docs-page.ts puts them in the page.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { exampleOf, serializeBody } from '../../src/description/examples.js';
import {
  deref,
  isParameter,
  isRecord,
  listOf,
  type MediaType,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type Parameter,
  type SchemaNode,
  schemaEntries,
  schemaList,
} from '../../src/description/openapi.js';
import type { ConsoleData, ConsoleOperation, ConsoleParameter, NamedValue, Scenario } from '../docs-console/data.js';
import { root } from './paths.js';

/** The console's source folder: a build whose inputs list it runs again when it changes. */
const consoleSources = path.join(root, 'scripts', 'docs-console');

/** A value as a field of the console holds it: text as it is, a body as its media type sends it (JSON indented). */
function fieldText(value: unknown, mediaType?: string): string {
  if (mediaType === undefined) return typeof value === 'string' ? value : JSON.stringify(value);
  return mediaType.includes('json') ? JSON.stringify(value, null, 2) : serializeBody(mediaType, value);
}

/** The part of a summary before its first parenthesis: what a reader picks an example by. */
const shortLabel = (summary: string) => summary.replace(/\s*\(.*$/s, '').trim() || summary;

/** The named examples of a parameter or a media type, each as the field holds it. */
function namedValues(document: OpenApiDocument, holder: Parameter | MediaType, mediaType?: string): NamedValue[] {
  return Object.entries(holder.examples ?? {}).flatMap(([name, raw]) => {
    const example = deref(document, raw);
    if (example?.value === undefined) return [];
    return [{ name, label: shortLabel(example.summary ?? name), value: fieldText(example.value, mediaType) }];
  });
}

/** The properties of a schema and of the schemas of its allOf, resolved. */
function propertiesOf(document: OpenApiDocument, node: SchemaNode | undefined): Map<string, SchemaNode> {
  const schema = deref(document, node);
  const found = new Map<string, SchemaNode>();
  if (!schema) return found;
  for (const part of schemaList(schema.allOf)) for (const [name, value] of propertiesOf(document, part)) found.set(name, value);
  for (const [name, value] of schemaEntries(schema.properties)) found.set(name, deref(document, value) ?? value);
  return found;
}

/** The media type and schema of an operation's first success answer. */
function successOf(document: OpenApiDocument, operation: Operation): [string, MediaType] | undefined {
  const status = Object.keys(operation.responses ?? {}).find((code) => code.startsWith('2'));
  const response = status === undefined ? undefined : deref(document, operation.responses?.[status]);
  return Object.entries(response?.content ?? {})[0];
}

/** Whether the operation's success lists accounts (its `data` items have a `zaaid`): acting on one of them may not. */
function listsAccounts(document: OpenApiDocument, operation: Operation): boolean {
  const items = propertiesOf(document, successOf(document, operation)?.[1].schema).get('data')?.items;
  return isRecord(items) && propertiesOf(document, items).has('zaaid');
}

/** The first error status whose answers include a named example of this key (`MonitorNotFound`: 404). */
function errorNamed(document: OpenApiDocument, operation: Operation, name: string): number | undefined {
  for (const [status, raw] of Object.entries(operation.responses ?? {})) {
    if (!/^[45]/.test(status)) continue;
    const content = deref(document, raw)?.content ?? {};
    if (Object.values(content).some((media) => media.examples?.[name] !== undefined)) return Number(status);
  }
  return undefined;
}

/**
 * The requests one click away: a parameter's example an error answer is named after, a body without a required
 * property, an account that may not (one that is not the caller's; a customer's zaaid sent to a list of accounts).
 */
function scenariosOf(
  document: OpenApiDocument,
  operation: Operation,
  parameters: ConsoleParameter[],
  body: ConsoleOperation['body'],
): Scenario[] {
  const scenarios: Scenario[] = [];
  for (const parameter of parameters)
    for (const example of parameter.examples.slice(1)) {
      const status = errorNamed(document, operation, example.name);
      if (status !== undefined) scenarios.push({ label: example.label, status, parameter: { name: parameter.name, value: example.value } });
    }
  const media = body && deref(document, operation.requestBody)?.content?.[body.mediaType];
  const required = listOf(deref(document, media?.schema)?.required).filter((name): name is string => typeof name === 'string');
  const example = body?.examples[0];
  if (body?.mediaType.includes('json') && example && required[0] !== undefined) {
    const { [required[0]]: _left, ...rest } = JSON.parse(example.value) as Record<string, unknown>;
    scenarios.push({ label: `Without ${required[0]}`, status: 400, body: JSON.stringify(rest, null, 2) });
  }
  const account = accountOf(document, operation);
  if (account === 'acts') scenarios.push({ label: 'On an account that is not yours', status: 403, account: 'stranger' });
  if (account === 'lists') scenarios.push({ label: "With a customer's zaaid, which it does not take", status: 403, account: 'managed' });
  return scenarios;
}

/** Whether the operation acts on the account of the zaaid cookie, or lists the accounts the zaaids come from. */
function accountOf(document: OpenApiDocument, operation: Operation): ConsoleOperation['account'] {
  if (parameterIn(document, operation, 'cookie', 'zaaid')) return 'acts';
  return listsAccounts(document, operation) ? 'lists' : undefined;
}

function parameterIn(document: OpenApiDocument, operation: Operation, place: string, name: string): boolean {
  return (operation.parameters ?? []).some((raw) => {
    const parameter = deref(document, raw);
    return parameter?.in === place && parameter.name === name;
  });
}

/** A parameter as the console's field shows it; the cookie is the console's account, not a field. */
function consoleParameter(document: OpenApiDocument, parameter: Parameter): ConsoleParameter[] {
  if (!isParameter(parameter) || !['path', 'query', 'header'].includes(parameter.in)) return [];
  const examples = namedValues(document, parameter);
  const single = examples.length > 0 ? undefined : exampleOf(document, parameter);
  return [
    {
      name: parameter.name,
      in: parameter.in as ConsoleParameter['in'],
      required: parameter.required === true,
      examples,
      value: examples[0]?.value ?? (single === undefined || parameter.required !== true ? '' : fieldText(single)),
    },
  ];
}

/** The scopes of an operation's security requirements. */
const scopesOf = (operation: Operation) =>
  (operation.security ?? []).flatMap((requirement) => Object.values(requirement).flat()).filter((scope) => typeof scope === 'string');

/** What the console knows of every operation of the bundled description. */
export function consoleData(bundle: OpenApiDocument): ConsoleData {
  const operations: Record<string, ConsoleOperation> = {};
  const scopes = new Set<string>();
  for (const { path: template, method, operation, parameters } of operationsOf(bundle)) {
    if (typeof operation.operationId !== 'string') continue;
    for (const scope of scopesOf(operation)) scopes.add(scope);
    const fields = parameters.flatMap((parameter) => consoleParameter(bundle, parameter));
    const requestBody = deref(bundle, operation.requestBody);
    const [mediaType, media] = Object.entries(requestBody?.content ?? {})[0] ?? [];
    const body =
      mediaType && media
        ? {
            mediaType,
            required: requestBody?.required === true,
            examples: namedValues(bundle, media, mediaType).concat(
              Object.keys(media.examples ?? {}).length === 0 && exampleOf(bundle, media) !== undefined
                ? [{ name: 'example', label: 'Example', value: fieldText(exampleOf(bundle, media), mediaType) }]
                : [],
            ),
          }
        : undefined;
    const success = successOf(bundle, operation)?.[0];
    const account = accountOf(bundle, operation);
    const item = bundle.paths?.[template];
    operations[operation.operationId.toLowerCase()] = {
      operationId: operation.operationId,
      summary: String(operation.summary ?? operation.operationId),
      method: method.toUpperCase(),
      server: (operation.servers ?? item?.servers) ? 'identity' : 'api',
      path: template,
      secured: scopesOf(operation).length > 0,
      ...(success?.includes('version=') ? { accept: success } : {}),
      ...(account ? { account } : {}),
      parameters: fields,
      ...(body ? { body } : {}),
      scenarios: scenariosOf(bundle, operation, fields, body),
    };
  }
  return { scopes: [...scopes], operations };
}

/** The console's script (one IIFE, minified) and its style (minified), as the page inlines them. */
export async function consoleAssets(): Promise<{ script: string; style: string }> {
  const esbuild = await import('esbuild');
  const script = await esbuild.build({
    entryPoints: [path.join(consoleSources, 'index.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const css = await readFile(path.join(consoleSources, 'console.css'), 'utf8');
  const style = await esbuild.transform(css, { loader: 'css', minify: true });
  return { script: script.outputFiles[0]!.text.trim(), style: style.code.trim() };
}
