// Judging one answer of the service against the contract: Prism's validator (the engine in proxy mode, as the
// validating proxy uses it: status, Content-Type, body against the schema), then verify's own reading of what the
// schemas cannot say, one check per part in checks/ (section numbers are the core document's):
// - status.ts: a status the operation does not document is a violation;
// - engine.ts: what Prism's validator found, as violations with JSON pointers;
// - error-shape.ts: an error body of an undocumented status must still be `{code, message}` (section 7);
// - envelope.ts: a success answer's `code`, when present, is 0; an error body's `code` is never 0 (2.1, 7);
// - timestamps.ts: every timestamp, described or not, is `yyyy-MM-dd'T'HH:mm:ssZZZZ` (2.2);
// and the attributes the schema does not describe are listed: allowed (section 9), and worth documenting.

import { deref, isRecord, type OpenApiDocument, type Operation, type SchemaNode } from '../description/openapi.js';
import { compileRoutes, matchRoute, type Route, type RouteOperation } from '../description/routes.js';
import { engineFor } from '../engine/packaged.js';
import type { EngineInput, EngineOutput } from '../engine/prism.js';
import { judgedBody, judgedHeaders } from '../engine/prism.js';
import { sameMediaType } from '../http/exchange.js';
import { engineViolations } from './checks/engine.js';
import { checkEnvelope } from './checks/envelope.js';
import { checkErrorShape, isUndocumentedError } from './checks/error-shape.js';
import { checkStatus, documentsStatus } from './checks/status.js';
import { checkTimestamps } from './checks/timestamps.js';
import type { CheckedAnswer, ContractViolation } from './checks/violation.js';
import { type UndescribedAttribute, undescribedAttributes } from './walk.js';

export type { ContractViolation, ViolationRule } from './checks/violation.js';
export { documentsStatus };

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
  readonly document: OpenApiDocument;
}

/** The schema of a documented answer: its status entry, the media type the Content-Type matches (or the first). */
function responseSchema(
  document: OpenApiDocument,
  operationNode: Operation | undefined,
  statusKey: string | undefined,
  contentType: string | undefined,
): SchemaNode | undefined {
  if (!operationNode || !statusKey || !isRecord(operationNode.responses)) return undefined;
  const entry = operationNode.responses[statusKey];
  const response = isRecord(entry) ? deref(document, entry) : undefined;
  const content = isRecord(response?.content) ? response.content : {};
  const key = (contentType && Object.keys(content).find((mediaType) => sameMediaType(contentType, mediaType))) ?? Object.keys(content)[0];
  const media = key === undefined ? undefined : content[key];
  return isRecord(media) && isRecord(media.schema) ? media.schema : undefined;
}

/** Prism's validator on answers verify received itself, with verify's own checks. Loads Prism's engine once. */
export async function createJudge(description?: OpenApiDocument): Promise<Judge> {
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
  const errorSchema: SchemaNode | undefined = document.components?.schemas?.Error ? { $ref: '#/components/schemas/Error' } : undefined;
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

      const statusKey = documentsStatus(operation, answer.status);
      const checked: CheckedAnswer = {
        operation,
        status: answer.status,
        body,
        statusKey,
        onApi: !operation.template.startsWith('/oauth/'),
      };
      const violations = [
        ...checkStatus(checked),
        ...engineViolations(result.validations.output),
        ...checkErrorShape(checked),
        ...checkEnvelope(checked),
        ...checkTimestamps(checked),
      ];
      // An undocumented error status is judged as the API's Error; otherwise the documented answer's schema.
      const schema = isUndocumentedError(checked)
        ? errorSchema
        : responseSchema(document, document.paths?.[operation.template]?.[operation.method], statusKey, contentType);
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
