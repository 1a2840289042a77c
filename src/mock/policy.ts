// The mock's rules around Prism's engine, for one request:
//
// Before the engine (`before`):
// - unknown paths (404) and methods (405, with Allow) are answered in the contract's error shape;
// - the Authorization header of secured operations: missing, or not `Service-oauthtoken {access_token}`, gives 401
//   naming the fault (the engine only checks that the header is there);
// - an Accept header that allows no JSON, or asks for another API version than the description's, gives 406;
// - the `Prefer` header and the `__code` / `__example` / `__dynamic` query forms (`preferences.ts`): an unknown status or example
//   gives 400 listing what the operation documents, and `code=400` is played on every operation (section 7 of the
//   core document makes 400 the answer to any wrong request; only some operations list it);
// - a query parameter sent empty when its schema cannot be empty (the engine skips those), a body on an operation
//   that takes none, a Content-Encoding (the mock reads plain bodies), a body without Content-Type.
//
// After the engine (`answer`): its refusals (problem details) and the description's 400 example played for an
// invalid request become 4xx `{code, message}` whose message names each violation, e.g.
// `Bad Request: body must have required property 'display_name'`; the violations are also in `sl-violations`.
//
// On the identity provider's operations (outside the API root), a 400 has the identity provider's shape:
// `{code, message, error}`, `error` being `invalid_request` for a request the contract refuses.

import { apiRoot } from '../description/mock-document.js';
import { isRecord, type JsonValue, type OpenApiDocument, type SchemaNode } from '../description/openapi.js';
import { describeOperation, documentedCode, matchRoute, type RouteMatch, type RouteOperation, routesOf } from '../description/routes.js';
import type { EngineError, EngineResult, MockCallConfig } from '../engine/prism.js';
import { refusalViolations, requestViolation, toViolations } from '../engine/translate.js';
import { authorizationPattern } from '../http/authorization.js';
import {
  type Answer,
  type Call,
  errorAnswer,
  headerText,
  isJson,
  quote,
  splitTarget,
  textHeaders,
  type Violation,
  violationsHeader,
} from '../http/exchange.js';
import { parseBody } from '../simulator/answers.js';
import { identityRefusal, malformedRequestError } from '../simulator/identity.js';
import { checkPreferences, readPreferences, SharedBadRequest } from './preferences.js';

/** Violation messages in a sentence: `body must have required property 'display_name'; ...`. */
export function describeViolations(violations: Violation[], contentType?: string): string {
  const messages = violations
    .filter((violation) => violation.severity === 'Error')
    .map((violation) => {
      const message = violation.message.replace(/^Request /, '');
      if (violation.code === 415)
        return `the Content-Type ${quote(contentType ?? '(none)')} is not accepted (${message.charAt(0).toLowerCase()}${message.slice(1)})`;
      return message.charAt(0).toLowerCase() + message.slice(1);
    });
  return [...new Set(messages)].join('; ');
}

/**
 * The bytes of the engine's kept answers (frozen objects it hands out again: src/engine/answers.ts), written once.
 * Nothing writes into an answer's body once made, so the same bytes serve every answer.
 */
const keptBodies = new WeakMap<object, Buffer>();

/** The engine's body for the wire: JSON for JSON media types, text as it is. */
function answerBody(body: unknown, contentType: string | undefined): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string' && !(contentType && isJson(contentType.split(';')[0]!.trim().toLowerCase()))) return Buffer.from(body);
  if (typeof body !== 'object' || !Object.isFrozen(body)) return Buffer.from(JSON.stringify(body));
  let bytes = keptBodies.get(body);
  if (!bytes) keptBodies.set(body, (bytes = Buffer.from(JSON.stringify(body))));
  return bytes;
}

/** The engine's answer as an Answer, with the faults found on the way in `sl-violations`. */
function engineAnswer(result: Extract<EngineResult, { ok: true }>): Answer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.output.headers ?? {})) headers[name] = String(value);
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const violations = [...toViolations('request', result.validations.input), ...toViolations('response', result.validations.output)];
  if (violations.length > 0) headers['sl-violations'] = violationsHeader(violations);
  return { status: result.output.statusCode, headers, body: answerBody(result.output.body, contentType) };
}

