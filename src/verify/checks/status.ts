// The status: one the operation documents (by its code, its class `4XX`, or `default`).
import type { RouteOperation } from '../../description/routes.js';
import type { CheckedAnswer, ContractViolation } from './violation.js';

/** Whether an operation documents a status: the code, its class (`4XX`) or `default`. */
export function documentsStatus(operation: RouteOperation, status: number): string | undefined {
  const code = String(status);
  return (
    operation.statuses.find((key) => key === code) ??
    operation.statuses.find((key) => key.toUpperCase() === `${code[0]}XX`) ??
    operation.statuses.find((key) => key === 'default')
  );
}

export function checkStatus({ operation, status, statusKey }: CheckedAnswer): ContractViolation[] {
  if (statusKey) return [];
  const documented = operation.statuses.join(', ');
  return [{ rule: 'status', message: `status ${status} is not documented for ${operation.operationId} (it documents ${documented})` }];
}
