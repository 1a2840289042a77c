// The identity provider as the documents describe it (core document, sections 4.3, 5 and 8), on the simulator's
// clock: clients registered in the "developer console" (the test API), grant tokens used once within their 3 to 10
// minutes, permanent refresh tokens, access tokens that expire after `expires_in`, revocation, and every limit:
// - at most 20 refresh tokens per user: the 21st deletes the oldest, in use or not;
// - at most 20 refresh tokens generated per client ID in 10 minutes;
// - at most 10 active (not expired) access tokens per refresh token: the 11th deletes the first;
// - at most 10 access tokens generated from refresh tokens in 10 minutes, counted per refresh token (the mock's
//   reading, as the package's client counts).
// The mock has one user, the own account's: every client registered belongs to it.
//
// Lenient by default: a credential the mock never issued (an access token, a refresh token, a grant token, a client
// ID) is taken as if it had issued it to that user with every scope, so that a quick start with made-up values
// works. An adopted refresh token is outside the 20 per user. With `strict`, only what the mock issued is accepted.
// What clients make up is remembered apart from what the test API made (token-store.ts): a flood of made-up
// credentials never evicts an issued token, nor one revoked, which is never adopted again.
import { tokenLimits } from '../../generated/client.js';
import type { Behaviour } from './behaviours.js';
import { type SimulatedClock, serviceTime } from './clock.js';
import { checkGrantCode } from './grant-codes.js';
import { endedBehaviour, grantCodeFault, type Refused, refuse, type TokenRefusal, windowFault } from './token-refusals.js';
import {
  type AccessToken,
  type Client,
  clientCredentials,
  countTokens,
  type Ending,
  emptyStore,
  endedMessage,
  findAccessToken,
  findClient,
  findCode,
  findRefreshToken,
  heldBytes,
  holdsCredential,
  minute,
  type RefreshToken,
  rememberedCounts,
  type TokenRecords,
  type TokenStore,
  tokenValue,
  withinWindow,
} from './token-store.js';
import type { GrantCodeRequest, TokenCounts } from './types.js';

/** The lifetime of every access token the mock issues (`expires_in`, the value the documents show). */
export const accessTokenLifetimeS = tokenLimits.accessTokenLifetimeSecondsShown;

export interface IssuedTokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
}

/** Tokens issued, with the behaviours the grant played (the exchange or renewal, and a limit that deleted a token). */
export type TokenResult = { ok: true; tokens: IssuedTokens; behaviours: Behaviour[] } | Refused;

/**
 * Who an access token acts for: the scopes it was granted (every scope for a token the mock adopted), and the role
 * of its user (undefined: the seed's role, for a token the mock adopted or a grant token without one).
 */
export type Principal =
  | { ok: true; scopes: ReadonlySet<string> | 'every'; role: number | undefined }
  | { ok: false; reason: string; behaviour: Behaviour };

export interface TokenAuthority {
  registerClient(): { client_id: string; client_secret: string };
  /** A grant token for a registered client. Throws a TypeError naming the fault of the request. */
  grantCode(request: GrantCodeRequest): { code: string };
  /** `grant_type=authorization_code`. */
  exchange(parameters: { client_id: string; client_secret: string; code: string }): TokenResult;
  /** `grant_type=refresh_token`. */
  refresh(parameters: { client_id: string; client_secret: string; refresh_token: string }): TokenResult;
  /** The revoke endpoint: undefined when the refresh token is revoked (or already was). */
  revoke(token: string): TokenRefusal | undefined;
  /** Who a resource call's access token acts for, or why it is refused. */
  authenticate(accessToken: string): Principal;
  /** The client_id of an access token, refresh token or grant token the identity provider holds. */
  clientOf(value: string): string | undefined;
  /** Whether a value is a token, grant token, client ID or client secret the identity provider holds (the journal hides them). */
  holds(value: string): boolean;
  counts(): TokenCounts;
  /** How many records of each kind it holds, issued or adopted (bounded: rememberedRecords). */
  remembered(): { clients: number; grant_codes: number; refresh_tokens: number; access_tokens: number };
  /** The bytes its records hold, at most (recordBytes of token-store.ts). */
  heldBytes(): number;
  reset(): void;
}

