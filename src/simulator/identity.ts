// The identity provider's answers (core document, section 4.3): the token endpoint's two grants and the revoke
// endpoint, read from the form body or the query string, decided by the token authority (tokens.ts).
//
// Its refusals: the documents show neither their status nor their bodies (section 7). The mock answers 400, the core
// document's status for wrong request information, with its own error shape `{code, message}` and the OAuth 2.0
// error code (RFC 6749, section 5.2) in `error`.

import type { RouteOperation } from '../description/routes.js';
import { type Answer, type Call, errorAnswer, splitTarget } from '../http/exchange.js';
import { parseBody, withBody } from './answers.js';
import type { Behaviour } from './behaviours.js';
import type { TokenRefusal } from './token-refusals.js';
import { maxCredentialLength } from './token-store.js';
import type { TokenAuthority, TokenResult } from './tokens.js';

/** The parameters of the identity provider that carry a credential (or its kind), each bounded in length. */
const credentialParameters = ['client_id', 'client_secret', 'code', 'refresh_token', 'token', 'grant_type'];

/** The parameters of an identity-provider call: its form body's fields, else its query string's. */
export function identityParameters(call: Call): (name: string) => string | undefined {
  const form =
    call.mediaType?.type === 'application/x-www-form-urlencoded' && call.body.length > 0
      ? new URLSearchParams(call.body.toString('utf8'))
      : undefined;
  const query = new URLSearchParams(splitTarget(call.url)[1] ?? '');
  return (name) => form?.get(name) ?? query.get(name) ?? undefined;
}

/** The grant types of the token endpoint (core document, section 4.3). */
const grantTypes: ReadonlySet<string> = new Set(['authorization_code', 'refresh_token']);

/**
 * The OAuth 2.0 error of a request refused for its form (RFC 6749, section 5.2): `unsupported_grant_type` for a
 * `grant_type` the token endpoint does not take, else `invalid_request` (a parameter missing or malformed).
 */
export function malformedRequestError(call: Call): 'invalid_request' | 'unsupported_grant_type' {
  const grant = identityParameters(call)('grant_type');
  return grant && !grantTypes.has(grant) ? 'unsupported_grant_type' : 'invalid_request';
}

/**
 * An error answer (`{code, message}`) in the identity provider's shape: its OAuth 2.0 code in `error`, and the media
 * type of the identity provider's answers in the description, `application/json` (their Content-Type is not shown).
 * The one shape of its refusals, the simulator's and those of a request its contract refuses (src/mock/policy.ts).
 */
export function identityRefusal(answer: Answer, error: TokenRefusal['error']): Answer {
  return {
    ...withBody(answer, { ...parseBody(answer), error }),
    headers: { ...answer.headers, 'Content-Type': 'application/json' },
  };
}

/** A refusal of the identity provider: 400 `{code, message, error}`, `Retry-After` on a limit; its behaviour noted. */
function refusal(refused: TokenRefusal, played: Behaviour[]): Answer {
  if (refused.behaviour) played.push(refused.behaviour);
  const answer = errorAnswer(400, refused.description, {
    violations: [{ location: ['request'], severity: 'Error', code: refused.error, message: refused.description }],
    ...(refused.retryAfterS === undefined ? {} : { headers: { 'Retry-After': String(refused.retryAfterS) } }),
  });
  return identityRefusal(answer, refused.error);
}

const missing = (name: string, grant: string): Answer =>
  refusal({ error: 'invalid_request', description: `${name} is required for ${grant} (as a form field or in the query string)` }, []);

export interface IdentityProvider {
  /** The answer to a call of the identity provider; the behaviours it plays are added to `played`. */
  answer(call: Call, operation: RouteOperation, example: Answer, played: Behaviour[]): Answer;
}

/** The identity provider; `apiDomain` gives the `api_domain` of its token answers (the mock's own API root). */
export function createIdentityProvider(tokens: TokenAuthority, apiDomain: () => string): IdentityProvider {
  /** The engine's token answer with the tokens issued, without the example's refresh token on a refresh grant. */
  const tokenAnswer = (result: TokenResult, example: Answer, played: Behaviour[]): Answer => {
    if (!result.ok) return refusal(result.refusal, played);
    played.push(...result.behaviours);
    const { refresh_token: _example, ...shown } = parseBody(example);
    return withBody(example, { ...shown, ...result.tokens, api_domain: apiDomain(), token_type: 'Bearer' });
  };

  const revokeAnswer = (parameter: (name: string) => string | undefined, example: Answer, played: Behaviour[]): Answer => {
    const token = parameter('token');
    if (!token) return missing('token', 'the revoke endpoint');
    const refused = tokens.revoke(token);
    if (refused) return refusal(refused, played);
    played.push('token-revoked');
    return example;
  };

  const grantAnswer = (parameter: (name: string) => string | undefined, example: Answer, played: Behaviour[]): Answer => {
    const grant = parameter('grant_type');
    if (!grant || !grantTypes.has(grant))
      return refusal(
        {
          error: grant ? 'unsupported_grant_type' : 'invalid_request',
          description: 'grant_type must be authorization_code or refresh_token (as a form field or in the query string)',
        },
        played,
      );
    const what = `grant_type=${grant}`;
    const client_id = parameter('client_id');
    const client_secret = parameter('client_secret');
    if (!client_id) return missing('client_id', what);
    if (!client_secret) return missing('client_secret', what);
    if (grant === 'authorization_code') {
      const code = parameter('code');
      if (!code) return missing('code', what);
      return tokenAnswer(tokens.exchange({ client_id, client_secret, code }), example, played);
    }
    const refresh_token = parameter('refresh_token');
    if (!refresh_token) return missing('refresh_token', what);
    return tokenAnswer(tokens.refresh({ client_id, client_secret, refresh_token }), example, played);
  };

  return {
    answer(call, operation, example, played) {
      const parameter = identityParameters(call);
      const tooLong = credentialParameters.find((name) => (parameter(name)?.length ?? 0) > maxCredentialLength);
      if (tooLong)
        return refusal(
          {
            error: 'invalid_request',
            description: `${tooLong} has ${parameter(tooLong)!.length} characters; the mock reads at most ${maxCredentialLength}, more than any credential it issues`,
          },
          played,
        );
      if (operation.operationId === 'revokeToken') return revokeAnswer(parameter, example, played);
      if (operation.operationId === 'requestToken') return grantAnswer(parameter, example, played);
      return example;
    },
  };
}
