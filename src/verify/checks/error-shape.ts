// Section 7 of the core document: every error body of the API is `{code, message}`, documented status or not. An
// undocumented error status has no schema of its own, so the shape is checked here.
import { isRecord } from '../../description/openapi.js';
import { jsonType } from '../walk.js';
import type { CheckedAnswer, ContractViolation } from './violation.js';

/** Whether the answer is an API error of a status the operation does not document (judged as `Error`). */
export const isUndocumentedError = ({ status, statusKey, onApi }: CheckedAnswer) => !statusKey && status >= 400 && onApi;

export function checkErrorShape(answer: CheckedAnswer): ContractViolation[] {
  if (!isUndocumentedError(answer)) return [];
  const { body } = answer;
  if (!isRecord(body)) {
    const found = typeof body === 'string' ? 'text' : jsonType(body);
    return [
      {
        rule: 'error-shape',
        pointer: '',
        message: `an error body is a JSON object with code and message (core document, section 7), not ${found}`,
      },
    ];
  }
  const violations: ContractViolation[] = [];
  if (!('code' in body)) violations.push(missing('code'));
  else if (!Number.isInteger(body.code))
    violations.push({ rule: 'error-shape', pointer: '/code', message: `must be integer (the error code), not ${jsonType(body.code)}` });
  if (!('message' in body)) violations.push(missing('message'));
  else if (typeof body.message !== 'string')
    violations.push({ rule: 'error-shape', pointer: '/message', message: `must be string, not ${jsonType(body.message)}` });
  return violations;
}

const missing = (name: 'code' | 'message'): ContractViolation => ({
  rule: 'error-shape',
  pointer: `/${name}`,
  message: `required attribute "${name}" is missing (an error body is {code, message}, core document section 7)`,
});
