// The behaviours the simulator plays, by the stable names that a journal entry and the coverage report give them
// (src/coverage/). Each name is written where the simulator decides the behaviour (tokens.ts, identity.ts,
// resources.ts, faults.ts); this list says what each means, in the order production meets them first: a token's hour
// running out and its renewal, transient faults, the identity provider's limits, other accounts, permissions,
// revocation, then the grant tokens of a set-up and a client's own mistakes. A new name is added here, with its
// meaning; a name never changes meaning (reports of several runs are merged by name).

export const behaviours = {
  'access-token-expired': 'An API call with an access token past its lifetime (expires_in): 401 (section 5, item 5)',
  'access-token-renewed': 'A refresh-token grant gave a new access token (section 5, item 5)',
  'fault-retry-after': 'An injected fault with Retry-After (retry_after_s), such as a 429 or a 503',
  'fault-server-error': 'An injected 5xx without Retry-After',
  'fault-delay': 'An injected delay before the answer',
  'access-token-limit':
    "The identity provider refused an access token: 10 generated from the refresh token in 10 minutes (section 8; counted per refresh token, the mock's reading): 400 too_many_requests",
  'refresh-token-limit':
    'The identity provider refused a refresh token: 20 generated for the client ID in 10 minutes (section 8): 400 too_many_requests',
  'customer-account': "A call acted on an MSP customer's account (Cookie: zaaid, section 5, item 8)",
  'business-unit-account': "A call acted on a business unit's account (Cookie: zaaid, section 5, item 8)",
  'account-not-authorized':
    "A zaaid that is none of the caller's customers or business units: 403 You are not authorized to perform this operation. (section 5, item 9)",
  'account-kind-refused':
    'A list of customers or business units the account may not ask for (not an MSP or BU portal account, or acting on another account): 403 (section 5, item 9)',
  'role-refused': "The user's role does not permit the call: 403 (section 5.2)",
  'scope-refused': "The access token's scopes do not include the one the operation requires: 403 (section 5.1)",
  'token-revoked': 'The revoke endpoint revoked a refresh token (section 5, item 6)',
  'revoked-token-refused': 'A revoked refresh token, or an access token of one, was refused: 400 invalid_grant, or 401',
  'active-access-token-limit': 'The 11th active access token of a refresh token deleted the first (section 8)',
  'refresh-tokens-per-user-limit': "The user's 21st refresh token deleted the oldest (section 8)",
  'deleted-token-refused': 'An access token or refresh token that those limits deleted was refused: 401, or 400 invalid_grant',
  'grant-code-exchanged': 'A grant token was exchanged for a refresh token and an access token (section 5, item 4)',
  'grant-code-reused': 'A grant token sent a second time was refused: 400 invalid_grant (it is used once, section 5, item 3)',
  'grant-code-expired': 'A grant token sent after its 3 to 10 minutes was refused: 400 invalid_grant (section 8)',
  'client-mismatch':
    "A client_secret that is not the client's, or a grant token or refresh token of another client_id, was refused: 400 invalid_client or invalid_grant",
  'wrong-token-kind':
    'A token of another kind was refused: a refresh token or grant token as an access token, an access token as a refresh token',
  'fault-client-error': 'An injected 4xx without Retry-After',
  'token-not-issued': 'With strict tokens: a token, grant token or client ID the mock did not issue was refused',
} as const;

/** The name of a behaviour the simulator plays. */
export type Behaviour = keyof typeof behaviours;