interface Authority {
  store: TokenStore;
  strict: boolean;
  documented: { scopes: ReadonlySet<string>; roles: readonly number[] };
}

/**
 * The client of a grant: a registered one with its secret, or (lenient) one the mock adopts, kept only once the
 * request is granted (keepClient): a refused request leaves nothing behind.
 */
function clientOf({ store, strict }: Authority, id: string, secret: string): Client | Refused {
  const client = findClient(store, id);
  if (client) {
    if (client.secret !== undefined && client.secret !== secret)
      return refuse('invalid_client', 'client-mismatch', 'the client_secret is not the secret of this client_id');
    return client;
  }
  if (strict)
    return refuse(
      'invalid_client',
      'token-not-issued',
      'no client with this client_id is registered (strict tokens: register one with POST /__mock/clients)',
    );
  return { id, secret: undefined, refreshTokensGenerated: [] };
}

/** Keeps a client the request adopted, once the request is granted. */
function keepClient(store: TokenStore, client: Client): void {
  if (!findClient(store, client.id)) store.adopted.clients.set(client.id, client);
}

/** Issues an access token from a refresh token; notes the limit when the new one deletes the first active one. */
function issueAccessToken(refresh: RefreshToken, now: number, played: Behaviour[]): AccessToken {
  const active = refresh.accessTokens.filter((token) => token.evictedAt === undefined && token.expiresAt > now);
  // Section 8: the 11th active access token deletes the first created.
  if (active.length >= tokenLimits.activeAccessTokensPerRefreshToken) {
    active[0]!.evictedAt = now;
    played.push('active-access-token-limit');
  }
  const token: AccessToken = { value: tokenValue(), refresh, expiresAt: now + accessTokenLifetimeS * 1000 };
  refresh.accessTokens = refresh.accessTokens.filter((entry) => entry.evictedAt === undefined && entry.expiresAt > now);
  refresh.accessTokens.push(token);
  refresh.records.accessTokens.set(token.value, token);
  return token;
}

function endRefreshToken(store: TokenStore, refresh: RefreshToken, reason: Ending['reason'], now: number) {
  refresh.ended ??= { reason, at: now };
  store.userRefreshTokens = store.userRefreshTokens.filter((entry) => entry !== refresh);
}

function adoptRefreshToken(store: TokenStore, value: string, clientId: string): RefreshToken {
  const refresh: RefreshToken = {
    value,
    clientId,
    role: undefined,
    scopes: 'every',
    adopted: true,
    records: store.adopted,
    accessTokensGenerated: [],
    accessTokens: [],
  };
  store.adopted.refreshTokens.set(value, refresh);
  return refresh;
}

/** `grant_type=authorization_code`: the grant token checked, the client's limit, a new refresh token and access token. */
function exchange(
  authority: Authority,
  now: number,
  { client_id, client_secret, code }: Parameters<TokenAuthority['exchange']>[0],
): TokenResult {
  const { store, strict } = authority;
  const grant = findCode(store, code);
  if (!grant && strict)
    return refuse(
      'invalid_grant',
      'token-not-issued',
      'the grant token (code) was not generated by this mock (strict tokens: POST /__mock/grant-codes)',
    );
  const client = clientOf(authority, client_id, client_secret);
  if ('ok' in client) return client;
  const grantFault = grant && grantCodeFault(grant, client, now);
  if (grantFault) return grantFault;
  const limit = tokenLimits.refreshTokensPerClientId;
  const recent = withinWindow(client.refreshTokensGenerated, now, limit.windowMinutes * minute);
  const limited = windowFault(
    recent,
    limit,
    now,
    'refresh-token-limit',
    (retryAfterS) =>
      `this client_id generated ${recent.length} refresh tokens in the last ${limit.windowMinutes} minutes, the identity provider's limit (at most ${limit.count} in ${limit.windowMinutes} minutes): try again in ${retryAfterS} s`,
  );
  if (limited) return limited;
  keepClient(store, client);
  if (grant) grant.usedAt = now;
  else store.adopted.codes.set(code, { clientId: client.id, role: undefined, scopes: [], validityMinutes: 0, expiresAt: now, usedAt: now });
  client.refreshTokensGenerated = [...recent, now];
  // The tokens of a grant token the test API generated are its own; those of a made-up one are kept with what was made up.
  const records: TokenRecords = grant !== undefined && store.own.codes.get(code) === grant ? store.own : store.adopted;
  const refresh: RefreshToken = {
    value: tokenValue(),
    clientId: client.id,
    role: grant?.role,
    scopes: grant ? new Set(grant.scopes) : 'every',
    adopted: false,
    records,
    accessTokensGenerated: [],
    accessTokens: [],
  };
  records.refreshTokens.set(refresh.value, refresh);
  store.userRefreshTokens.push(refresh);
  const played: Behaviour[] = ['grant-code-exchanged'];
  // Section 8: past 20 refresh tokens per user, the oldest is deleted, whether or not it is in use.
  if (store.userRefreshTokens.length > tokenLimits.refreshTokensPerUser) played.push('refresh-tokens-per-user-limit');
  while (store.userRefreshTokens.length > tokenLimits.refreshTokensPerUser)
    endRefreshToken(store, store.userRefreshTokens[0]!, 'deleted', now);
  const access = issueAccessToken(refresh, now, played);
  return {
    ok: true,
    tokens: { access_token: access.value, refresh_token: refresh.value, expires_in: accessTokenLifetimeS },
    behaviours: played,
  };
}

