// A client's options, checked once when it is created (a TypeError names the first wrong one), with their defaults:
// the addresses, the version, the limits of a call, and where its access tokens come from.
import { apiVersion } from '../../generated/client.js';
import { credentialAddress } from '../fetch/address.js';
import type { FetchLike } from '../fetch/exchange.js';
import { defaultSleep, type RetryOptions, resolveRetry, type Sleep } from '../fetch/retry.js';
import { OptionError, option, positiveNumber, wording } from '../options.js';
import { dataCenterOf, defaultTimeoutMs, fixedToken, RefreshingTokens, type TokenSource } from './auth.js';
import type { ServiceClientOptions } from './client.js';

export interface ClientSettings {
  baseUrl: string;
  authUrl: string | undefined;
  version: string;
  timeoutMs: number;
  retry: RetryOptions;
  fetch: FetchLike;
  clock: () => number;
  sleep: Sleep;
  tokens: TokenSource;
}

/** The options of `createServiceClient`, checked one after the other (the first wrong one throws), with their defaults. */
export function clientSettings(options: ServiceClientOptions): ClientSettings {
  const center = options.dataCenter === undefined ? undefined : dataCenterOf(options.dataCenter);
  const rawBaseUrl = options.baseUrl ?? center?.baseUrl;
  if (!rawBaseUrl) throw new OptionError(wording`Give ${option('baseUrl')} (the API root, ending in /api) or ${option('dataCenter')}.`);
  const baseUrl = credentialAddress('baseUrl', rawBaseUrl, options.insecure);
  const authUrl = options.authUrl ? credentialAddress('authUrl', options.authUrl, options.insecure) : center?.authUrl;
  const version = options.version ?? apiVersion;
  if (!/^\d+(\.\d+)*$/.test(version))
    throw new OptionError(wording`${option('version')} must look like "2.0", not ${JSON.stringify(version)}`);
  const timeoutMs = positiveNumber('timeoutMs', options.timeoutMs, defaultTimeoutMs);
  const retry = resolveRetry(options.retry);
  const fetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const tokens = tokenSource(options, { authUrl, fetch, timeoutMs, clock });
  return { baseUrl, authUrl, version, timeoutMs, retry, fetch, clock, sleep, tokens };
}

/**
 * Where the client's access tokens come from: renewed from the refresh token (which needs the identity provider),
 * or the one given, which nothing renews.
 */
function tokenSource(
  options: ServiceClientOptions,
  settings: { authUrl: string | undefined; fetch: FetchLike; timeoutMs: number; clock: () => number },
): TokenSource {
  const auth = options.auth as Partial<Record<string, unknown>> | undefined;
  if (!auth || typeof auth !== 'object')
    throw new OptionError(wording`${option('auth')} is required: { clientId, clientSecret, refreshToken } or { accessToken }`);
  const { clientId, clientSecret, refreshToken, accessToken, accessTokenExpiresAt } = auth;
  if (clientId !== undefined || clientSecret !== undefined || refreshToken !== undefined) {
    for (const [name, value] of Object.entries({ clientId, clientSecret, refreshToken })) {
      if (typeof value !== 'string' || !value)
        throw new OptionError(wording`${option(`auth.${name}`)} is required with a refresh token (a non-empty string)`);
    }
    if (!settings.authUrl)
      throw new OptionError(
        wording`Renewing access tokens needs the identity provider: give ${option('authUrl')} (or ${option('dataCenter')}).`,
      );
    if (accessToken !== undefined && (typeof accessToken !== 'string' || !accessToken))
      throw new OptionError(wording`${option('auth.accessToken')} must be a non-empty string`);
    const expiresAt =
      accessTokenExpiresAt instanceof Date
        ? accessTokenExpiresAt.getTime()
        : typeof accessTokenExpiresAt === 'number'
          ? accessTokenExpiresAt
          : undefined;
    return new RefreshingTokens({
      authUrl: settings.authUrl,
      clientId: clientId as string,
      clientSecret: clientSecret as string,
      refreshToken: refreshToken as string,
      fetch: settings.fetch,
      timeoutMs: settings.timeoutMs,
      clock: settings.clock,
      renewalMarginMs: positiveNumber('renewalMarginMs', options.renewalMarginMs, 60_000),
      initial: typeof accessToken === 'string' ? { accessToken, expiresAt } : undefined,
      insecure: options.insecure,
      onTokenRenewed: options.onTokenRenewed,
    });
  }
  if (typeof accessToken !== 'string' || !accessToken)
    throw new OptionError(wording`${option('auth')} needs { clientId, clientSecret, refreshToken } or { accessToken }`);
  return fixedToken(accessToken);
}
