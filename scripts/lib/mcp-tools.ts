// The MCP server's tools, made from the bundle: one per resource operation (the identity provider's are not tools:
// the server gets its tokens itself). Each has the operation's name, its summary as title, a description from its
// summary, scope and documented errors (a write says what it changes), hints of what a call does to the account
// (read-only, additive, idempotent), an input schema of its parameters, its body and an optional `zaaid` (act on a
// customer or business unit), and an output schema of its answer's `data`, both self-contained (no reference left).
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import {
  isRecord,
  listOf,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type SchemaNode,
  schemaList,
} from '../../src/description/openapi.js';
import type { ObjectSchema, ToolAnnotations, ToolDefinition } from '../../src/mcp/tool.js';
import { dereferenced } from './openapi-forms.js';

/** The first paragraph of a description, without the scope line the docs decorator adds. */
const firstParagraph = (text: unknown) =>
  String(text ?? '')
    .split('\n\n')[0]!
    .replace(/\s+/g, ' ')
    .trim();

function errorsOf(operation: Operation): string {
  const errors = Object.entries(operation.responses ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, response]) => `${status} ${firstParagraph(response.description).replace(/\.$/, '')}`);
  return errors.length > 0 ? ` Documented errors: ${errors.join('; ')}.` : '';
}

/** What a write changes, in words: its summary as an action, where, and when the server offers it. */
function changes(method: string, summary: string): string {
  const action = /^[A-Z][a-z]/.test(summary) ? summary[0]!.toLowerCase() + summary.slice(1) : summary;
  return (
    `This changes data (${method.toUpperCase()}): it will ${action} in the account it acts on (yours, or the zaaid's). ` +
    'Offered only when writes are allowed (--allow-writes, allowWrites: true).'
  );
}

/**
 * The MCP hints of a call (clients use them to ask the user before a change): a GET only reads; a POST adds (not
 * destructive, not idempotent: each call adds another); a PUT or a DELETE replaces or removes (destructive,
 * idempotent). Every call reaches the service, outside the assistant's host: an open world.
 */
function hintsOf(method: string, title: string): ToolAnnotations {
  if (method === 'get') return { title, readOnlyHint: true, openWorldHint: true };
  return { title, readOnlyHint: false, destructiveHint: method !== 'post', idempotentHint: method !== 'post', openWorldHint: true };
}

/** The keywords of an output schema that say what an answer holds; titles, examples and `x-` tables only cost context. */
const outputKeywords = new Set([
  'type',
  'description',
  'properties',
  'items',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);

/** A schema with the keywords of outputKeywords only, its descriptions cut to their first paragraph (no tables). */
function compactSchema(schema: SchemaNode): SchemaNode {
  const compact: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!outputKeywords.has(key)) continue;
    if (key === 'description') compact.description = firstParagraph(value);
    else if (key === 'properties')
      compact.properties = Object.fromEntries(
        Object.entries(isRecord(value) ? value : {}).map(([name, property]) => [name, compacted(property)]),
      );
    else if (key === 'enum' || key === 'const' || key === 'required' || key === 'type' || typeof value !== 'object') compact[key] = value;
    else compact[key] = compacted(value);
  }
  return compact;
}

/** A value of a schema compacted: a subschema (or a list of them) as compactSchema makes it; anything else as it is. */
const compacted = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(compacted) : isRecord(value) ? compactSchema(value) : value;

/** A schema of the description as the MCP SDK types JSON Schema: the bundle's schemas are JSON Schema 2020-12 (linted). */
const asJsonSchema = (schema: SchemaNode): JsonSchemaType => schema as JsonSchemaType;

/**
 * The tool's output schema (MCP requires an object): `{ data }`, the `data` of the envelope of the operation's first
 * successful answer, as the description gives it; required when the description requires it.
 */
function outputSchemaOf(operation: Operation): ObjectSchema {
  const success = Object.entries(operation.responses ?? {}).find(([status, response]) => status.startsWith('2') && response.content);
  const schema: SchemaNode = Object.values(success?.[1].content ?? {})[0]?.schema ?? {};
  const parts = [schema, ...schemaList(schema.allOf)].reverse();
  const holder = parts.find((part) => isRecord(part.properties) && part.properties.data !== undefined);
  const held = isRecord(holder?.properties) ? holder.properties.data : undefined;
  const data = isRecord(held) ? compactSchema(held) : { description: firstParagraph(schema.description) || 'Not shown in the documents.' };
  return {
    type: 'object',
    description: "The `data` of the service's envelope (its answer's payload).",
    properties: { data: asJsonSchema(data) },
    required: listOf(holder?.required).includes('data') ? ['data'] : [],
    additionalProperties: false,
  };
}

export function mcpTools(bundle: OpenApiDocument): ToolDefinition[] {
  const document = dereferenced(bundle);
  return operationsOf(document)
    .filter(({ path }) => !path.startsWith('/oauth/'))
    .map(({ path, method, operation, parameters }) => {
      const write = method !== 'get';
      const properties: Record<string, JsonSchemaType> = {};
      const required: string[] = [];
      for (const parameter of parameters) {
        if ((parameter.in !== 'path' && parameter.in !== 'query') || parameter.name === undefined) continue;
        properties[parameter.name] = asJsonSchema({
          ...(parameter.schema ?? { type: 'string' }),
          description: firstParagraph(parameter.description),
        });
        if (parameter.required) required.push(parameter.name);
      }
      const requestBody = operation.requestBody;
      const body = Object.entries(requestBody?.content ?? {}).find(([mediaType]) => mediaType.startsWith('application/json'));
      if (requestBody && body) {
        properties.body = asJsonSchema({
          ...body[1].schema,
          description: `The request body. ${firstParagraph(requestBody.description)}`.trim(),
        });
        if (requestBody.required) required.push('body');
      }
      const account = parameters.find((parameter) => parameter.in === 'cookie' && parameter.name === 'zaaid');
      if (account) {
        // The description's schema of the zaaid (no format is documented); the words say which tools list them.
        properties.zaaid = asJsonSchema({
          ...(account.schema ?? { type: 'string' }),
          description:
            'Act on this customer (MSP) or business unit (BU portal) account: its zaaid, from listMspCustomers or listBusinessUnits. Leave out for your own account.',
        });
      }
      const scope = (operation.security ?? []).find((entry) => Array.isArray(entry.ServiceOAuthToken))?.ServiceOAuthToken?.[0];
      const description = [
        `${operation.summary}: ${method.toUpperCase()} ${path}.`,
        firstParagraph(operation.description),
        scope ? `Scope: ${scope}.` : '',
        write ? changes(method, String(operation.summary)) : '',
        errorsOf(operation).trim(),
      ]
        .filter(Boolean)
        .join(' ');
      return {
        name: String(operation.operationId),
        title: String(operation.summary),
        description,
        method,
        path,
        write,
        annotations: hintsOf(method, String(operation.summary)),
        inputSchema: { type: 'object', properties, required, additionalProperties: false },
        outputSchema: outputSchemaOf(operation),
      };
    });
}
