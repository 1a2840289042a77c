// What the mock's front does around Prism (see front.ts for the plumbing):
//
// - answers unknown paths (404) and methods (405, with Allow) itself, in the contract's error shape;
// - checks the Authorization header of secured operations: missing, or not `Service-oauthtoken {access_token}`,
//   gives 401 naming the fault (Prism only checks that the header is there);
// - checks the `Prefer` header and the `__code` / `__example` query forms before Prism sees them: an unknown
//   status or example gives 400 listing what the operation documents, and `code=400` is played on every
//   operation (section 7 of the core document makes 400 the answer to any wrong request; only some operations
//   list it);
// - refuses a query parameter sent empty when its schema cannot be empty (Prism skips those);
// - refuses a body on an operation that takes none, and a Content-Encoding (the mock reads plain bodies);
// - rewrites Prism's own answers to a bad request (422 problem+json, or the operation's 400 example with the
//   violations only in `sl-violations`) into 400 `{code, message}` whose message lists the violations, e.g.
//   `Bad Request: body must have required property 'display_name'`. The `sl-violations` header is kept.
import type { Answer, Call, FrontPolicy, Violation } from './front.js';
import { errorAnswer, quote, statusTitles } from './front.js';
import { compileRoutes, matchRoute, type RouteOperation } from './mock-routes.js';
import { deref, type Json } from './openapi.js';

/** The Authorization header of the ServiceOAuthToken scheme: the word `Service-oauthtoken`, a space, a token. */
export const authorizationPattern = /^Service-oauthtoken +[^\s]+$/i;

export interface Preferences {
  code?: string;
  example?: string;
  dynamic?: string;
}

/** The preferences Prism reads, from the `Prefer` header and the `__code`/`__example`/`__dynamic` query forms. */
export function readPreferences(call: Pick<Call, 'headers' | 'url'>): Preferences {
  const preferences: Preferences = {};
  const header = call.headers.prefer;
  for (const value of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
    for (const part of value.split(/[,;]/)) {
      const match = /^\s*([A-Za-z_-]+)\s*(?:=\s*"?([^"]*)"?)?\s*$/.exec(part);
      if (!match) continue;
      const key = match[1]!.toLowerCase();
      if (key === 'code' || key === 'example' || key === 'dynamic') preferences[key] = (match[2] ?? '').trim();
    }
  }
  const query = call.url.includes('?') ? new URLSearchParams(call.url.slice(call.url.indexOf('?') + 1)) : undefined;
  for (const key of ['code', 'example', 'dynamic'] as const) {
    const value = query?.get(`__${key}`);
    if (value !== null && value !== undefined) preferences[key] = value;
  }
  return preferences;
}

