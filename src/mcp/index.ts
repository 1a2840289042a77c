// monitoring-service-api/mcp: the API as tools for AI assistants (Model Context Protocol), from the contract.
//
//   const server = createMcpServer({ baseUrl, authUrl, auth: { clientId, clientSecret, refreshToken } });
//   await server.connect(new StdioServerTransport());
//
//   const running = await startMcpHttpServer({ baseUrl, authUrl, auth, token: process.env.MCP_HTTP_TOKEN! });
//
// One tool per resource operation of the description (generated/mcp-tools.json), called through the package's
// client (tokens, data centers, accounts, retries, errors). Read-only unless `allowWrites`: a write operation is
// neither listed nor callable without it. A tool's input is checked against its schema before any request; its
// answer is structured content of its output schema and the same JSON in a text. A failed call is a tool error the
// assistant can read (status, the service's code and message), never an exception that ends the session. What the
// service wrote reaches the assistant quoted as data, cut at a bound, and an answer larger than `maxAnswerBytes` is
// not read past it. Every enumeration of the description, and every guide, is a resource; `lookupConstant` answers
// what a value means. Secrets never appear in what the server sends. Over Streamable HTTP (`startMcpHttpServer`),
// every request needs the operator's bearer token, and pages of other origins and foreign Host names are refused.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createToolCalls, type McpServerOptions } from './calls.js';
import { serverFor } from './server.js';

export { type McpServerOptions, operationTools } from './calls.js';
export { type McpHttpOptions, type RunningMcpHttpServer, startMcpHttpServer } from './http.js';
export type { ObjectSchema, ToolAnnotations, ToolDefinition } from './tool.js';

/**
 * The MCP server (not yet connected: `await server.connect(transport)`). Throws a TypeError for a wrong option,
 * before anything is served (the client's checks: an address that is not https outside this machine, no credentials).
 */
export function createMcpServer(options: McpServerOptions): Server {
  return serverFor(createToolCalls(options));
}
