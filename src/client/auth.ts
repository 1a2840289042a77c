// The identity provider: exchanging a grant code, getting access tokens from a refresh token, revoking a refresh
// token; and the access-token cache of a client (renewal ahead of expiry, one renewal at a time, the provider's limit).
import {
  accessTokenLifetimeSecondsShown,
  accessTokensFromRefreshTokens,
  createAuthClient,
  type DataCenterId,
  dataCenters,
} from '../../generated/client.js';
import type { components } from '../../generated/types.js';
import { credentialAddress } from '../fetch/address.js';
import { abortError, exchange, type FetchLike, untilAborted } from '../fetch/exchange.js';
import { OptionError, option, wording } from '../options.js';
import { describeErrorBody, type OperationInfo, ServiceError } from './errors.js';
import { operationInfo } from './operations.js';

/** Where the identity provider is and how to reach it. */
export interface IdentityProviderOptions {
  /** The data center whose identity provider to use (one of the ids of `dataCenters`). */
  dataCenter?: DataCenterId;
  /** The identity provider's address (`{auth_url}`), instead of or overriding the data center's. */
  authUrl?: string;
  /** Custom fetch. Default: the global fetch. */
  fetch?: FetchLike;
  /** Time limit of the request, answer included. Default 30 000 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Allow a plain-http identity provider on another machine (credentials then cross the network unencrypted). */
  insecure?: boolean;
}

/** An access token from the identity provider. */
export interface AccessTokenResult {
  accessToken: string;
  /** Lifetime in seconds (`expires_in`). */
  expiresIn: number;
  /** `api_domain` of the answer. */
  apiDomain: string | undefined;
  /** `token_type` of the answer (`Bearer` in the documents; the service still wants `Service-oauthtoken`). */
  tokenType: string | undefined;
}

/** The answer of the authorization-code grant: an access token and the permanent refresh token. */
export interface GrantTokens extends AccessTokenResult {
  refreshToken: string;
}

export const defaultTimeoutMs = 30_000;

/** The identity provider's address: `authUrl`, or the data center's. */
export function resolveAuthUrl(options: {
  dataCenter?: DataCenterId | undefined;
  authUrl?: string | undefined;
  insecure?: boolean | undefined;
}): string {
  if (options.authUrl) return credentialAddress('authUrl', options.authUrl, options.insecure);
  if (options.dataCenter !== undefined) return dataCenterOf(options.dataCenter).authUrl;
  throw new OptionError(wording`Give ${option('authUrl')} (or ${option('dataCenter')}: one of ${Object.keys(dataCenters).join(', ')}).`);
}

export function dataCenterOf(id: string): (typeof dataCenters)[DataCenterId] {
  if (!Object.hasOwn(dataCenters, id)) {
    throw new OptionError(
      wording`${option('dataCenter')} must be one of ${Object.keys(dataCenters).join(', ')}, not ${JSON.stringify(id)}.`,
    );
  }
  return dataCenters[id as DataCenterId];
}

const tokenOperation = operationInfo('post', '/oauth/v2/token');
const revokeOperation = operationInfo('post', '/oauth/v2/token/revoke');

function formBody(body: object | undefined): string {
  return new URLSearchParams(body as Record<string, string> | undefined).toString();
}

const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };

function authClient(options: IdentityProviderOptions, operation: OperationInfo) {
  const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  return createAuthClient({
    baseUrl: resolveAuthUrl(options),
    fetch: (request) => exchange(fetchImpl, request, { timeoutMs, signal: options.signal, operation }),
  });
}

function failure(operation: OperationInfo, response: Response, body: unknown, what: string): ServiceError {
  const { code, message } = describeErrorBody(body, response);
  return new ServiceError({
    kind: response.status === 429 ? 'rate-limit' : 'auth',
    status: response.status,
    code,
    message: `${what}: ${message}`,
    operation,
    body,
    response,
    attempts: 1,
  });
}

