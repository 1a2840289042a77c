// The identity provider's refusals: an OAuth 2.0 error code (RFC 6749, section 5.2), the behaviour each plays
// (behaviours.ts) and what went wrong, and the refusals that tokens.ts reaches in more than one grant: a grant token
// that cannot be exchanged, a window's limit reached, a token whose refresh token ended.
import type { Behaviour } from './behaviours.js';
import { serviceTime } from './clock.js';
import { type Client, type Ending, minute } from './token-store.js';

/** A refusal of the identity provider: an OAuth 2.0 error code (RFC 6749, section 5.2) and what went wrong. */
export interface TokenRefusal {
  error: 'invalid_client' | 'invalid_grant' | 'invalid_request' | 'unsupported_grant_type' | 'too_many_requests';
  /** The behaviour the refusal plays (behaviours.ts); none for a request that is only malformed. */
  behaviour?: Behaviour | undefined;
  description: string;
  /** For a limit: when the next token may be asked for. */
  retryAfterS?: number;
}

export type Refused = { ok: false; refusal: TokenRefusal };

/** A refusal, with the behaviour it plays, and for a limit when to try again. */
export const refuse = (error: TokenRefusal['error'], behaviour: Behaviour, description: string, retryAfterS?: number): Refused => ({
  ok: false,
  refusal: { error, behaviour, description, ...(retryAfterS === undefined ? {} : { retryAfterS }) },
});

/** The behaviour of a token refused because its refresh token ended: revoked, or deleted by the 20 per user. */
export const endedBehaviour = (ending: Ending): Behaviour =>
  ending.reason === 'revoked' ? 'revoked-token-refused' : 'deleted-token-refused';

/** The refusal of a grant token that cannot be exchanged: another client's, used, or expired. */
export function grantCodeFault(
  grant: { clientId: string; usedAt?: number; expiresAt: number; validityMinutes: number },
  client: Client,
  now: number,
) {
  if (grant.clientId !== client.id)
    return refuse('invalid_grant', 'client-mismatch', 'the grant token (code) was generated for another client_id');
  if (grant.usedAt !== undefined)
    return refuse(
      'invalid_grant',
      'grant-code-reused',
      `the grant token (code) was already used at ${serviceTime(grant.usedAt)}: a grant token is used once`,
    );
  if (now >= grant.expiresAt)
    return refuse(
      'invalid_grant',
      'grant-code-expired',
      `the grant token (code) expired at ${serviceTime(grant.expiresAt)}, ${grant.validityMinutes} minutes after it was generated: exchange it before it expires`,
    );
  return undefined;
}

/** The refusal when a window's limit is reached (`count` in `windowMinutes`), with when to try again. */
export function windowFault(
  recent: number[],
  limit: { count: number; windowMinutes: number },
  now: number,
  behaviour: Behaviour,
  what: (retryAfterS: number) => string,
) {
  if (recent.length < limit.count) return undefined;
  const retryAfterS = Math.ceil((recent[0]! + limit.windowMinutes * minute - now) / 1000);
  return refuse('too_many_requests', behaviour, what(retryAfterS), retryAfterS);
}
