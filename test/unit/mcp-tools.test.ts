// The MCP tools' output schemas (scripts/lib/mcp-tools.ts): every successful example answer of the description, as
// the server gives it (`{ data }`), holds against its tool's output schema, with the validator the SDK's client uses;
// and the schema is still the description's, not an empty one that takes anything.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { dereferenced } from '../../scripts/lib/openapi-forms.js';
import { operationTools } from '../../src/mcp/calls.js';
import { type Json, loadBundle, operationsOf } from '../support/bundle.js';

const validator = new AjvJsonSchemaValidator();
const document = dereferenced(loadBundle());

describe('the output schemas of the MCP tools', () => {
  it('accept every successful example answer of the description, as { data }', () => {
    let checked = 0;
    for (const { path, operation } of operationsOf(document).filter(({ path }) => !path.startsWith('/oauth/'))) {
      const tool = operationTools.find((candidate) => candidate.name === operation.operationId)!;
      expect(tool.outputSchema, path).toMatchObject({ type: 'object', additionalProperties: false });
      const validate = validator.getValidator(tool.outputSchema!);
      for (const [status, response] of Object.entries<Json>(operation.responses!)) {
        if (!status.startsWith('2')) continue;
        for (const media of Object.values<Json>(response.content ?? {})) {
          for (const [name, example] of Object.entries<Json>(media.examples ?? {})) {
            const structured = example.value?.data === undefined ? {} : { data: example.value.data };
            expect(validate(structured), `${tool.name} ${status} ${name}`).toMatchObject({ valid: true });
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('refuse what the description rules out: a monitor ID as a number, a list where an object is', () => {
    const schema = (name: string) => validator.getValidator(operationTools.find((tool) => tool.name === name)!.outputSchema!);
    expect(schema('getMonitor')({ data: { monitor_id: 7 } }).valid).toBe(false);
    expect(schema('getMonitor')({ data: [] }).valid).toBe(false);
    expect(schema('listMonitors')({ data: [{ monitor_id: '1' }] }).valid).toBe(true);
    expect(schema('listMonitors')({ data: [{ name: 'no id' }] }).valid).toBe(false);
    expect(schema('listMonitors')({ other: 1 }).valid).toBe(false);
  });
});
