// The bundled description, as the tests read it.
import { readFileSync } from 'node:fs';
import { outputs } from '../../scripts/lib/paths.js';

export type Json = Record<string, any>;

export function loadBundle(): Json {
  return JSON.parse(readFileSync(outputs().bundleJson, 'utf8'));
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of a document, with its path and method. */
export function operationsOf(document: Json): { path: string; method: string; operation: Json }[] {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    httpMethods.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] })),
  );
}
