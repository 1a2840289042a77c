// The client's opt-in check of successful answers against the contract (`validate`). The schemas come by value,
// from the caller's own import (`validate: answerSchema` of `monitoring-service-api/zod`): a bundler then carries
// zod and the generated schemas only into an app that imports them, and builds an app without zod installed.
import { packagedSchemas } from '#packaged-schemas';
import { OptionError, option, wording } from '../options.js';
import { type OperationInfo, ServiceError } from './errors.js';

/** One rule an answer broke, as zod 4 reports it. */
export interface AnswerIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code: string;
}

/** A schema of an answer's body: what `safeParse` of a zod 4 schema gives is enough. */
export interface AnswerSchema {
  safeParse(body: unknown): { success: true } | { success: false; error: { issues: readonly AnswerIssue[] } };
}

/**
 * The schemas of the answers, by operationId and status (undefined: nothing to check against):
 * `answerSchema` of `monitoring-service-api/zod`, or a function of your own with the same shape.
 */
export type AnswerSchemas = (operationId: string, status: number) => AnswerSchema | undefined;

/** The schemas a client's `validate` option gives: none, the package's own (`true`), or the caller's. */
export function answerSchemas(validate: boolean | AnswerSchemas | undefined): (() => Promise<AnswerSchemas>) | undefined {
  if (validate === undefined || validate === false) return undefined;
  if (validate === true) return packagedSchemas();
  if (typeof validate !== 'function')
    throw new OptionError(
      wording`${option('validate')} must be true, false or a function such as answerSchema, not ${JSON.stringify(validate)}`,
    );
  return () => Promise.resolve(validate);
}

/** Rejects with a ServiceError of kind `contract` when a successful answer's body is not what the description says. */
export async function checkAnswer(
  schemas: AnswerSchemas,
  operation: OperationInfo,
  response: Response,
  body: unknown,
  attempts: number,
): Promise<void> {
  const schema = operation.operationId ? schemas(operation.operationId, response.status) : undefined;
  if (!schema) return; // an operation or status the description does not document: nothing to check against
  const result = schema.safeParse(body);
  if (result.success) return;
  const [first, ...others] = result.error.issues;
  const pointer = `/${(first?.path ?? []).map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  throw new ServiceError({
    kind: 'contract',
    status: response.status,
    message:
      `The answer of ${operation.method} ${operation.path} (${operation.operationId}, ${response.status}) breaks the contract at ${pointer}: ` +
      `${first?.message ?? 'the schema refused it'} (${first?.code ?? 'unknown'})${others.length > 0 ? `, and ${others.length} more` : ''}.`,
    operation,
    body,
    response,
    attempts,
  });
}