function readAccessToken(body: unknown, response: Response, what: string): AccessTokenResult & { refreshToken?: string } {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  // Some identity providers answer 200 with an error object: no access_token means no token.
  if (typeof record.access_token !== 'string' || !record.access_token) throw failure(tokenOperation, response, body, what);
  const expiresIn = Number(record.expires_in);
  return {
    accessToken: record.access_token,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : accessTokenLifetimeSecondsShown,
    apiDomain: typeof record.api_domain === 'string' ? record.api_domain : undefined,
    tokenType: typeof record.token_type === 'string' ? record.token_type : undefined,
    ...(typeof record.refresh_token === 'string' ? { refreshToken: record.refresh_token } : {}),
  };
}

/** Posts one of the two grants to the token endpoint as form fields and reads the tokens of the answer. */
async function postTokenGrant(options: IdentityProviderOptions, grant: components['schemas']['TokenGrant'], what: string) {
  const { data, error, response } = await authClient(options, tokenOperation).POST('/oauth/v2/token', {
    body: grant,
    bodySerializer: formBody,
    headers: formHeaders,
  });
  if (!response.ok) throw failure(tokenOperation, response, error, what);
  return { tokens: readAccessToken(data, response, what), data, response };
}

/**
 * Exchanges a grant code (generated in the developer console, valid 3 to 10 minutes, usable once) for an access
 * token and the permanent refresh token: `grant_type=authorization_code`, sent as form fields.
 */
export async function exchangeGrantCode(
  options: IdentityProviderOptions & { clientId: string; clientSecret: string; code: string },
): Promise<GrantTokens> {
  const what = 'Exchanging the grant code failed';
  const { tokens, data, response } = await postTokenGrant(
    options,
    { client_id: options.clientId, client_secret: options.clientSecret, code: options.code, grant_type: 'authorization_code' },
    what,
  );
  if (!tokens.refreshToken) {
    throw new ServiceError({
      kind: 'auth',
      status: response.status,
      message: `${what}: the answer has no refresh_token.`,
      operation: tokenOperation,
      body: data,
      response,
      attempts: 1,
    });
  }
  return { ...tokens, refreshToken: tokens.refreshToken };
}

/**
 * Gets a new access token from a refresh token (`grant_type=refresh_token`, form fields). The identity provider
 * allows at most `tokenLimits.accessTokensFromRefreshTokens.count` of these in its window: a client made by
 * `createServiceClient` counts them for you; this function does not.
 */
export async function refreshAccessToken(
  options: IdentityProviderOptions & { clientId: string; clientSecret: string; refreshToken: string },
): Promise<AccessTokenResult> {
  const { tokens } = await postTokenGrant(
    options,
    { client_id: options.clientId, client_secret: options.clientSecret, refresh_token: options.refreshToken, grant_type: 'refresh_token' },
    'Getting an access token from the refresh token failed',
  );
  const { refreshToken: _ignored, ...token } = tokens;
  return token;
}

/** Revokes a refresh token (form field `token`). Resolves when the identity provider confirms. */
export async function revokeRefreshToken(options: IdentityProviderOptions & { refreshToken: string }): Promise<void> {
  const what = 'Revoking the refresh token failed';
  const { data, error, response } = await authClient(options, revokeOperation).POST('/oauth/v2/token/revoke', {
    body: { token: options.refreshToken },
    bodySerializer: formBody,
    headers: formHeaders,
  });
  if (!response.ok) throw failure(revokeOperation, response, error, what);
  const status = typeof data === 'object' && data !== null ? (data as { status?: unknown }).status : undefined;
  if (status !== undefined && status !== 'success') throw failure(revokeOperation, response, data, what);
}

// ---------------------------------------------------------------------------------------------------------------
// The token cache of a client.

/** A renewed access token, as `onTokenRenewed` sees it. */
export interface RenewedToken extends AccessTokenResult {
  /** When the token expires (clock time in ms). */
  expiresAt: number;
}

