// Where things live, relative to the repository root, so that every script and test agrees.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const specRoot = path.join(root, 'openapi', 'openapi.yaml');
export const generatedDir = path.join(root, 'generated');
export const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
/** A file of the compiled package, under `dist/src/` (`distFile('bin.js')`). */
export const distFile = (...parts: string[]) => path.join(root, 'dist', 'src', ...parts);

/** The files of the generated/ folder, by role, inside a chosen output folder. */
export function outputs(dir: string = generatedDir) {
  return {
    dir,
    bundleYaml: path.join(dir, 'openapi.yaml'),
    bundleJson: path.join(dir, 'openapi.json'),
    openapi30Json: path.join(dir, 'openapi-3.0.json'),
    openapi30Yaml: path.join(dir, 'openapi-3.0.yaml'),
    dereferencedJson: path.join(dir, 'openapi.dereferenced.json'),
    mockOperations: path.join(dir, 'mock-operations.json'),
    types: path.join(dir, 'types.ts'),
    constants: path.join(dir, 'constants.ts'),
    client: path.join(dir, 'client.ts'),
    zod: path.join(dir, 'zod.ts'),
    mcpTools: path.join(dir, 'mcp-tools.json'),
    seedSchema: path.join(dir, 'seed.schema.json'),
    coverageSchema: path.join(dir, 'coverage.schema.json'),
    docs: path.join(dir, 'docs', 'index.html'),
    referenceMd: path.join(dir, 'docs', 'reference.md'),
    llmsTxt: path.join(dir, 'docs', 'llms.txt'),
    postmanCollection: path.join(dir, 'docs', 'postman', 'collection.json'),
    postmanEnvironment: (id: string) => path.join(dir, 'docs', 'postman', `${id}.postman_environment.json`),
  };
}