function prismViolations(header: unknown): Violation[] {
  if (typeof header !== 'string') return [];
  try {
    const parsed = JSON.parse(header);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** Prism's violation messages, in a sentence: `body must have required property 'display_name'; ...`. */
export function describeViolations(violations: Violation[], contentType?: string): string {
  const messages = violations
    .filter((violation) => violation.severity === 'Error')
    .map((violation) => {
      const message = violation.message.replace(/^Request /, '');
      if (violation.code === 415) return `the Content-Type ${quote(contentType ?? '(none)')} is not accepted (${message.charAt(0).toLowerCase()}${message.slice(1)})`;
      return message.charAt(0).toLowerCase() + message.slice(1);
    });
  return [...new Set(messages)].join('; ');
}

/** A header of an answer, whatever the case of its name. */
export function headerOf(answer: Answer, name: string): string | undefined {
  const entry = Object.entries(answer.headers).find(([key]) => key.toLowerCase() === name);
  return entry === undefined ? undefined : Array.isArray(entry[1]) ? entry[1].join(', ') : String(entry[1]);
}

/**
 * Prism does not validate a query parameter sent with an empty value (`?client_id=`): the front refuses one
 * whose schema cannot be empty (minLength, enum, const, pattern).
 */
function checkEmptyQueryValues(call: Call, operation: RouteOperation): Answer | undefined {
  if (!call.url.includes('?')) return undefined;
  const query = new URLSearchParams(call.url.slice(call.url.indexOf('?') + 1));
  for (const parameter of operation.parameters.filter((entry) => entry.in === 'query')) {
    for (const value of query.getAll(parameter.name)) {
      if (value !== '') continue;
      const schema = parameter.schema;
      const refused =
        (typeof schema.minLength === 'number' && schema.minLength > 0) ||
        (Array.isArray(schema.enum) && !schema.enum.includes('')) ||
        (schema.const !== undefined && schema.const !== '') ||
        (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(''));
      if (refused) {
        const rule = Array.isArray(schema.enum) ? `must be one of ${schema.enum.join(', ')}` : schema.const !== undefined ? `must be ${schema.const}` : 'must not be empty';
        const detail = `query parameter ${parameter.name} ${rule} (it is empty)`;
        return errorAnswer(400, detail, { violations: [{ location: ['request', 'query', parameter.name], severity: 'Error', code: 'empty', message: detail }] });
      }
    }
  }
  return undefined;
}

const describeOperation = (operation: RouteOperation) => `${operation.method.toUpperCase()} ${operation.template}`;

export function mockPolicy(document: Json): FrontPolicy {
  const routes = compileRoutes(document);
  const badRequestExample = (Object.values<Json>(deref(document, document.components?.responses?.BadRequest)?.content ?? {})[0]?.examples ?? {}) as Json;
  const sharedBadRequest: Json = deref(document, Object.values<Json>(badRequestExample)[0])?.value ?? { code: 400, message: statusTitles[400] };

  /** The code of the operation's documented example for a status, for the front's own answers. */
  const exampleCode = (operation: RouteOperation | undefined, status: number): number => {
    const example = Object.values(operation?.examples[String(status)] ?? {})[0] as Json | undefined;
    return typeof example?.code === 'number' ? example.code : status;
  };

  const checkPreferences = (call: Call, operation: RouteOperation): Answer | undefined => {
    const preferences = readPreferences(call);
    const documented = operation.statuses.filter((status) => /^\d{3}$/.test(status));
    const listing = `${describeOperation(operation)} documents ${documented.join(', ')}${documented.includes('400') ? '' : ', and the mock plays 400 on every operation'}`;
    const fault = (detail: string) =>
      errorAnswer(400, detail, { violations: [{ location: ['request', 'header', 'prefer'], severity: 'Error', code: 'prefer', message: detail }] });
    let status: string | undefined;
    if (preferences.dynamic !== undefined && !/^(true|false)$/.test(preferences.dynamic)) {
      return fault(`Prefer dynamic=${quote(preferences.dynamic)} must be true or false`);
    }
    if (preferences.code !== undefined) {
      if (!/^[1-5]\d\d$/.test(preferences.code)) return fault(`Prefer code=${quote(preferences.code)} is not an HTTP status (${listing})`);
      if (!operation.statuses.includes(preferences.code) && preferences.code !== '400') {
        return fault(`the mock cannot play Prefer code=${preferences.code}: ${listing}`);
      }
      status = preferences.code;
    }
    if (preferences.example !== undefined) {
      const lookIn = status ?? documented.find((code) => code.startsWith('2'));
      const names = lookIn ? Object.keys(operation.examples[lookIn] ?? {}) : [];
      const playingShared = lookIn === '400' && !operation.statuses.includes('400');
      const sharedNames = playingShared ? Object.keys(badRequestExample) : [];
      if (!names.includes(preferences.example) && !sharedNames.includes(preferences.example)) {
        const elsewhere = documented.find((code) => Object.keys(operation.examples[code] ?? {}).includes(preferences.example!));
        const all = documented
          .filter((code) => Object.keys(operation.examples[code] ?? {}).length > 0)
          .map((code) => `${code}: ${Object.keys(operation.examples[code]!).join(', ')}`)
          .join('; ');
        const hint = elsewhere ? ` (it is an example of ${elsewhere}: send Prefer: code=${elsewhere}, example=${preferences.example})` : '';
        return fault(`Prefer example=${quote(preferences.example)} is not an example of status ${lookIn ?? '(none)'} of ${describeOperation(operation)}${hint}; its examples are ${all || 'none'}`);
      }
    }
    if (status === '400' && !operation.statuses.includes('400')) {
      // The operation does not list 400: the front plays the shared Bad Request example itself.
      const value = preferences.example ? (deref(document, badRequestExample[preferences.example])?.value ?? sharedBadRequest) : sharedBadRequest;
      const answer = errorAnswer(400, '', { violations: [] });
      return { ...answer, headers: { ...answer.headers, 'sl-violations': '[]' }, body: Buffer.from(JSON.stringify(value)) };
    }
    return undefined;
  };

  return {
    before(call) {
      const match = matchRoute(routes, call.segments, call.method);
      if (!match) {
        return errorAnswer(404, `${call.method} ${quote(call.path, 120)} is not an operation of the API (the API root is /api, the identity provider's paths start with /oauth)`, {
          code: 404,
          violations: [{ location: ['request', 'path'], severity: 'Error', code: 'NO_PATH_MATCHED_ERROR', message: `no path matches ${call.path}` }],
        });
      }
      const { route, operation } = match;
      if (!operation) {
        const preflight = call.method === 'OPTIONS' && call.headers['access-control-request-method'] !== undefined;
        if (preflight) return undefined; // Prism answers CORS preflights.
        const allowed = [...route.operations.keys()].map((method) => method.toUpperCase());
        return errorAnswer(405, `${call.method} is not supported for ${route.template}; it supports ${allowed.join(', ')}`, {
          code: 405,
          headers: { Allow: allowed.join(', ') },
          violations: [{ location: ['request', 'method'], severity: 'Error', code: 'NO_METHOD_MATCHED_ERROR', message: `${call.method} is not supported for ${route.template}` }],
        });
      }
      for (const header of operation.securityHeaders) {
        const value = call.headers[header];
        const code = exampleCode(operation, 401);
        if (value === undefined) {
          return errorAnswer(401, `the Authorization header is missing: send Authorization: Service-oauthtoken {access_token}`, {
            code,
            violations: [{ location: ['request', 'header', header], severity: 'Error', code: 401, message: `missing ${header} header` }],
          });
        }
        if (header === 'authorization' && !authorizationPattern.test(String(value))) {
          const shown = String(value).trim().split(/\s+/)[0] ?? '';
          return errorAnswer(401, `the Authorization header must be "Service-oauthtoken {access_token}"${shown ? ` (it starts with ${quote(shown, 30)})` : ' (it is empty)'}`, {
            code,
            violations: [{ location: ['request', 'header', header], severity: 'Error', code: 401, message: 'Authorization is not Service-oauthtoken {access_token}' }],
          });
        }
      }
      const preferenceFault = checkPreferences(call, operation);
      if (preferenceFault) return preferenceFault;
      const emptyFault = checkEmptyQueryValues(call, operation);
      if (emptyFault) return emptyFault;
      if (call.body.length > 0) {
        if (operation.requestMediaTypes.length === 0) {
          return errorAnswer(400, `${describeOperation(operation)} takes no request body (it has ${call.body.length} bytes)`, {
            violations: [{ location: ['request', 'body'], severity: 'Error', code: 'body', message: 'the operation takes no request body' }],
          });
        }
        const encoding = call.headers['content-encoding'];
        if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
          return errorAnswer(400, `Content-Encoding ${quote(encoding)} is not supported: send the body uncompressed`, {
            violations: [{ location: ['request', 'header', 'content-encoding'], severity: 'Error', code: 415, message: `unsupported Content-Encoding ${encoding}` }],
          });
        }
        if (!call.mediaType) {
          return errorAnswer(400, `the body has no Content-Type: send one of ${operation.requestMediaTypes.join(', ')}`, {
            violations: [{ location: ['request', 'header', 'content-type'], severity: 'Error', code: 415, message: 'missing Content-Type' }],
          });
        }
      }
      return undefined;
    },

    after(call, answer) {
      const contentType = String(headerOf(answer, 'content-type') ?? '');
      const match = matchRoute(routes, call.segments, call.method);
      const operation = match?.operation;
      const keep = (status: number, detail: string, code = status) => {
        const rewritten = errorAnswer(status, detail, { code });
        // Keep Prism's sl-violations (and its other headers) when it sent them.
        const violations = headerOf(answer, 'sl-violations');
        return { ...rewritten, headers: { ...rewritten.headers, ...(violations ? { 'sl-violations': violations } : {}) } };
      };
      if (contentType.startsWith('application/problem+json')) {
        let problem: Json = {};
        try {
          problem = JSON.parse(answer.body.toString('utf8'));
        } catch {
          // An unreadable problem: answered below with what is known.
        }
        const type = String(problem.type ?? '').replace(/^.*#/, '');
        const validation: Violation[] = Array.isArray(problem.validation) ? problem.validation : [];
        const detail = String(problem.detail ?? problem.title ?? 'the mock could not process this request');
        switch (type) {
          case 'UNPROCESSABLE_ENTITY':
            return keep(400, validation.length > 0 ? describeViolations(validation, call.headers['content-type']) : detail);
          case 'NO_PATH_MATCHED_ERROR':
            return keep(404, detail, exampleCode(operation, 404));
          case 'NO_METHOD_MATCHED_ERROR':
            return keep(405, detail, 405);
          case 'NOT_ACCEPTABLE':
            return keep(406, `the API answers application/json, and the Accept header ${quote(String(call.headers.accept ?? ''))} does not allow it (${detail})`);
          case 'UNAUTHORIZED':
            return keep(401, detail, exampleCode(operation, 401));
          default:
            // Prism's other problems (an unplayable preference, a failure to build an answer) come from the
            // request in a mock with static examples: a 4xx naming what Prism said.
            return keep(answer.status >= 400 && answer.status < 500 && answer.status !== 404 ? answer.status : 400, detail);
        }
      }
      if (answer.status >= 400) {
        let body: Json | undefined;
        try {
          body = answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : undefined;
        } catch {
          body = undefined;
        }
        // Prism's body parser answers {"error": {"code": "invalid_json", ...}} (400) or 500 on what it cannot read.
        if (body && typeof body.error === 'object' && body.error && typeof body.error.code === 'string') {
          return keep(400, `the mock could not read this request (${body.error.code}: ${body.error.message})`);
        }
        const violations = prismViolations(headerOf(answer, 'sl-violations'));
        const errors = violations.filter((violation) => violation.severity === 'Error');
        if (answer.status < 500 && errors.length > 0) {
          const code = typeof body?.code === 'number' ? body.code : answer.status;
          return keep(answer.status, describeViolations(errors, call.headers['content-type']), code);
        }
      }
      return answer;
    },
  };
}