export interface MockPolicy {
  /** The route and operation of a call, when a path of the description matches it. */
  match(call: Call): RouteMatch | undefined;
  /** Answers a call itself (a fault, a played answer), or gives the engine's settings for it. */
  before(
    call: Call,
    match: RouteMatch | undefined,
  ): { answer: Answer } | { engine: MockCallConfig; headers: Record<string, string>; preferred: boolean };
  /** What goes back to the client for the engine's result. */
  answer(call: Call, operation: RouteOperation | undefined, result: EngineResult): Answer;
}

/** The version of the description (`info.version`), which the Accept header may ask for. */
function documentedVersion(document: OpenApiDocument): string {
  return String(document.info?.version ?? '');
}

/** Whether an Accept header allows JSON, and the API version it asks for (its `version` parameter). */
function readAccept(value: string): { json: boolean; version?: string | undefined } {
  let json = false;
  let version: string | undefined;
  for (const range of value.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim());
    const lower = type.toLowerCase();
    const q = parameters.find((parameter) => /^q\s*=/i.test(parameter));
    if (q && Number(q.split('=')[1]) === 0) continue;
    if (lower === '*/*' || lower === 'application/*' || isJson(lower)) {
      json = true;
      const asked = parameters.find((parameter) => /^version\s*=/i.test(parameter));
      if (asked) version ??= asked.split('=')[1]!.trim().replace(/^"|"$/g, '');
    }
  }
  return { json, version };
}

/** The rule an empty value breaks, for a query parameter whose schema cannot be empty; undefined when it can. */
function emptyValueRule(schema: SchemaNode): string | undefined {
  const refused =
    (typeof schema.minLength === 'number' && schema.minLength > 0) ||
    (Array.isArray(schema.enum) && !schema.enum.includes('')) ||
    (schema.const !== undefined && schema.const !== '') ||
    (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(''));
  if (!refused) return undefined;
  return Array.isArray(schema.enum)
    ? `must be one of ${schema.enum.join(', ')}`
    : schema.const !== undefined
      ? `must be ${schema.const}`
      : 'must not be empty';
}

/**
 * Prism does not validate a query parameter sent with an empty value (`?client_id=`): the mock refuses one whose
 * schema cannot be empty (minLength, enum, const, pattern).
 */
function checkEmptyQueryValues(call: Call, operation: RouteOperation): Answer | undefined {
  const [, target] = splitTarget(call.url);
  if (target === undefined) return undefined;
  const query = new URLSearchParams(target);
  for (const parameter of operation.parameters.filter((entry) => entry.in === 'query')) {
    for (const value of query.getAll(parameter.name)) {
      if (value !== '') continue;
      const rule = emptyValueRule(parameter.schema);
      if (rule) {
        const detail = `query parameter ${parameter.name} ${rule} (it is empty)`;
        return errorAnswer(400, detail, { violations: [requestViolation(['query', parameter.name], 'empty', detail)] });
      }
    }
  }
  return undefined;
}

/** A 406 for an Accept header that allows no JSON, or asks for another version than the description's. */
function checkAccept(call: Call, version: string): Answer | undefined {
  const accept = headerText(call.headers.accept);
  if (accept === undefined || accept.trim() === '') return undefined;
  const { json, version: asked } = readAccept(accept);
  if (!json) {
    return errorAnswer(
      406,
      `the API answers JSON, and the Accept header ${quote(accept)} does not allow it (send Accept: application/json; version=${version})`,
      { violations: [requestViolation(['header', 'accept'], 406, `Accept ${accept} allows no JSON`)] },
    );
  }
  if (asked !== undefined && asked !== version) {
    return errorAnswer(
      406,
      `the Accept header asks for version=${quote(asked, 20)}; this description documents version ${version} (send Accept: application/json; version=${version})`,
      { violations: [requestViolation(['header', 'accept'], 406, `version ${asked} is not documented`)] },
    );
  }
  return undefined;
}

/** The 404 of a path the description does not have, saying where the API's paths are. */
function unknownPath(call: Call): Answer {
  return errorAnswer(
    404,
    `${call.method} ${quote(call.path, 120)} is not an operation of the API (the API root is /api, the identity provider's paths start with /oauth)`,
    { code: 404, violations: [requestViolation(['path'], 'NO_PATH_MATCHED_ERROR', `no path matches ${call.path}`)] },
  );
}

