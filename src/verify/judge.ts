// Judging one answer of the service against the contract: Prism's validator (the engine in proxy mode, as the
// validating proxy uses it: status, Content-Type, body against the schema), then verify's own reading of what the
// schemas cannot say (section numbers are the core document's):
// - a status the operation does not document is a violation, and an error body of such a status must still have
//   the error shape `{code, message}` (section 7);
// - a success answer's `code`, when present, is 0; an error body's `code` is the error code, never 0 (2.1, 7);
// - every timestamp, described or not, is `yyyy-MM-dd'T'HH:mm:ssZZZZ` (2.2);
// - the attributes the schema does not describe are listed: allowed (section 9), and worth documenting.
import type { EngineInput, EngineOutput, EngineValidation } from '../engine/prism.js';
import { judgedBody, judgedHeaders, ruleOf } from '../engine/prism.js';
import { engineFor } from '../engine/packaged.js';
import { sameMediaType } from '../http/exchange.js';
import { deref, isRecord, pointerToken, type Json } from '../description/openapi.js';
import { compileRoutes, matchRoute, type Route, type RouteOperation } from '../description/routes.js';
import { jsonType, misformedTimestamps, undescribedAttributes, type UndescribedAttribute } from './walk.js';

/** What a violation is about. */
export type ViolationRule = 'status' | 'media-type' | 'schema' | 'error-shape' | 'envelope' | 'timestamp' | 'error-code' | 'security';

export interface ContractViolation {
  rule: ViolationRule;
  /** JSON pointer into the body (`''` is the whole body); absent for the status and the headers. */
  pointer?: string | undefined;
  message: string;
}

export interface AnswerToJudge {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
}

export interface RequestToJudge {
  method: string;
  /** The path of the mock document's shape: `/api/monitors/1`, `/oauth/v2/token`. */
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  /** A JSON or form body, parsed. */
  body?: unknown;
}

export interface Judgement {
  violations: ContractViolation[];
  undescribed: UndescribedAttribute[];
  /** Whether the operation documents the status. */
  documentedStatus: boolean;
  /** The body, parsed when it is JSON. */
  body: unknown;
}

export interface Judge {
  /** The operation of the contract a method and path (mock document's shape) reach. */
  operation(method: string, path: string): RouteOperation | undefined;
  judge(request: RequestToJudge, answer: AnswerToJudge): Promise<Judgement>;
  /** The mock document (resource paths under /api). */
  readonly document: Json;
}

/** Whether an operation documents a status: the code, its class (`4XX`) or `default`. */
export function documentsStatus(operation: RouteOperation, status: number): string | undefined {
  const code = String(status);
  return (
    operation.statuses.find((key) => key === code) ??
    operation.statuses.find((key) => key.toUpperCase() === `${code[0]}XX`) ??
    operation.statuses.find((key) => key === 'default')
  );
}

