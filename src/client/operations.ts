// The operationId of every documented path and method (generated from the description), for errors and results.
import { operationIds } from '../../generated/client.js';
import type { paths } from '../../generated/types.js';
import type { OperationInfo } from './errors.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The methods a path of the description documents. */
export type MethodsOf<Path extends keyof paths> = {
  [M in HttpMethod]: paths[Path] extends { [K in M]: object } ? M : never;
}[HttpMethod];

export { operationIds };

/** Method, path template and operationId of a call. */
export function operationInfo(method: string, path: string): OperationInfo {
  const byMethod = (operationIds as Record<string, Record<string, string> | undefined>)[path];
  const operationId = byMethod?.[method.toLowerCase()];
  return { method: method.toUpperCase(), path, ...(operationId ? { operationId } : {}) };
}
