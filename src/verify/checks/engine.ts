// What Prism's validator found in the answer (Content-Type, headers, body against the schema), as violations.

import { pointerToken } from '../../description/openapi.js';
import { type EngineValidation, ruleOf } from '../../engine/prism.js';
import type { ContractViolation } from './violation.js';

/** The engine's errors (severity 0); its status finding is left out, as checkStatus names the statuses itself. */
export function engineViolations(validations: readonly EngineValidation[]): ContractViolation[] {
  return validations.flatMap((validation) => {
    if (validation.severity !== 0 || isStatusFinding(validation)) return [];
    const violation = toViolation(validation);
    return violation ? [violation] : [];
  });
}

const isStatusFinding = (validation: EngineValidation) => /returned status code/i.test(validation.message);

function toViolation(validation: EngineValidation): ContractViolation | undefined {
  const [where, ...rest] = validation.path ?? [];
  if (where === undefined) {
    if (/media type/i.test(validation.message)) return { rule: 'media-type', message: ruleOf(validation.message) };
    return { rule: 'schema', message: ruleOf(validation.message) };
  }
  if (where !== 'body') return { rule: 'schema', message: `${where} ${rest.join('.')}: ${ruleOf(validation.message)}`.replace(/ :/, ':') };
  let pointer = rest
    .map(pointerToken)
    .map((token) => `/${token}`)
    .join('');
  let message = ruleOf(validation.message);
  const missing = /^must have required property '(.+)'$/.exec(message);
  if (missing) {
    pointer = `${pointer}/${pointerToken(missing[1]!)}`;
    message = `required attribute "${missing[1]}" is missing`;
  }
  return { rule: 'schema', pointer, message };
}