/** `grant_type=refresh_token`: the refresh token checked, its limit, a new access token (no new refresh token). */
function refresh(authority: Authority, now: number, parameters: Parameters<TokenAuthority['refresh']>[0]): TokenResult {
  const { store, strict } = authority;
  const known = findRefreshToken(store, parameters.refresh_token);
  if (!known && findAccessToken(store, parameters.refresh_token))
    return refuse(
      'invalid_grant',
      'wrong-token-kind',
      'the refresh_token is an access token: send the refresh token of the authorization-code grant',
    );
  if (!known && strict) return refuse('invalid_grant', 'token-not-issued', 'the refresh_token was not issued by this mock (strict tokens)');
  const client = clientOf(authority, parameters.client_id, parameters.client_secret);
  if ('ok' in client) return client;
  const token = known ?? adoptRefreshToken(store, parameters.refresh_token, client.id);
  if (token.ended) return refuse('invalid_grant', endedBehaviour(token.ended), endedMessage('the refresh_token', token.ended));
  if (token.clientId !== client.id) return refuse('invalid_grant', 'client-mismatch', 'the refresh_token was issued to another client_id');
  const limit = tokenLimits.accessTokensFromRefreshTokens;
  const recent = withinWindow(token.accessTokensGenerated, now, limit.windowMinutes * minute);
  const limited = windowFault(
    recent,
    limit,
    now,
    'access-token-limit',
    (retryAfterS) =>
      `${recent.length} access tokens were generated from this refresh token in the last ${limit.windowMinutes} minutes, the identity provider's limit (at most ${limit.count} in ${limit.windowMinutes} minutes): try again in ${retryAfterS} s, and reuse an access token until it expires`,
  );
  if (limited) return limited;
  keepClient(store, client);
  token.accessTokensGenerated = [...recent, now];
  const played: Behaviour[] = ['access-token-renewed'];
  const access = issueAccessToken(token, now, played);
  return { ok: true, tokens: { access_token: access.value, expires_in: accessTokenLifetimeS }, behaviours: played };
}

/**
 * The revoke endpoint: a refresh token ends, with its access tokens. One of what clients made up moves to the record
 * of revoked ones, which no flood of made-up values evicts.
 */
function revoke({ store, strict }: Authority, now: number, token: string): TokenRefusal | undefined {
  const known = findRefreshToken(store, token);
  if (known) {
    endRefreshToken(store, known, 'revoked', now);
    if (store.adopted.refreshTokens.get(token) === known) {
      store.adopted.refreshTokens.delete(token);
      store.revoked.set(token, known);
    }
    return undefined;
  }
  if (findAccessToken(store, token))
    return {
      error: 'invalid_request',
      behaviour: 'wrong-token-kind',
      description: 'the token is an access token: revoke takes the refresh token (access tokens end when they expire)',
    };
  if (strict)
    return { error: 'invalid_grant', behaviour: 'token-not-issued', description: 'the token was not issued by this mock (strict tokens)' };
  // Lenient: a refresh token the mock never issued is revoked all the same, and refused from now on.
  const adopted = adoptRefreshToken(store, token, '');
  store.adopted.refreshTokens.delete(token);
  endRefreshToken(store, adopted, 'revoked', now);
  store.revoked.set(token, adopted);
  return undefined;
}

