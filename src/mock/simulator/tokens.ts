// The identity provider as the documents describe it (core document, sections 4.3, 5 and 8), on the simulator's
// clock: clients registered in the "developer console" (the test API), grant tokens used once within their 3 to 10
// minutes, permanent refresh tokens, access tokens that expire after `expires_in`, revocation, and every limit:
// - at most 20 refresh tokens per user: the 21st deletes the oldest, in use or not;
// - at most 20 refresh tokens generated per client ID in 10 minutes;
// - at most 10 active (not expired) access tokens per refresh token: the 11th deletes the first;
// - at most 10 access tokens generated from a refresh token in 10 minutes.
// The mock has one user, the own account's: every client registered belongs to it.
//
// Lenient by default: a credential the mock never issued (an access token, a refresh token, a grant token, a client
// ID) is taken as if it had issued it to that user with every scope, so that a quick start with made-up values
// works. An adopted refresh token is outside the 20 per user. With `strict`, only what the mock issued is accepted.
import { randomBytes } from 'node:crypto';
import { tokenLimits } from '../../../generated/client.js';
import { type SimulatedClock, serviceTime } from './clock.js';

/** The lifetime of every access token the mock issues (`expires_in`, the value the documents show). */
export const accessTokenLifetimeS = tokenLimits.accessTokenLifetimeSecondsShown;
const minute = 60_000;

/** A refusal of the identity provider: an OAuth 2.0 error code (RFC 6749, section 5.2) and what went wrong. */
export interface TokenRefusal {
  error: 'invalid_client' | 'invalid_grant' | 'invalid_request' | 'too_many_requests';
  description: string;
  /** For a limit: when the next token may be asked for. */
  retryAfterS?: number;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
}

export type TokenResult = { ok: true; tokens: IssuedTokens } | { ok: false; refusal: TokenRefusal };

/** Who an access token acts for: the scopes it was granted, or every scope for a token the mock adopted. */
export type Principal = { ok: true; scopes: ReadonlySet<string> | 'every' } | { ok: false; reason: string };

interface Client {
  id: string;
  /** Undefined for a client ID the mock adopted (lenient): its secret is not checked. */
  secret: string | undefined;
  /** When the client's refresh tokens were generated, for the 20 in 10 minutes. */
  refreshTokensGenerated: number[];
}

interface GrantCode {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  validityMinutes: number;
  usedAt?: number;
}

interface Ending {
  reason: 'revoked' | 'deleted';
  at: number;
}

interface RefreshToken {
  value: string;
  clientId: string;
  scopes: ReadonlySet<string> | 'every';
  adopted: boolean;
  ended?: Ending;
  /** When access tokens were generated from it (refresh grant), for the 10 in 10 minutes. */
  accessTokensGenerated: number[];
  /** Its access tokens, oldest first. */
  accessTokens: AccessToken[];
}

interface AccessToken {
  value: string;
  refresh: RefreshToken;
  expiresAt: number;
  evictedAt?: number;
}

export interface TokenCounts {
  clients: number;
  grant_codes: { unused: number; used: number; expired: number };
  refresh_tokens: { active: number; revoked: number; deleted: number };
  access_tokens: { active: number; expired: number; deleted: number; revoked: number };
}

export interface GrantCodeRequest {
  client_id: string;
  /** The scopes, comma-separated as in the console (`Service.Admin.Read,Service.Reports.Read`), or a list. */
  scope: string | string[];
  /** 3 to 10. Default 10. */
  validity_minutes?: number | undefined;
  /** The console's description of the grant token: kept by nobody, accepted for the form's sake. */
  description?: string | undefined;
}

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
  counts(): TokenCounts;
  reset(): void;
}

/** A token in the form the documents' examples show: `1000.` and two groups of 32 hexadecimal digits. */
const tokenValue = () => `1000.${randomBytes(16).toString('hex')}.${randomBytes(16).toString('hex')}`;

/** The entries of a list of times within the window that ends now. */
const withinWindow = (times: number[], now: number, windowMs: number): number[] => times.filter((time) => time > now - windowMs);

