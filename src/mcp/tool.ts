// A tool of the MCP server: one operation of the description, as the build writes it (generated/mcp-tools.json).
import type { Json } from '../description/openapi.js';

export interface ToolDefinition {
  /** The operationId. */
  name: string;
  description: string;
  method: string;
  /** The path template relative to the API root. */
  path: string;
  /** Whether the operation creates or changes data (POST, PUT, DELETE). */
  write: boolean;
  /** A JSON Schema of the tool's input: the parameters, the body and an optional zaaid, self-contained. */
  inputSchema: Json;
}
