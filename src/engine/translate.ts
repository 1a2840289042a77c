// Between Prism's engine and the HTTP layer that the mock and the proxy share: a call as the engine takes it, and
// what the engine says of it (its validations, its refusals) as violations and answers.

import { type Answer, bodyText, type Call, isJson, type Violation } from '../http/exchange.js';
import type { EngineError, EngineInput, EngineValidation } from './prism.js';

/** A call as the engine takes it: the path and query read, the body parsed (JSON) or as text (anything else). */
export function engineInput(call: Call, headers: Record<string, string>): EngineInput {
  const { pathname, searchParams } = new URL(call.url, 'http://mock.invalid');
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  let body: unknown;
  if (call.body.length > 0) {
    const text = bodyText(call);
    body = call.mediaType && isJson(call.mediaType.type) ? JSON.parse(text) : text;
  }
  return { method: call.method.toLowerCase(), url: { path: pathname, query }, headers, body };
}

const severities = ['Error', 'Warning', 'Information', 'Hint'];

/** The engine's validations as violations located from the request's or the answer's side. */
export function toViolations(side: 'request' | 'response', validations: EngineValidation[]): Violation[] {
  return validations.map((validation) => ({
    location: [side, ...(validation.path ?? [])],
    severity: severities[validation.severity] ?? 'Error',
    code: validation.code,
    message: validation.message,
  }));
}

/**
 * The request's violations that the engine refused a call with (its problem's `additional.validation`), located
 * under `request`; none when the refusal names no violation.
 */
export function refusalViolations(error: EngineError): Violation[] {
  return (error.additional?.validation ?? []).map((entry) => ({
    ...entry,
    severity: entry.severity ?? 'Error',
    location: ['request', ...(entry.location ?? [])],
  }));
}

/** The engine's refusal as Prism's own server gives it: a problem (application/problem+json). */
export function problemAnswer(error: EngineError): Answer {
  const { validation, headers, ...rest } = error.additional ?? {};
  const problem = {
    type: error.name && error.name !== 'Error' ? error.name : 'https://stoplight.io/prism/errors#UNKNOWN',
    title: error.message,
    status: error.status ?? 500,
    detail: error.detail ?? '',
    ...rest,
    ...(validation ? { validation } : {}),
  };
  return {
    status: problem.status,
    headers: { ...headers, 'Content-Type': 'application/problem+json' },
    body: Buffer.from(JSON.stringify(problem)),
  };
}

/** A violation of the request, at `location` under `request`, for the `sl-violations` of a fault the mock names. */
export const requestViolation = (location: string[], code: string | number, message: string): Violation => ({
  location: ['request', ...location],
  severity: 'Error',
  code,
  message,
});