/** The 405 of a method the path does not document, with the methods it does in `Allow`. */
function methodNotAllowed(call: Call, template: string, allowed: string[]): Answer {
  return errorAnswer(405, `${call.method} is not supported for ${template}; it supports ${allowed.join(', ')}`, {
    code: 405,
    headers: { Allow: allowed.join(', ') },
    violations: [requestViolation(['method'], 'NO_METHOD_MATCHED_ERROR', `${call.method} is not supported for ${template}`)],
  });
}

/**
 * A 401 naming what is wrong with the security headers of a secured operation: the engine only checks that they are
 * there, and the service also wants the `Service-oauthtoken` scheme.
 */
function authorizationFault(call: Call, operation: RouteOperation): Answer | undefined {
  for (const header of operation.securityHeaders) {
    const value = headerText(call.headers[header]);
    const code = documentedCode(operation, 401);
    if (value === undefined) {
      return errorAnswer(401, `the Authorization header is missing: send Authorization: Service-oauthtoken {access_token}`, {
        code,
        violations: [requestViolation(['header', header], 401, `missing ${header} header`)],
      });
    }
    if (header === 'authorization' && !authorizationPattern.test(value)) {
      const shown = value.trim().split(/\s+/)[0] ?? '';
      return errorAnswer(
        401,
        `the Authorization header must be "Service-oauthtoken {access_token}"${shown ? ` (it starts with ${quote(shown, 30)})` : ' (it is empty)'}`,
        { code, violations: [requestViolation(['header', header], 401, 'Authorization is not Service-oauthtoken {access_token}')] },
      );
    }
  }
  return undefined;
}

/** A 400 for a body the mock cannot read: on an operation that takes none, compressed, or without a Content-Type. */
function bodyFault(call: Call, operation: RouteOperation): Answer | undefined {
  if (call.body.length === 0) return undefined;
  if (operation.requestMediaTypes.length === 0) {
    return errorAnswer(400, `${describeOperation(operation)} takes no request body (it has ${call.body.length} bytes)`, {
      violations: [requestViolation(['body'], 'body', 'the operation takes no request body')],
    });
  }
  const encoding = headerText(call.headers['content-encoding']);
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return errorAnswer(400, `Content-Encoding ${quote(encoding)} is not supported: send the body uncompressed`, {
      violations: [requestViolation(['header', 'content-encoding'], 415, `unsupported Content-Encoding ${encoding}`)],
    });
  }
  if (!call.mediaType) {
    return errorAnswer(400, `the body has no Content-Type: send one of ${operation.requestMediaTypes.join(', ')}`, {
      violations: [requestViolation(['header', 'content-type'], 415, 'missing Content-Type')],
    });
  }
  return undefined;
}

/** The call's headers for the engine, without Accept: the engine picks the documented media type (Accept is checked). */
function engineHeaders(call: Call): Record<string, string> {
  return textHeaders(call.headers, 'accept');
}

/** What the mock needs of the description for its rules, read once, and how it plays them. */
interface PolicyContract {
  version: string;
  sharedBadRequest: SharedBadRequest;
  pairedExamples: boolean;
}

/** The mock's checks of a call before the engine, in the order the faults are named; else the engine's settings. */
function before(contract: PolicyContract, call: Call, match: RouteMatch | undefined): ReturnType<MockPolicy['before']> {
  if (!match) return { answer: unknownPath(call) };
  const { route, operation } = match;
  const allowed = [...route.operations.keys()].map((method) => method.toUpperCase());
  if (!operation) return { answer: methodNotAllowed(call, route.template, allowed) };
  const headerFault = authorizationFault(call, operation) ?? checkAccept(call, contract.version);
  if (headerFault) return { answer: headerFault };
  const preferences = checkPreferences(call, operation, contract.sharedBadRequest, contract.pairedExamples);
  if ('status' in preferences) return { answer: preferences };
  const requestFault = checkEmptyQueryValues(call, operation) ?? bodyFault(call, operation);
  if (requestFault) return { answer: requestFault };
  // A call that asks for a documented answer (Prefer, or the query forms) gets it, state or no state.
  const preferred = Object.keys(readPreferences(call) ?? {}).length > 0;
  return { engine: preferences, headers: engineHeaders(call), preferred };
}

/** An answer in the contract's error shape, with the violations (when there are any) in `sl-violations`. */
const contractError = (status: number, detail: string, code: number, violations: Violation[] | undefined) =>
  errorAnswer(status, detail, { code, ...(violations && violations.length > 0 ? { violations } : {}) });