/** Who an access token acts for, or why it is refused (another kind of token, ended, deleted, expired). */
function authenticate({ store, strict }: Authority, now: number, value: string): Principal {
  const token = findAccessToken(store, value);
  if (!token) {
    if (findRefreshToken(store, value))
      return {
        ok: false,
        behaviour: 'wrong-token-kind',
        reason: 'the token is a refresh token: send an access token (grant_type=refresh_token gives one)',
      };
    if (findCode(store, value))
      return {
        ok: false,
        behaviour: 'wrong-token-kind',
        reason: 'the token is a grant token: exchange it for an access token at POST /oauth/v2/token',
      };
    if (strict) return { ok: false, behaviour: 'token-not-issued', reason: 'the access token was not issued by this mock (strict tokens)' };
    return { ok: true, scopes: 'every', role: undefined };
  }
  if (token.refresh.ended)
    return { ok: false, behaviour: endedBehaviour(token.refresh.ended), reason: endedMessage('its refresh token', token.refresh.ended) };
  if (token.evictedAt !== undefined)
    return {
      ok: false,
      behaviour: 'deleted-token-refused',
      reason: `the access token was deleted at ${serviceTime(token.evictedAt)}, when its refresh token's access tokens exceeded ${tokenLimits.activeAccessTokensPerRefreshToken} (the 11th deletes the first)`,
    };
  if (now >= token.expiresAt)
    return {
      ok: false,
      behaviour: 'access-token-expired',
      reason: `the access token expired at ${serviceTime(token.expiresAt)} (expires_in ${accessTokenLifetimeS} s): get a new one with grant_type=refresh_token`,
    };
  return { ok: true, scopes: token.refresh.scopes, role: token.refresh.role };
}

export interface TokenAuthorityOptions {
  clock: SimulatedClock;
  strict: boolean;
  /** The documented scopes (`Service.<Area>.<Action>`). */
  scopes: readonly string[];
  /** The documented role IDs (constants document). Default: any role is refused. */
  roles?: readonly number[] | undefined;
}

export function createTokenAuthority(options: TokenAuthorityOptions): TokenAuthority {
  const { clock } = options;
  const documented = { scopes: new Set(options.scopes), roles: options.roles ?? [] };
  const authority: Authority = { store: emptyStore(), strict: options.strict, documented };
  return {
    registerClient() {
      const { id, secret } = clientCredentials();
      authority.store.own.clients.set(id, { id, secret, refreshTokensGenerated: [] });
      return { client_id: id, client_secret: secret };
    },
    grantCode(request) {
      const checked = checkGrantCode(request, authority.documented);
      const client = authority.store.own.clients.get(checked.clientId);
      if (!client || client.secret === undefined)
        throw new TypeError('client_id must be the client_id of a client registered with POST /__mock/clients');
      if (request.client_secret !== undefined && request.client_secret !== client.secret)
        throw new TypeError('client_secret, when given, must be the secret of the client_id');
      const code = tokenValue();
      const expiresAt = clock.now() + checked.validityMinutes * minute;
      const { role, scopes, validityMinutes } = checked;
      authority.store.own.codes.set(code, { clientId: client.id, role, scopes, validityMinutes, expiresAt });
      return { code };
    },
    exchange: (parameters) => exchange(authority, clock.now(), parameters),
    refresh: (parameters) => refresh(authority, clock.now(), parameters),
    revoke: (token) => revoke(authority, clock.now(), token),
    authenticate: (value) => authenticate(authority, clock.now(), value),
    clientOf: (value) => {
      const { store } = authority;
      return (
        findAccessToken(store, value)?.refresh.clientId ?? findRefreshToken(store, value)?.clientId ?? findCode(store, value)?.clientId
      );
    },
    holds: (value) => holdsCredential(authority.store, value),
    counts: () => countTokens(authority.store, clock.now()),
    remembered: () => rememberedCounts(authority.store),
    heldBytes: () => heldBytes(authority.store),
    reset() {
      authority.store = emptyStore();
    },
  };
}
