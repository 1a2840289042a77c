// The documented errors the mock can answer, by stable names, and which of them an answer is. An answer is read as
// the client received it, whatever made it (the simulator, the mock's checks, a `Prefer` header, an injected fault
// with its documented example): the code and message of the description's named examples (MonitorNotFound,
// NotAuthorizedForAccount), the identity provider's OAuth 2.0 error code, the status of a method or version refused.
import { deref, isRecord, type JsonValue, type OpenApiDocument } from '../description/openapi.js';
import type { RouteMatch } from '../description/routes.js';
import type { Answer } from '../http/exchange.js';
import type { TokenRefusal } from '../simulator/token-refusals.js';

/** The documented errors, in the order production meets them first, each with what it is. */
export const documentedErrors = {
  'monitor-does-not-exist': '404 with code 1002, Monitor does not exist.: a monitor_id the account does not have (section 7, item 3)',
  'identity-invalid-grant':
    "The identity provider's 400 invalid_grant (RFC 6749, section 5.2): a grant token or refresh token used, expired, revoked or deleted",
  'not-authorized':
    "403 You are not authorized to perform this operation.: an MSP or BU portal operation the account may not make (section 5, item 9; the status is the mock's)",
  'identity-too-many-requests': "The identity provider's 400 too_many_requests: a limit of section 8 reached (the mock's own code)",
  'identity-invalid-client': "The identity provider's 400 invalid_client (RFC 6749, section 5.2): a client_secret that is not the client's",
  'not-acceptable':
    "406: an Accept header that asks for another API version than the description's, or allows no JSON (section 9; the status is the mock's)",
  'method-not-allowed': '405 Method Not Allowed: a method the path does not support (section 7)',
  'identity-invalid-request': "The identity provider's 400 invalid_request (RFC 6749, section 5.2): a parameter missing or malformed",
  'identity-unsupported-grant-type':
    "The identity provider's 400 unsupported_grant_type (RFC 6749, section 5.2): a grant_type other than authorization_code and refresh_token",
} as const;

export type DocumentedError = keyof typeof documentedErrors;

/** The identity provider's refusals by their OAuth 2.0 error code (the simulator's, tokens.ts). */
const identityErrors: Readonly<Record<TokenRefusal['error'], DocumentedError>> = {
  invalid_grant: 'identity-invalid-grant',
  invalid_client: 'identity-invalid-client',
  invalid_request: 'identity-invalid-request',
  unsupported_grant_type: 'identity-unsupported-grant-type',
  too_many_requests: 'identity-too-many-requests',
};

/** The most bytes of an error answer read for its code: the mock's own error answers are far smaller. */
const readBytes = 4096;

/** Which documented error an answer is, if any. */
export type ErrorReader = (answer: Answer, match: RouteMatch | undefined) => DocumentedError | undefined;

/** The value of a named example of the description's components, if it is an object. */
function exampleValue(document: OpenApiDocument, name: string): Record<string, unknown> {
  const value = deref(document, document.components?.examples?.[name])?.value;
  return isRecord(value) ? value : {};
}

/** The reader of a description's documented errors: the code of MonitorNotFound, the message of NotAuthorizedForAccount. */
export function documentedErrorReader(document: OpenApiDocument): ErrorReader {
  const monitorCode = exampleValue(document, 'MonitorNotFound').code;
  const notAuthorized = exampleValue(document, 'NotAuthorizedForAccount').message;
  return (answer, match) => {
    const { status } = answer;
    if (status === 405 && match && !match.operation) return 'method-not-allowed';
    if (status === 406) return 'not-acceptable';
    if (status !== 400 && status !== 403 && status !== 404) return undefined;
    if (answer.body.length === 0 || answer.body.length > readBytes) return undefined;
    let body: JsonValue;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return undefined;
    }
    if (!isRecord(body)) return undefined;
    if (status === 400)
      return typeof body.error === 'string' && Object.hasOwn(identityErrors, body.error)
        ? identityErrors[body.error as TokenRefusal['error']]
        : undefined;
    if (status === 404)
      return match?.operation && monitorCode !== undefined && body.code === monitorCode ? 'monitor-does-not-exist' : undefined;
    return notAuthorized !== undefined && body.message === notAuthorized ? 'not-authorized' : undefined;
  };
}
