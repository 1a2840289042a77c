// Sections 2.1 and 7 of the core document: a success answer's `code`, when present, is 0; an error body's `code` is
// the error code, never 0.
import { isRecord } from '../../description/openapi.js';
import type { CheckedAnswer, ContractViolation } from './violation.js';

export function checkEnvelope({ status, body, onApi }: CheckedAnswer): ContractViolation[] {
  if (!onApi || !isRecord(body) || typeof body.code !== 'number') return [];
  if (status < 300 && body.code !== 0)
    return [{ rule: 'envelope', pointer: '/code', message: `a success answer's code is 0 (core document, section 2.1), not ${body.code}` }];
  if (status >= 400 && body.code === 0)
    return [
      {
        rule: 'envelope',
        pointer: '/code',
        message: `an error body's code is the error code; 0 means success (core document, sections 2.1 and 7)`,
      },
    ];
  return [];
}
