// The MCP server's tools, made from the bundle: one per resource operation (the identity provider's are not tools:
// the server gets its tokens itself). Each has the operation's name, a description from its summary, scope and
// documented errors, and an input schema of its parameters, its body and an optional `zaaid` (act on a customer or
// business unit), self-contained (no reference left).
import { operationsOf, type Json } from '../../src/description/openapi.js';
import type { ToolDefinition } from '../../src/mcp/tool.js';
import { dereferenced } from './openapi-forms.js';

/** The first paragraph of a description, without the scope line the docs decorator adds. */
const firstParagraph = (text: unknown) =>
  String(text ?? '')
    .split('\n\n')[0]!
    .replace(/\s+/g, ' ')
    .trim();

function errorsOf(operation: Json): string {
  const errors = Object.entries<Json>(operation.responses ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, response]) => `${status} ${firstParagraph(response.description).replace(/\.$/, '')}`);
  return errors.length > 0 ? ` Documented errors: ${errors.join('; ')}.` : '';
}

export function mcpTools(bundle: Json): ToolDefinition[] {
  const document = dereferenced(bundle);
  return operationsOf(document)
    .filter(({ path }) => !path.startsWith('/oauth/'))
    .map(({ path, method, operation, parameters }) => {
      const write = method !== 'get';
      const properties: Json = {};
      const required: string[] = [];
      for (const parameter of parameters) {
        if (parameter.in !== 'path' && parameter.in !== 'query') continue;
        properties[parameter.name] = { ...(parameter.schema ?? { type: 'string' }), description: firstParagraph(parameter.description) };
        if (parameter.required) required.push(parameter.name);
      }
      const body = Object.entries<Json>(operation.requestBody?.content ?? {}).find(([mediaType]) =>
        mediaType.startsWith('application/json'),
      );
      if (body) {
        properties.body = {
          ...body[1].schema,
          description: `The request body. ${firstParagraph(operation.requestBody.description)}`.trim(),
        };
        if (operation.requestBody.required) required.push('body');
      }
      if (parameters.some((parameter) => parameter.in === 'cookie' && parameter.name === 'zaaid')) {
        properties.zaaid = {
          type: 'string',
          pattern: '^[0-9]+$',
          description:
            'Act on this customer (MSP) or business unit (BU portal) account: its zaaid, from listMspCustomers or listBusinessUnits. Leave out for your own account.',
        };
      }
      const scope = (operation.security ?? []).find((entry: Json) => Array.isArray(entry.ServiceOAuthToken))?.ServiceOAuthToken?.[0];
      const description = [
        `${operation.summary}: ${method.toUpperCase()} ${path}.`,
        firstParagraph(operation.description),
        scope ? `Scope: ${scope}.` : '',
        write
          ? `Changes data in the account (${method.toUpperCase()}): the server offers it only when writes are allowed (--allow-writes).`
          : '',
        errorsOf(operation).trim(),
      ]
        .filter(Boolean)
        .join(' ');
      return {
        name: String(operation.operationId),
        description,
        method,
        path,
        write,
        inputSchema: { type: 'object', properties, required, additionalProperties: false },
      };
    });
}
