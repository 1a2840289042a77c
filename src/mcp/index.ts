// monitoring-service-api/mcp: the API as tools for AI assistants (Model Context Protocol), from the contract.
//
//   const server = createMcpServer({ baseUrl, authUrl, auth: { clientId, clientSecret, refreshToken } });
//   await server.connect(new StdioServerTransport());
//
// One tool per resource operation of the description (generated/mcp-tools.json), called through the package's
// client (tokens, data centers, accounts, retries, errors). Read-only unless `allowWrites`: a write operation is
// neither listed nor callable without it. A failed call is a tool error the assistant can read (`404 1002 Monitor
// does not exist.`), never an exception that ends the session. Every enumeration of the description, and every guide,
// is a resource; `lookupConstant` answers what a value means. Secrets never appear in what the server sends.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
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
import { Redactor } from '../output/redact.js';
import { constantsLookupTool, enumerations, guides, lookupConstant } from './knowledge.js';
import type { ToolDefinition } from './tool.js';

export type { ToolDefinition } from './tool.js';

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
 * The MCP server (not yet connected: `await server.connect(transport)`). Throws a TypeError for a wrong option,
 * before anything is served (the client's checks: an address that is not https outside this machine, no credentials).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const client = createServiceClient({
    ...(options.dataCenter ? { dataCenter: options.dataCenter } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.authUrl ? { authUrl: options.authUrl } : {}),
    auth: options.auth,
    ...(options.insecure ? { insecure: true } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth = options.auth as Partial<Record<string, string>>;
  const redactor = new Redactor([auth.clientId, auth.clientSecret, auth.refreshToken, auth.accessToken]);
  const tools = operationTools.filter((tool) => options.allowWrites || !tool.write);
  const server = new Server(
    { name: 'monitoring-service-api', version: String(bundle.info.version) },
    { capabilities: { tools: {}, resources: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools, constantsLookupTool].map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const input = isRecord(request.params.arguments) ? request.params.arguments : {};
    if (request.params.name === constantsLookupTool.name) return text(lookupConstant(input));
    const tool = operationTools.find((candidate) => candidate.name === request.params.name);
    if (!tool) return { ...text(`There is no tool ${JSON.stringify(request.params.name)}.`), isError: true };
    if (tool.write && !options.allowWrites) {
      return {
        ...text(
          `${tool.name} changes data in the account, and this server is read-only: start it with --allow-writes (allowWrites: true) to allow it.`,
        ),
        isError: true,
      };
    }
    try {
      const target = typeof input.zaaid === 'string' && input.zaaid !== '' ? client.forAccount(input.zaaid) : client;
      // The tools are data (generated/mcp-tools.json), so the typed client's literal paths cannot be checked here.
      const result = await target.request(tool.method.toUpperCase() as 'GET', tool.path as '/monitors', requestOf(tool, input) as never);
      return text(redactor.text(JSON.stringify(result.data ?? null, null, 2)));
    } catch (error) {
      // What the assistant can act on: the status, the service's code and its message.
      if (ServiceError.is(error)) {
        const status = error.status ? `${error.status} ` : '';
        const code = error.code === undefined ? '' : `${error.code} `;
        return { ...text(redactor.text(`${status}${code}${error.message}`)), isError: true };
      }
      return { ...text(redactor.text(error instanceof Error ? error.message : String(error))), isError: true };
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
