// What each check of an answer gives back, and what it is given: one answer, already parsed, with its operation.
import type { RouteOperation } from '../../description/routes.js';

/** What a violation is about. */
export type ViolationRule = 'status' | 'media-type' | 'schema' | 'error-shape' | 'envelope' | 'timestamp' | 'error-code' | 'security';

export interface ContractViolation {
  rule: ViolationRule;
  /** JSON pointer into the body (`''` is the whole body); absent for the status and the headers. */
  pointer?: string | undefined;
  message: string;
}

/** An answer as the checks see it. */
export interface CheckedAnswer {
  operation: RouteOperation;
  status: number;
  /** The body, parsed when it is JSON. */
  body: unknown;
  /** The key of the operation's responses that documents the status, if any (`404`, `4XX`, `default`). */
  statusKey: string | undefined;
  /** An answer of the API (not of the identity provider, whose bodies are not the API's envelope). */
  onApi: boolean;
}
