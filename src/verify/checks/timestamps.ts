// Section 2.2 of the core document: every timestamp, described by the schema or not, is
// `yyyy-MM-dd'T'HH:mm:ssZZZZ` (an RFC 3339 `+05:30` or `Z` is a violation).
import { misformedTimestamps } from '../walk.js';
import type { CheckedAnswer, ContractViolation } from './violation.js';

export function checkTimestamps({ body }: CheckedAnswer): ContractViolation[] {
  return misformedTimestamps(body).map(({ pointer, value }) => ({
    rule: 'timestamp',
    pointer,
    message: `"${value}" is not a timestamp of the service's form yyyy-MM-dd'T'HH:mm:ssZZZZ, e.g. 2026-11-21T10:00:00+0530 (core document, section 2.2)`,
  }));
}