function toViolation(validation: EngineValidation): ContractViolation | undefined {
  const [where, ...rest] = validation.path ?? [];
  // The status check is verify's own (documentsStatus): it names the operation's statuses itself.
  if (/returned status code/i.test(validation.message)) return undefined;
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

/** The schema of a documented answer: its status entry, the media type the Content-Type matches (or the first). */
function responseSchema(
  document: Json,
  operationNode: Json | undefined,
  statusKey: string | undefined,
  contentType: string | undefined,
): Json | undefined {
  if (!operationNode || !statusKey) return undefined;
  const response = deref(document, operationNode.responses?.[statusKey]);
  const content: Record<string, Json> = response?.content ?? {};
  const key = (contentType && Object.keys(content).find((mediaType) => sameMediaType(contentType, mediaType))) ?? Object.keys(content)[0];
  return key ? content[key]?.schema : undefined;
}

/** Prism's validator on answers verify received itself, with verify's own checks. Loads Prism's engine once. */
export async function createJudge(description?: Json): Promise<Judge> {
  const answers = new WeakMap<EngineInput, EngineOutput>();
  const prepared = engineFor(description, {
    kind: 'proxy',
    upstream: 'http://verify.invalid',
    errors: false,
    // The engine "forwards" to the answer verify already has: it then validates that answer.
    forward: async (input, operation) => {
      const output = answers.get(input);
      if (!output) throw { name: 'VERIFY_LOST_ANSWER', message: 'verify lost the answer it was judging', status: 500 };
      return { ...output, headers: judgedHeaders(operation, output.statusCode, output.headers ?? {}) };
    },
  });
  const { document } = prepared;
  const routes: Route[] = compileRoutes(document);
  const engine = await prepared.engine;
  const errorSchema: Json | undefined = document.components?.schemas?.Error ? { $ref: '#/components/schemas/Error' } : undefined;
  const operationOf = (method: string, path: string) =>
    matchRoute(
      routes,
      path
        .split('/')
        .slice(1)
        .map((segment) => decodeURIComponent(segment)),
      method,
    )?.operation;

  return {
    document,
    operation: operationOf,
    async judge(request, answer) {
      const operation = operationOf(request.method, request.path);
      if (!operation) throw new Error(`verify judged ${request.method} ${request.path}, which is no operation of the contract`);
      const contentType = answer.headers['content-type'];
      const body = judgedBody(contentType, answer.status, answer.text);
      const headers: Record<string, string> = {};
      // The engine checks only that the credential is there: it never needs the token itself.
      for (const [name, value] of Object.entries(request.headers))
        headers[name.toLowerCase()] = name.toLowerCase() === 'authorization' ? 'Service-oauthtoken verify' : value;
      const input: EngineInput = {
        method: request.method.toLowerCase(),
        url: { path: request.path, query: request.query ?? {} },
        headers,
        body: request.body,
      };
      answers.set(input, { statusCode: answer.status, headers: answer.headers, body });
      const result = await engine.request(input);
      if (!result.ok)
        throw new Error(`Prism's engine could not judge ${request.method} ${request.path}: ${result.error.detail || result.error.message}`);

      const violations: ContractViolation[] = [];
      const statusKey = documentsStatus(operation, answer.status);
      if (!statusKey) {
        const documented = operation.statuses.join(', ');
        violations.push({
          rule: 'status',
          message: `status ${answer.status} is not documented for ${operation.operationId} (it documents ${documented})`,
        });
      }
      for (const validation of result.validations.output) {
        if (validation.severity !== 0 && !/returned status code/i.test(validation.message)) continue;
        const violation = toViolation(validation);
        if (violation) violations.push(violation);
      }
      const isError = answer.status >= 400;
      const onApi = !operation.template.startsWith('/oauth/');
      let schema = responseSchema(document, document.paths?.[operation.template]?.[operation.method], statusKey, contentType);
      if (!statusKey && isError && onApi) {
        // Section 7: every error body is `{code, message}`, documented status or not.
        schema = errorSchema;
        if (!isRecord(body)) {
          violations.push({
            rule: 'error-shape',
            pointer: '',
            message: `an error body is a JSON object with code and message (core document, section 7), not ${typeof body === 'string' ? 'text' : jsonType(body)}`,
          });
        } else {
          if (!('code' in body))
            violations.push({
              rule: 'error-shape',
              pointer: '/code',
              message: 'required attribute "code" is missing (an error body is {code, message}, core document section 7)',
            });
          else if (!Number.isInteger(body.code))
            violations.push({
              rule: 'error-shape',
              pointer: '/code',
              message: `must be integer (the error code), not ${jsonType(body.code)}`,
            });
          if (!('message' in body))
            violations.push({
              rule: 'error-shape',
              pointer: '/message',
              message: 'required attribute "message" is missing (an error body is {code, message}, core document section 7)',
            });
          else if (typeof body.message !== 'string')
            violations.push({ rule: 'error-shape', pointer: '/message', message: `must be string, not ${jsonType(body.message)}` });
        }
      }
      if (onApi && isRecord(body) && typeof body.code === 'number') {
        if (answer.status < 300 && body.code !== 0) {
          violations.push({
            rule: 'envelope',
            pointer: '/code',
            message: `a success answer's code is 0 (core document, section 2.1), not ${body.code}`,
          });
        }
        if (isError && body.code === 0) {
          violations.push({
            rule: 'envelope',
            pointer: '/code',
            message: `an error body's code is the error code; 0 means success (core document, sections 2.1 and 7)`,
          });
        }
      }
      for (const { pointer, value } of misformedTimestamps(body)) {
        violations.push({
          rule: 'timestamp',
          pointer,
          message: `"${value}" is not a timestamp of the service's form yyyy-MM-dd'T'HH:mm:ssZZZZ, e.g. 2026-11-21T10:00:00+0530 (core document, section 2.2)`,
        });
      }
      const undescribed = typeof body === 'object' && body !== null ? undescribedAttributes(document, schema, body) : [];
      return { violations: dedupe(violations), undescribed, documentedStatus: statusKey !== undefined, body };
    },
  };
}

function dedupe(violations: ContractViolation[]): ContractViolation[] {
  const seen = new Set<string>();
  return violations.filter((violation) => {
    const key = `${violation.rule}\u0000${violation.pointer ?? ''}\u0000${violation.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