export function createTokenAuthority(options: { clock: SimulatedClock; strict: boolean; scopes: readonly string[] }): TokenAuthority {
  const { clock, strict } = options;
  const documentedScopes = new Set(options.scopes);
  let clients = new Map<string, Client>();
  let codes = new Map<string, GrantCode>();
  let refreshTokens = new Map<string, RefreshToken>();
  let accessTokens = new Map<string, AccessToken>();
  /** The user's issued refresh tokens, oldest first (for the 20 per user). */
  let userRefreshTokens: RefreshToken[] = [];

  const refuse = (error: TokenRefusal['error'], description: string, retryAfterS?: number): { ok: false; refusal: TokenRefusal } => ({
    ok: false,
    refusal: { error, description, ...(retryAfterS === undefined ? {} : { retryAfterS }) },
  });

  /** The client of a grant: a registered one with its secret, or (lenient) one the mock adopts. */
  const clientOf = (id: string, secret: string): Client | { ok: false; refusal: TokenRefusal } => {
    const client = clients.get(id);
    if (client) {
      if (client.secret !== undefined && client.secret !== secret)
        return refuse('invalid_client', 'the client_secret is not the secret of this client_id');
      return client;
    }
    if (strict)
      return refuse(
        'invalid_client',
        'no client with this client_id is registered (strict tokens: register one with POST /__mock/clients)',
      );
    const adopted: Client = { id, secret: undefined, refreshTokensGenerated: [] };
    clients.set(id, adopted);
    return adopted;
  };

  const issueAccessToken = (refresh: RefreshToken, now: number): AccessToken => {
    const active = refresh.accessTokens.filter((token) => token.evictedAt === undefined && token.expiresAt > now);
    // Section 8: the 11th active access token deletes the first created.
    if (active.length >= tokenLimits.activeAccessTokensPerRefreshToken) active[0]!.evictedAt = now;
    const token: AccessToken = { value: tokenValue(), refresh, expiresAt: now + accessTokenLifetimeS * 1000 };
    refresh.accessTokens = refresh.accessTokens.filter((entry) => entry.evictedAt === undefined && entry.expiresAt > now);
    refresh.accessTokens.push(token);
    accessTokens.set(token.value, token);
    return token;
  };

  const endRefreshToken = (refresh: RefreshToken, reason: Ending['reason'], now: number) => {
    refresh.ended ??= { reason, at: now };
    userRefreshTokens = userRefreshTokens.filter((entry) => entry !== refresh);
  };

  const endedMessage = (what: string, ending: Ending) =>
    ending.reason === 'revoked'
      ? `${what} was revoked at ${serviceTime(ending.at)}`
      : `${what} was deleted at ${serviceTime(ending.at)}, when the user's refresh tokens exceeded ${tokenLimits.refreshTokensPerUser} (the oldest is deleted, in use or not)`;

  const adoptRefreshToken = (value: string, clientId: string): RefreshToken => {
    const refresh: RefreshToken = { value, clientId, scopes: 'every', adopted: true, accessTokensGenerated: [], accessTokens: [] };
    refreshTokens.set(value, refresh);
    return refresh;
  };

  return {
    registerClient() {
      const client: Client = {
        id: `1000.${randomBytes(15).toString('hex').toUpperCase()}`,
        secret: randomBytes(21).toString('hex'),
        refreshTokensGenerated: [],
      };
      clients.set(client.id, client);
      return { client_id: client.id, client_secret: client.secret! };
    },

    grantCode(request) {
      const client = typeof request.client_id === 'string' ? clients.get(request.client_id) : undefined;
      if (!client || client.secret === undefined)
        throw new TypeError('client_id must be the client_id of a client registered with POST /__mock/clients');
      const scopes = (Array.isArray(request.scope) ? request.scope : typeof request.scope === 'string' ? request.scope.split(',') : [])
        .map((scope) => (typeof scope === 'string' ? scope.trim() : ''))
        .filter(Boolean);
      if (scopes.length === 0)
        throw new TypeError('scope must list at least one scope, comma-separated (e.g. "Service.Admin.Read,Service.Reports.Read")');
      const unknown = scopes.filter((scope) => !documentedScopes.has(scope));
      if (unknown.length > 0)
        throw new TypeError(
          `scope has ${unknown.map((scope) => JSON.stringify(scope.slice(0, 60))).join(', ')}, not a scope of the documents (Service.<Area>.<Action>: areas Account, Admin, Reports, Operations, Msp, Bu; actions Read, Create, Update, Delete, All)`,
        );
      const { minimum, maximum } = tokenLimits.grantTokenValidityMinutes;
      const validity = request.validity_minutes ?? maximum;
      if (!Number.isInteger(validity) || validity < minimum || validity > maximum)
        throw new RangeError(
          `validity_minutes must be a whole number from ${minimum} to ${maximum} (section 8), not ${JSON.stringify(validity)}`,
        );
      if (request.description !== undefined && typeof request.description !== 'string')
        throw new TypeError('description, when given, must be a string');
      const code = tokenValue();
      codes.set(code, { clientId: client.id, scopes, validityMinutes: validity, expiresAt: clock.now() + validity * minute });
      return { code };
    },

    exchange({ client_id, client_secret, code }) {
      const now = clock.now();
      const grant = codes.get(code);
      if (!grant && strict)
        return refuse('invalid_grant', 'the grant token (code) was not generated by this mock (strict tokens: POST /__mock/grant-codes)');
      const client = clientOf(client_id, client_secret);
      if ('ok' in client) return client;
      if (grant) {
        if (grant.clientId !== client.id) return refuse('invalid_grant', 'the grant token (code) was generated for another client_id');
        if (grant.usedAt !== undefined)
          return refuse(
            'invalid_grant',
            `the grant token (code) was already used at ${serviceTime(grant.usedAt)}: a grant token is used once`,
          );
        if (now >= grant.expiresAt)
          return refuse(
            'invalid_grant',
            `the grant token (code) expired at ${serviceTime(grant.expiresAt)}, ${grant.validityMinutes} minutes after it was generated: exchange it before it expires`,
          );
      }
      const { count, windowMinutes } = tokenLimits.refreshTokensPerClientId;
      const recent = withinWindow(client.refreshTokensGenerated, now, windowMinutes * minute);
      if (recent.length >= count) {
        const retryAfterS = Math.ceil((recent[0]! + windowMinutes * minute - now) / 1000);
        return refuse(
          'too_many_requests',
          `this client_id generated ${recent.length} refresh tokens in the last ${windowMinutes} minutes, the identity provider's limit (at most ${count} in ${windowMinutes} minutes): try again in ${retryAfterS} s`,
          retryAfterS,
        );
      }
      if (grant) grant.usedAt = now;
      else codes.set(code, { clientId: client.id, scopes: [...documentedScopes], validityMinutes: 0, expiresAt: now, usedAt: now });
      client.refreshTokensGenerated = [...recent, now];
      const refresh: RefreshToken = {
        value: tokenValue(),
        clientId: client.id,
        scopes: grant ? new Set(grant.scopes) : 'every',
        adopted: false,
        accessTokensGenerated: [],
        accessTokens: [],
      };
      refreshTokens.set(refresh.value, refresh);
      userRefreshTokens.push(refresh);
      // Section 8: past 20 refresh tokens per user, the oldest is deleted, whether or not it is in use.
      while (userRefreshTokens.length > tokenLimits.refreshTokensPerUser) endRefreshToken(userRefreshTokens[0]!, 'deleted', now);
      const access = issueAccessToken(refresh, now);
      return { ok: true, tokens: { access_token: access.value, refresh_token: refresh.value, expires_in: accessTokenLifetimeS } };
    },

    refresh({ client_id, client_secret, refresh_token }) {
      const now = clock.now();
      const known = refreshTokens.get(refresh_token);
      if (!known && accessTokens.has(refresh_token))
        return refuse('invalid_grant', 'the refresh_token is an access token: send the refresh token of the authorization-code grant');
      if (!known && strict) return refuse('invalid_grant', 'the refresh_token was not issued by this mock (strict tokens)');
      const client = clientOf(client_id, client_secret);
      if ('ok' in client) return client;
      const refresh = known ?? adoptRefreshToken(refresh_token, client.id);
      if (refresh.ended) return refuse('invalid_grant', endedMessage('the refresh_token', refresh.ended));
      if (refresh.clientId !== client.id) return refuse('invalid_grant', 'the refresh_token was issued to another client_id');
      const { count, windowMinutes } = tokenLimits.accessTokensFromRefreshTokens;
      const recent = withinWindow(refresh.accessTokensGenerated, now, windowMinutes * minute);
      if (recent.length >= count) {
        const retryAfterS = Math.ceil((recent[0]! + windowMinutes * minute - now) / 1000);
        return refuse(
          'too_many_requests',
          `${recent.length} access tokens were generated from this refresh token in the last ${windowMinutes} minutes, the identity provider's limit (at most ${count} in ${windowMinutes} minutes): try again in ${retryAfterS} s, and reuse an access token until it expires`,
          retryAfterS,
        );
      }
      refresh.accessTokensGenerated = [...recent, now];
      const access = issueAccessToken(refresh, now);
      return { ok: true, tokens: { access_token: access.value, expires_in: accessTokenLifetimeS } };
    },

    revoke(token) {
      const now = clock.now();
      const refresh = refreshTokens.get(token);
      if (refresh) {
        endRefreshToken(refresh, 'revoked', now);
        return undefined;
      }
      if (accessTokens.has(token))
        return {
          error: 'invalid_request',
          description: 'the token is an access token: revoke takes the refresh token (access tokens end when they expire)',
        };
      if (strict) return { error: 'invalid_grant', description: 'the token was not issued by this mock (strict tokens)' };
      // Lenient: a refresh token the mock never issued is revoked all the same, and refused from now on.
      endRefreshToken(adoptRefreshToken(token, ''), 'revoked', now);
      return undefined;
    },

    authenticate(value) {
      const now = clock.now();
      const token = accessTokens.get(value);
      if (!token) {
        if (refreshTokens.has(value))
          return { ok: false, reason: 'the token is a refresh token: send an access token (grant_type=refresh_token gives one)' };
        if (codes.has(value))
          return { ok: false, reason: 'the token is a grant token: exchange it for an access token at POST /oauth/v2/token' };
        if (strict) return { ok: false, reason: 'the access token was not issued by this mock (strict tokens)' };
        return { ok: true, scopes: 'every' };
      }
      if (token.refresh.ended) return { ok: false, reason: endedMessage('its refresh token', token.refresh.ended) };
      if (token.evictedAt !== undefined)
        return {
          ok: false,
          reason: `the access token was deleted at ${serviceTime(token.evictedAt)}, when its refresh token's access tokens exceeded ${tokenLimits.activeAccessTokensPerRefreshToken} (the 11th deletes the first)`,
        };
      if (now >= token.expiresAt)
        return {
          ok: false,
          reason: `the access token expired at ${serviceTime(token.expiresAt)} (expires_in ${accessTokenLifetimeS} s): get a new one with grant_type=refresh_token`,
        };
      return { ok: true, scopes: token.refresh.scopes };
    },

    counts() {
      const now = clock.now();
      const counts: TokenCounts = {
        clients: [...clients.values()].filter((client) => client.secret !== undefined).length,
        grant_codes: { unused: 0, used: 0, expired: 0 },
        refresh_tokens: { active: 0, revoked: 0, deleted: 0 },
        access_tokens: { active: 0, expired: 0, deleted: 0, revoked: 0 },
      };
      for (const code of codes.values()) {
        if (code.validityMinutes === 0) continue; // adopted
        counts.grant_codes[code.usedAt !== undefined ? 'used' : now >= code.expiresAt ? 'expired' : 'unused']++;
      }
      for (const refresh of refreshTokens.values()) {
        if (refresh.adopted) continue;
        counts.refresh_tokens[refresh.ended ? refresh.ended.reason : 'active']++;
      }
      for (const token of accessTokens.values()) {
        if (token.refresh.ended) counts.access_tokens[token.refresh.ended.reason]++;
        else if (token.evictedAt !== undefined) counts.access_tokens.deleted++;
        else counts.access_tokens[now >= token.expiresAt ? 'expired' : 'active']++;
      }
      return counts;
    },

    reset() {
      clients = new Map();
      codes = new Map();
      refreshTokens = new Map();
      accessTokens = new Map();
      userRefreshTokens = [];
    },
  };
}
