// The tools' work, shared by every session of a server: one client (so that every session spends the same access
// token, and the identity provider's limit on renewals is counted once), one redaction, the tools with their checks.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { DataCenterId } from '../../generated/client.js';
import generated from '../../generated/mcp-tools.json' with { type: 'json' };
import { createServiceClient, type ServiceAuth, type ServiceClientOptions } from '../client/client.js';
import { isRecord } from '../description/openapi.js';
import { cappedFetch } from '../fetch/capped-body.js';
import { positiveWholeNumber } from '../options.js';
import { terminalText } from '../output/escape.js';
import { Redactor } from '../output/redact.js';
import { constantsLookupTool, lookupConstant } from './knowledge.js';
import { answerResult, defaultMaxAnswerBytes, errorResult, failureResult, type ToolResult, textResult } from './results.js';
import type { ObjectSchema, ToolDefinition } from './tool.js';

export interface McpServerOptions {
  dataCenter?: DataCenterId | undefined;
  baseUrl?: string | undefined;
  authUrl?: string | undefined;
  auth: ServiceAuth;
  /** Offer the operations that create or change data (POST, PUT, DELETE). Default false: read-only. */
  allowWrites?: boolean | undefined;
  /** Allow plain http to another machine (as the client's `insecure`). */
  insecure?: boolean | undefined;
  /** The largest answer read from the service, in bytes; a larger one is a tool error naming it. Default 256 KiB. */
  maxAnswerBytes?: number | undefined;
  /** Custom fetch (tests). */
  fetch?: ServiceClientOptions['fetch'];
}

/**
 * The tools of the description (its resource operations). The build writes them as ToolDefinitions
 * (scripts/lib/mcp-tools.ts); the type TypeScript infers for the JSON (each tool lacking the others' properties as
 * `undefined`) does not say so.
 */
export const operationTools: readonly ToolDefinition[] = generated.tools as unknown as ToolDefinition[];

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

/** A check of a tool's structured result against its output schema, compiled on the tool's first answer. */
function outputCheck(schema: ObjectSchema | undefined, validator: AjvJsonSchemaValidator) {
  let validate: ReturnType<AjvJsonSchemaValidator['getValidator']> | undefined;
  return (structured: Record<string, unknown>): string | undefined => {
    if (schema === undefined) return undefined;
    validate ??= validator.getValidator(schema);
    const result = validate(structured);
    return result.valid ? undefined : result.errorMessage.replace(/(^|, )data\//g, '$1/');
  };
}

/** What the sessions of a server share: the tools offered, and one call of a tool by name. */
export interface ToolCalls {
  readonly allowWrites: boolean;
  readonly tools: readonly (ToolDefinition | typeof constantsLookupTool)[];
  call(name: string, args: unknown): Promise<ToolResult>;
}

/**
 * The tools' work (throws a TypeError for a wrong option, before anything is served: the client's checks, an address
 * that is not https outside this machine, no credentials, a bound that is not a whole number above zero).
 */
export function createToolCalls(options: McpServerOptions): ToolCalls {
  const maxAnswerBytes = positiveWholeNumber('maxAnswerBytes', options.maxAnswerBytes, defaultMaxAnswerBytes);
  const auth = options.auth as Partial<Record<string, string>>;
  const redactor = new Redactor([auth.clientId, auth.clientSecret, auth.refreshToken, auth.accessToken]);
  const client = createServiceClient({
    ...(options.dataCenter ? { dataCenter: options.dataCenter } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.authUrl ? { authUrl: options.authUrl } : {}),
    auth: options.auth,
    ...(options.insecure ? { insecure: true } : {}),
    // Every answer is read up to the bound, and no further: a huge answer never reaches memory.
    fetch: cappedFetch(options.fetch ?? ((request) => fetch(request)), maxAnswerBytes),
    // An access token obtained from the refresh token is a secret too, from the moment it exists.
    onTokenRenewed: (token) => redactor.add(token.accessToken),
  });
  const allowWrites = options.allowWrites === true;
  const validator = new AjvJsonSchemaValidator();
  const checks = new Map([...operationTools, constantsLookupTool].map((tool) => [tool.name, inputCheck(tool, validator)]));
  const outputs = new Map(operationTools.map((tool) => [tool.name, outputCheck(tool.outputSchema, validator)]));

  async function call(name: string, args: unknown): Promise<ToolResult> {
    const input = isRecord(args) ? args : {};
    const check = checks.get(name);
    if (!check) return errorResult(`There is no tool ${JSON.stringify(terminalText(name.slice(0, 100)))}: list them with tools/list.`);
    const tool = operationTools.find((candidate) => candidate.name === name);
    if (tool?.write && !allowWrites) {
      return errorResult(
        `${tool.name} changes data in the account, and this server is read-only: start it with --allow-writes (allowWrites: true) to allow it.`,
      );
    }
    const invalid = check(input);
    if (invalid !== undefined) return errorResult(terminalText(redactor.text(invalid)));
    if (!tool) return textResult(lookupConstant(input));
    try {
      // A zaaid given is a zaaid to use: an empty one is refused by the client, not read as "my own account".
      const target = input.zaaid === undefined ? client : client.forAccount(input.zaaid as string);
      // The tools are data (generated/mcp-tools.json), so the typed client's literal paths cannot be checked here.
      const result = await target.request(tool.method.toUpperCase() as 'GET', tool.path as '/monitors', requestOf(tool, input) as never);
      return answerResult(tool.name, result.response.status, result.data, redactor, outputs.get(tool.name)!, maxAnswerBytes);
    } catch (error) {
      return failureResult(tool.name, error, redactor);
    }
  }

  const tools = [...operationTools.filter((tool) => allowWrites || !tool.write), constantsLookupTool];
  return { allowWrites, tools, call };
}