/** The engine's refusal of a call (a problem) as a 4xx in the contract's shape, naming what the engine found. */
function refusalAnswer(call: Call, operation: RouteOperation | undefined, error: EngineError): Answer {
  const type = error.name.replace(/^.*#/, '');
  const validation = refusalViolations(error);
  const detail = error.detail || error.message || 'the mock could not process this request';
  const contentType = headerText(call.headers['content-type']);
  switch (type) {
    case 'UNPROCESSABLE_ENTITY':
      return contractError(400, validation.length > 0 ? describeViolations(validation, contentType) : detail, 400, validation);
    case 'INVALID_CONTENT_TYPE':
      return contractError(400, `the Content-Type ${quote(contentType ?? '(none)')} is not accepted (${detail})`, 400, undefined);
    case 'NO_PATH_MATCHED_ERROR':
      return contractError(404, detail, documentedCode(operation, 404), undefined);
    case 'NO_METHOD_MATCHED_ERROR':
      return contractError(405, detail, 405, undefined);
    case 'NOT_ACCEPTABLE':
      return contractError(
        406,
        `the API answers JSON, and the Accept header ${quote(headerText(call.headers.accept) ?? '')} does not allow it (${detail})`,
        406,
        undefined,
      );
    case 'UNAUTHORIZED':
      return contractError(401, detail, documentedCode(operation, 401), undefined);
    default: {
      // Anything else the engine refused or threw on comes from this request (the mock answers from static
      // examples): a 4xx naming what the engine said.
      const status = error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 404 ? error.status : 400;
      return contractError(status, `the mock could not process this request (${detail})`, status, undefined);
    }
  }
}

/**
 * The engine's answer; when it is the description's own 4xx example, played for an invalid request, the same answer
 * with a message naming the violations (the example's message knows nothing of this request).
 */
function engineResultAnswer(call: Call, result: Extract<EngineResult, { ok: true }>): Answer {
  const answer = engineAnswer(result);
  const errors = toViolations('request', result.validations.input).filter((violation) => violation.severity === 'Error');
  if (answer.status < 400 || answer.status >= 500 || errors.length === 0) return answer;
  let code = answer.status;
  try {
    const body: JsonValue = JSON.parse(answer.body.toString('utf8'));
    if (isRecord(body) && typeof body.code === 'number') code = body.code;
  } catch {
    // not JSON: the status stands for the code
  }
  return contractError(answer.status, describeViolations(errors, headerText(call.headers['content-type'])), code, [
    ...toViolations('request', result.validations.input),
  ]);
}

/**
 * A 400 of the identity provider's operations (outside the API root) in its shape, `error` and all: the mock's
 * refusal of a request its contract refuses is `invalid_request`, or `unsupported_grant_type` for a grant type the
 * token endpoint does not take (RFC 6749, section 5.2). Other answers as they are.
 */
function inOperationShape(call: Call, operation: RouteOperation | undefined, answer: Answer): Answer {
  if (!operation || operation.template.startsWith(`${apiRoot}/`) || answer.status !== 400) return answer;
  let body: ReturnType<typeof parseBody>;
  try {
    body = parseBody(answer);
  } catch {
    return answer; // not JSON: not an error answer of the mock's
  }
  return 'error' in body ? answer : identityRefusal(answer, malformedRequestError(call));
}

/**
 * The mock's rules on a description: what it reads of the description is read once, here. `pairedExamples`: a call
 * whose parameters are a named example's asks for the answer of that name (the examples mode; the simulator answers
 * from its state, whose default holds the same examples).
 */
export function mockPolicy(document: OpenApiDocument, options: { pairedExamples?: boolean } = {}): MockPolicy {
  const routes = routesOf(document);
  const contract: PolicyContract = {
    version: documentedVersion(document),
    sharedBadRequest: new SharedBadRequest(document),
    pairedExamples: options.pairedExamples === true,
  };
  return {
    match: (call) => matchRoute(routes, call.segments, call.method),
    before: (call, match) => {
      const decision = before(contract, call, match);
      return 'answer' in decision ? { answer: inOperationShape(call, match?.operation, decision.answer) } : decision;
    },
    answer: (call, operation, result) =>
      inOperationShape(call, operation, result.ok ? engineResultAnswer(call, result) : refusalAnswer(call, operation, result.error)),
  };
}