/** Where a client's access tokens come from. */
export interface TokenSource {
  /** Whether a refused token can be replaced (false for a token handed in without a refresh token). */
  readonly renewable: boolean;
  /** A valid access token, renewing it first when needed. */
  get(signal: AbortSignal | undefined, operation: OperationInfo): Promise<string>;
  /** Drops `token` if it is still the cached one (after a 401), so the next `get` renews. */
  invalidate(token: string): void;
}

/** A ready access token and nothing to renew it with. */
export function fixedToken(accessToken: string): TokenSource {
  return { renewable: false, get: async () => accessToken, invalidate: () => {} };
}

export interface RefreshingTokenOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  fetch: FetchLike;
  timeoutMs: number;
  clock: () => number;
  /** Renew this long before expiry (at most half the token's lifetime). */
  renewalMarginMs: number;
  /** The identity provider may be plain http on another machine (see IdentityProviderOptions). */
  insecure?: boolean | undefined;
  /** A token to start with, e.g. one saved from a previous run. */
  initial?: { accessToken: string; expiresAt?: number | undefined } | undefined;
  onTokenRenewed?: ((token: RenewedToken) => void) | undefined;
}

interface CachedToken {
  accessToken: string;
  renewAt: number;
}

/**
 * Access tokens from a refresh token: cached until `renewalMarginMs` before `expires_in` runs out; one renewal at
 * a time (concurrent callers wait for it); never more renewals than the identity provider allows in its window.
 */
export class RefreshingTokens implements TokenSource {
  readonly renewable = true;
  private current: CachedToken | undefined;
  private pending: Promise<string> | undefined;
  /** Clock times of the token requests sent, within the window. */
  private readonly sent: number[] = [];
  private readonly limit = accessTokensFromRefreshTokens;

  constructor(private readonly options: RefreshingTokenOptions) {
    const initial = options.initial;
    if (initial) {
      this.current = {
        accessToken: initial.accessToken,
        renewAt: initial.expiresAt === undefined ? Number.POSITIVE_INFINITY : initial.expiresAt - options.renewalMarginMs,
      };
    }
  }

  get(signal: AbortSignal | undefined, operation: OperationInfo): Promise<string> {
    if (this.current && this.options.clock() < this.current.renewAt) return Promise.resolve(this.current.accessToken);
    if (!this.pending) {
      const renewal = this.renew();
      this.pending = renewal;
      const clear = () => {
        if (this.pending === renewal) this.pending = undefined;
      };
      renewal.then(clear, clear);
    }
    return untilAborted(this.pending, signal, (aborted) => abortError(aborted, operation));
  }

  invalidate(token: string): void {
    if (this.current?.accessToken === token) this.current = undefined;
  }

  private async renew(): Promise<string> {
    const { clock, renewalMarginMs } = this.options;
    const started = clock();
    const windowMs = this.limit.windowMinutes * 60_000;
    while (this.sent.length && this.sent[0]! <= started - windowMs) this.sent.shift();
    if (this.sent.length >= this.limit.count) {
      const retryAfterMs = this.sent[0]! + windowMs - started;
      throw new ServiceError({
        kind: 'rate-limit',
        message:
          `The client did not ask for a new access token: ${this.sent.length} were already requested from the refresh token ` +
          `in the last ${this.limit.windowMinutes} minutes, the identity provider's limit ` +
          `(at most ${this.limit.count} in ${this.limit.windowMinutes} minutes). Try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
        operation: tokenOperation,
        retryAfterMs,
      });
    }
    this.sent.push(started);
    const token = await refreshAccessToken({
      authUrl: this.options.authUrl,
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      refreshToken: this.options.refreshToken,
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs,
      ...(this.options.insecure ? { insecure: true } : {}),
    });
    const lifetimeMs = token.expiresIn * 1000;
    const expiresAt = started + lifetimeMs;
    this.current = { accessToken: token.accessToken, renewAt: expiresAt - Math.min(renewalMarginMs, lifetimeMs / 2) };
    this.options.onTokenRenewed?.({ ...token, expiresAt });
    return token.accessToken;
  }
}
