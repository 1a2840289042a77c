// monitoring-service-api/mcp: the API as tools for AI assistants (Model Context Protocol), from the contract.
//
//   const server = createMcpServer({ baseUrl, authUrl, auth: { clientId, clientSecret, refreshToken } });
//   await server.connect(new StdioServerTransport());
//
// One tool per resource operation of the description (generated/mcp-tools.json), called through the package's
// client (tokens, data centers, accounts, retries, errors). Read-only unless `allowWrites`: a write operation is
// neither listed nor callable without it. A tool's input is checked against its schema before any request. A failed
// call is a tool error the assistant can read (`404 1002 Monitor does not exist.`), never an exception that ends the
// session. Every enumeration of the description, and every guide, is a resource; `lookupConstant` answers what a
// value means. Secrets never appear in what the server sends (the credentials, and every access token the client
// obtains, are redacted), and the service's text reaches the assistant with its control characters made visible.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import bundle from '../../generated/openapi.json' with { type: 'json' };
import generated from '../../generated/mcp-tools.json' with { type: 'json' };
import { createServiceClient, type ServiceAuth, type ServiceClientOptions } from '../client/client.js';
import { ServiceError } from '../client/errors.js';
import type { DataCenterId } from '../../generated/client.js';
import { isRecord } from '../description/openapi.js';
import { terminalText } from '../output/escape.js';
import { Redactor } from '../output/redact.js';
import { constantsLookupTool, enumerations, guides, lookupConstant } from './knowledge.js';
import type { ToolDefinition } from './tool.js';

export type { ToolAnnotations, ToolDefinition } from './tool.js';

export interface McpServerOptions {
  dataCenter?: DataCenterId | undefined;
  baseUrl?: string | undefined;
  authUrl?: string | undefined;
  auth: ServiceAuth;
  /** Offer the operations that create or change data (POST, PUT, DELETE). Default false: read-only. */
  allowWrites?: boolean | undefined;
  /** Allow plain http to another machine (as the client's `insecure`). */
  insecure?: boolean | undefined;
  /** Custom fetch (tests). */
  fetch?: ServiceClientOptions['fetch'];
}

/** The tools of the description (its resource operations). */
export const operationTools: readonly ToolDefinition[] = generated.tools as ToolDefinition[];

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const failure = (value: string) => ({ ...text(value), isError: true });

/**
 * Text that came from the service, fit for an assistant's terminal: every control character visible (`\e`, `\u009b`),
 * line by line, so that pretty-printed JSON stays JSON (JSON.stringify already escapes the C0 controls of strings;
 * terminalText writes the C1 and bidirectional ones as the same JSON escapes).
 */
const serviceText = (value: string) => value.split('\n').map(terminalText).join('\n');

/** The values of a tool call that go into the path, the query and the body. */
function requestOf(tool: ToolDefinition, input: Record<string, unknown>) {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (name === 'body' || name === 'zaaid') continue;
    if (tool.path.includes(`{${name}}`)) path[name] = value;
    else query[name] = value;
  }
  return { params: { path, query }, ...(input.body === undefined ? {} : { body: input.body }) };
}

/**
 * A check of a tool's input against its schema: undefined when it holds, else what is wrong, in the terms of the
 * tool's arguments: an unknown argument by name (the schema's own message would not name it), a missing one, a wrong
 * type (an ID given as a number would lose digits).
 */
