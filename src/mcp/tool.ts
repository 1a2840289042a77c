// A tool of the MCP server: one operation of the description, as the build writes it (generated/mcp-tools.json).
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import type { Json } from '../description/openapi.js';

/** What a call does to the account, as MCP tool annotations (clients ask the user before a change). */
export interface ToolAnnotations {
  /** The operation's summary. */
  title: string;
  /** A GET: nothing changes. */
  readOnlyHint: boolean;
  /** A write that replaces or removes data (PUT, DELETE); a POST only adds. */
  destructiveHint?: boolean;
  /** A write that has no further effect when repeated with the same input (PUT, DELETE). */
  idempotentHint?: boolean;
  /** True for the operations: each call reaches the service; false for what the server answers itself. */
  openWorldHint: boolean;
}

/** A self-contained JSON Schema of an object: a tool's input, or its structured result. */
export interface ObjectSchema extends JsonSchemaType {
  type: 'object';
  properties: Record<string, JsonSchemaType>;
  required?: string[];
  additionalProperties: false;
}

export interface ToolDefinition {
  /** The operationId. */
  name: string;
  /** The operation's summary. */
  title: string;
  description: string;
  method: string;
  /** The path template relative to the API root. */
  path: string;
  /** Whether the operation creates or changes data (POST, PUT, DELETE). */
  write: boolean;
  annotations: ToolAnnotations;
  /**
   * A JSON Schema of the tool's input: the parameters, the body and an optional zaaid, self-contained; an
   * ObjectSchema, as the build writes it. Typed `Json` as release 2.0 published it (releases/2.0.api.json): the
   * narrower type changes the package's API, which a release decides.
   */
  inputSchema: Json;
  /**
   * A JSON Schema of the tool's structured result, `{ data }`: the `data` of the envelope of the operation's answer,
   * self-contained, without the description's titles, examples and tables.
   */
  outputSchema?: ObjectSchema;
}
