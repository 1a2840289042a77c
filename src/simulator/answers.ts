// The simulator's answers in the forms the description documents: a named example of an operation's status in its
// media type, the engine's example answer with another body, and the answer of an injected fault.

import { deref, isRecord, type JsonObject, type JsonValue, type OpenApiDocument, operationsById } from '../description/openapi.js';
import type { RouteOperation } from '../description/routes.js';
import { type Answer, errorAnswer } from '../http/exchange.js';
import type { Fault } from './faults.js';

/** The body of an answer, parsed (an engine's example answer); `{}` when it is empty or not an object. */
export const parseBody = (answer: Answer): JsonObject => {
  const value: JsonValue = answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : {};
  return isRecord(value) ? value : {};
};

/** The same answer with another JSON body. */
export const withBody = (answer: Answer, body: unknown): Answer => ({ ...answer, body: Buffer.from(JSON.stringify(body)) });

export interface DocumentedAnswers {
  /** A documented answer of an operation: its status's media type and a named example's value, else `fallback()`. */
  named(operation: RouteOperation, status: number, example: string, fallback: () => Answer): Answer;
  /** The answer of a fault with a status: the operation's documented example of that status, else `{code, message}`. */
  fault(operation: RouteOperation, fault: Fault & { status: number }): Answer;
}

export function documentedAnswers(document: OpenApiDocument): DocumentedAnswers {
  const operations = operationsById(document);

  const named: DocumentedAnswers['named'] = (operation, status, example, fallback) => {
    const response = deref(document, operations.get(operation.operationId)?.responses?.[String(status)]);
    const [mediaType, media] = Object.entries(response?.content ?? {})[0] ?? [];
    const value = deref(document, media?.examples?.[example])?.value;
    if (!mediaType || value === undefined) return fallback();
    return { status, headers: { 'Content-Type': mediaType }, body: Buffer.from(JSON.stringify(value)) };
  };

  return {
    named,
    fault(operation, fault) {
      const [name] = Object.keys(operation.examples[String(fault.status)] ?? {});
      const plain = () => errorAnswer(fault.status, '');
      const answer = name ? named(operation, fault.status, name, plain) : plain();
      const headers: Answer['headers'] = { ...answer.headers, 'X-Mock-Fault': fault.source === 'script' ? 'scripted' : 'random' };
      if (fault.retryAfterS !== undefined) headers['Retry-After'] = String(fault.retryAfterS);
      // The violation header of errorAnswer describes a fault of the request; this one is the mock's own.
      delete headers['sl-violations'];
      return { ...answer, headers };
    },
  };
}