function inputCheck(tool: Pick<ToolDefinition, 'name' | 'inputSchema'>, validator: AjvJsonSchemaValidator) {
  const validate = validator.getValidator(tool.inputSchema);
  const known = Object.keys(tool.inputSchema.properties ?? {});
  return (input: Record<string, unknown>): string | undefined => {
    const unknown = Object.keys(input).filter((name) => !known.includes(name));
    const result = validate(Object.fromEntries(Object.entries(input).filter(([name]) => known.includes(name))));
    const problems = unknown.map((name) => `unknown argument ${JSON.stringify(name)}`);
    // Ajv names the input `data`: `data must have required property 'monitor_id', data/monitor_id must be string`.
    if (!result.valid) problems.push(result.errorMessage.replace(/(^|, )data\//g, '$1').replace(/(^|, )data /g, '$1the input '));
    if (problems.length === 0) return undefined;
    return `Invalid input for ${tool.name}: ${problems.join('; ')}. Its arguments: ${known.join(', ') || 'none'} (see its input schema). The call was not made.`;
  };
}

/** A failed call as the assistant can act on it: status, the service's code and message, and when to try again. */
function failureText(error: ServiceError): string {
  const status = error.status ? `${error.status} ` : '';
  const code = error.code === undefined ? '' : `${error.code} `;
  const wait = error.retryAfterMs === undefined ? '' : ` Try again in ${Math.ceil(error.retryAfterMs / 1000)} s.`;
  return `${status}${code}${error.message}${wait}`;
}

/** What an assistant reads first about the server. */
function instructionsOf(allowWrites: boolean): string {
  return [
    "The Monitoring Service REST API, one tool per operation of its description; each answers with the `data` of the service's envelope, as JSON.",
    allowWrites
      ? 'Writes are allowed: the tools that change data say so in their descriptions.'
      : 'Read-only: the tools that would change data are not offered (the user starts the server with --allow-writes to allow them).',
    'To act on a customer (MSP) or business unit (BU portal), list them with listMspCustomers or listBusinessUnits and pass its `zaaid` to any other tool.',
    'IDs are strings of digits: pass them as strings (as numbers they would lose digits).',
    'A failed call is a tool error reading `<HTTP status> <service code> <message>`, e.g. `404 1002 Monitor does not exist.`.',
    'Codes in the answers (a monitor status, a period, a unit of time...) are explained by the tool lookupConstant and the resources constants://<Enumeration>, without a call; the guides (data centers, tokens, limits...) are the resources guide://<guide>.',
  ].join('\n');
}

/**
 * The MCP server (not yet connected: `await server.connect(transport)`). Throws a TypeError for a wrong option,
 * before anything is served (the client's checks: an address that is not https outside this machine, no credentials).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const auth = options.auth as Partial<Record<string, string>>;
  const redactor = new Redactor([auth.clientId, auth.clientSecret, auth.refreshToken, auth.accessToken]);
  const client = createServiceClient({
    ...(options.dataCenter ? { dataCenter: options.dataCenter } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.authUrl ? { authUrl: options.authUrl } : {}),
    auth: options.auth,
    ...(options.insecure ? { insecure: true } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    // An access token obtained from the refresh token is a secret too, from the moment it exists.
    onTokenRenewed: (token) => redactor.add(token.accessToken),
  });
  const tools = operationTools.filter((tool) => options.allowWrites || !tool.write);
  const validator = new AjvJsonSchemaValidator();
  const checks = new Map([...operationTools, constantsLookupTool].map((tool) => [tool.name, inputCheck(tool, validator)]));
  const server = new Server(
    { name: 'monitoring-service-api', title: 'Monitoring Service API', version: String(bundle.info.version) },
    { capabilities: { tools: {}, resources: {} }, instructions: instructionsOf(options.allowWrites === true) },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools, constantsLookupTool].map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const input = isRecord(request.params.arguments) ? request.params.arguments : {};
    const check = checks.get(request.params.name);
    if (!check) return failure(`There is no tool ${JSON.stringify(terminalText(request.params.name))}: list them with tools/list.`);
    const tool = operationTools.find((candidate) => candidate.name === request.params.name);
    if (tool?.write && !options.allowWrites) {
      return failure(
        `${tool.name} changes data in the account, and this server is read-only: start it with --allow-writes (allowWrites: true) to allow it.`,
      );
    }
    const invalid = check(input);
    if (invalid !== undefined) return failure(terminalText(redactor.text(invalid)));
    if (!tool) return text(lookupConstant(input));
    try {
      // A zaaid given is a zaaid to use: an empty one is refused by the client, not read as "my own account".
      const target = input.zaaid === undefined ? client : client.forAccount(input.zaaid as string);
      // The tools are data (generated/mcp-tools.json), so the typed client's literal paths cannot be checked here.
      const result = await target.request(tool.method.toUpperCase() as 'GET', tool.path as '/monitors', requestOf(tool, input) as never);
      return text(serviceText(redactor.text(JSON.stringify(result.data ?? null, null, 2))));
    } catch (error) {
      const message = ServiceError.is(error) ? failureText(error) : error instanceof Error ? error.message : String(error);
      return failure(terminalText(redactor.text(message)));
    }
  });

  const resources = [...enumerations(), ...guides()];
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: resources.map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = resources.find((candidate) => candidate.uri === request.params.uri);
    if (!resource) throw new Error(`No resource ${request.params.uri}: list them with resources/list.`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.text }] };
  });
  return server;
}
