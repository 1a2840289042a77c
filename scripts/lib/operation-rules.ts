// The operations of the description against a release, judged by the direction data flows: an operation, an
// optional parameter, a response header added pass; a parameter added as required, or made required, breaks the
// clients that do not send it; a status added passes but goes in the release notes (clients meet an answer they may
// not handle). Inline schemas of parameters and request bodies are compared as requests, those of responses and
// response headers as answers (contract-rules.ts). Removals (of an operation, a parameter, a response, a header)
// are `redocly diff`'s to report.
import {
  deref,
  type MediaType,
  type OpenApiDocument,
  operationsOf,
  type Parameter,
  pointerToken as token,
} from '../../src/description/openapi.js';
import type { Change } from './breaking-changes.js';
import { compareSchemas, type Place, verdict } from './contract-rules.js';

const request: Place = { direction: 'request', open: false };
const answer: Place = { direction: 'answer', open: false };

/** The operations of a document by "METHOD path", with the JSON pointer of each. */
function operationsByKey(document: OpenApiDocument) {
  return new Map(
    operationsOf(document).map((entry) => [
      `${entry.method.toUpperCase()} ${entry.path}`,
      { ...entry, pointer: `#/paths/${token(entry.path)}/${entry.method}` },
    ]),
  );
}

type Operation = NonNullable<ReturnType<ReturnType<typeof operationsByKey>['get']>>;

/** The JSON pointer of a parameter: in the operation's own list, or else in its path item's. */
function parameterPointer(document: OpenApiDocument, entry: Operation, parameter: Parameter): string {
  const same = (raw: Parameter) => {
    const resolved = deref(document, raw);
    return resolved?.name === parameter.name && resolved?.in === parameter.in;
  };
  const own = (entry.operation.parameters ?? []).findIndex(same);
  if (own >= 0) return `${entry.pointer}/parameters/${own}`;
  const shared = (document.paths?.[entry.path]?.parameters ?? []).findIndex(same);
  return `#/paths/${token(entry.path)}/parameters/${shared}`;
}

/** optional-parameter-added (passes), required-parameter-added and parameter-became-required (break), each parameter's schema. */
function parameterChanges(document: OpenApiDocument, before: Operation, after: Operation, changes: Change[]): void {
  const was = new Map(before.parameters.map((parameter) => [`${parameter.in} ${parameter.name}`, parameter]));
  for (const parameter of after.parameters) {
    const key = `${parameter.in} ${parameter.name}`;
    const pointer = parameterPointer(document, after, parameter);
    const old = was.get(key);
    if (!old) {
      if (parameter.required === true)
        changes.push(verdict('major', 'required-parameter-added', 'request', pointer, `The ${key} parameter was added as required.`));
      else changes.push(verdict('minor', 'optional-parameter-added', 'request', pointer, `The ${key} parameter was added.`));
      continue;
    }
    if (parameter.required === true && old.required !== true)
      changes.push(verdict('major', 'parameter-became-required', 'request', pointer, `The ${key} parameter became required.`));
    compareSchemas(old.schema, parameter.schema, `${pointer}/schema`, request, changes);
  }
}

/** The schemas of each media type of a content map, compared in one direction. */
function contentChanges(
  before: Record<string, MediaType> | undefined,
  after: Record<string, MediaType> | undefined,
  pointer: string,
  place: Place,
  changes: Change[],
): void {
  for (const [mediaType, media] of Object.entries(after ?? {})) {
    const old = before?.[mediaType];
    if (old) compareSchemas(old.schema, media?.schema, `${pointer}/content/${token(mediaType)}/schema`, place, changes);
  }
}

/** response-added (for the release notes), response-header-added (passes), and the schemas of every answer. */
function responseChanges(
  document: { base: OpenApiDocument; revision: OpenApiDocument },
  before: Operation,
  after: Operation,
  changes: Change[],
): void {
  const was = before.operation.responses ?? {};
  for (const [status, raw] of Object.entries(after.operation.responses ?? {})) {
    const pointer = `${after.pointer}/responses/${token(status)}`;
    const now = deref(document.revision, raw) ?? {};
    if (!Object.hasOwn(was, status)) {
      changes.push(
        verdict(
          'notice',
          'response-added',
          'answer',
          pointer,
          `Status ${status} was documented for ${after.method.toUpperCase()} ${after.path}.`,
        ),
      );
      continue;
    }
    const old = deref(document.base, was[status]) ?? {};
    const headers = old.headers ?? {};
    for (const [name, header] of Object.entries(now.headers ?? {})) {
      const headerPointer = `${pointer}/headers/${token(name)}`;
      if (!Object.hasOwn(headers, name)) {
        changes.push(verdict('minor', 'response-header-added', 'answer', headerPointer, `The ${name} header was added to ${status}.`));
        continue;
      }
      const oldSchema = deref(document.base, headers[name])?.schema;
      compareSchemas(oldSchema, deref(document.revision, header)?.schema, `${headerPointer}/schema`, answer, changes);
    }
    contentChanges(old.content, now.content, pointer, answer, changes);
  }
}

/** Every change of the operations between a release and a revision: additions, requirements, inline schemas. */
export function operationChanges(base: OpenApiDocument, revision: OpenApiDocument): Change[] {
  const changes: Change[] = [];
  const before = operationsByKey(base);
  for (const [key, after] of operationsByKey(revision)) {
    const old = before.get(key);
    if (!old) {
      changes.push(verdict('minor', 'operation-added', 'both', after.pointer, `The operation ${key} was added.`));
      continue;
    }
    parameterChanges(revision, old, after, changes);
    const body = deref(base, old.operation.requestBody);
    contentChanges(body?.content, deref(revision, after.operation.requestBody)?.content, `${after.pointer}/requestBody`, request, changes);
    responseChanges({ base, revision }, old, after, changes);
  }
  return changes;
}
