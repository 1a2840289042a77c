// What the identity provider remembers: registered (or adopted) clients, grant tokens, refresh tokens and their
// access tokens, and the user's refresh tokens in the order they were issued. The rules that change these records
// are in tokens.ts; this file holds the records, how a token value looks, and the counts the state shows.
import { randomBytes } from 'node:crypto';
import { tokenLimits } from '../../generated/client.js';
import { serviceTime } from './clock.js';
import type { TokenCounts } from './types.js';

export const minute = 60_000;

export interface Client {
  id: string;
  /** Undefined for a client ID the mock adopted (lenient): its secret is not checked. */
  secret: string | undefined;
  /** When the client's refresh tokens were generated, for the 20 in 10 minutes. */
  refreshTokensGenerated: number[];
}

export interface GrantCode {
  clientId: string;
  /** The role ID of the user it belongs to; undefined: the seed's role, when it is exchanged. */
  role: number | undefined;
  scopes: string[];
  expiresAt: number;
  /** 0 for a grant token the mock adopted (lenient): it is not counted. */
  validityMinutes: number;
  usedAt?: number;
}

export interface Ending {
  reason: 'revoked' | 'deleted';
  at: number;
}

export interface RefreshToken {
  value: string;
  clientId: string;
  /** The role ID of its user; undefined: the seed's role (a token the mock adopted). */
  role: number | undefined;
  scopes: ReadonlySet<string> | 'every';
  /** Its value was made up by a client (the mock adopted it), not issued. */
  adopted: boolean;
  /** The records it belongs to, with its access tokens: the test API's, or those of what clients made up. */
  records: TokenRecords;
  ended?: Ending;
  /** When access tokens were generated from it (refresh grant), for the 10 in 10 minutes. */
  accessTokensGenerated: number[];
  /** Its access tokens, oldest first. */
  accessTokens: AccessToken[];
}

export interface AccessToken {
  value: string;
  refresh: RefreshToken;
  expiresAt: number;
  evictedAt?: number;
}

/** What the identity provider remembers of one origin, each kind bounded (rememberedRecords). */
export interface TokenRecords {
  clients: ClientMap;
  codes: Map<string, GrantCode>;
  refreshTokens: Map<string, RefreshToken>;
  accessTokens: Map<string, AccessToken>;
}

/**
 * What the identity provider remembers, by origin, so that what a client makes up never evicts what the test API
 * made: `own` holds the clients it registered, the grant tokens it generated and the tokens issued from them;
 * `adopted` the credentials clients made up (lenient) and the tokens issued from those; `revoked` the made-up refresh
 * tokens a client revoked, which are never adopted again while they are remembered (only other revocations of
 * made-up tokens evict them).
 */
export interface TokenStore {
  own: TokenRecords;
  adopted: TokenRecords;
  revoked: Map<string, RefreshToken>;
  /** The user's issued refresh tokens, oldest first (for the 20 per user). */
  userRefreshTokens: RefreshToken[];
}

/**
 * How many of each kind of record the identity provider remembers of each origin (the mock's own bound: the
 * documents give none). Lenient, it adopts every credential it never issued, so without a bound a client sending
 * made-up values would grow the process without end; past the bound, the oldest record of that origin is forgotten
 * (a forgotten credential is then one the mock never issued). A test suite stays far below: the identity provider's
 * own limits cap what one client gets.
 */
export const rememberedRecords = { clients: 1_000, grantCodes: 1_000, refreshTokens: 1_000, accessTokens: 10_000, revoked: 1_000 } as const;

/** A Map that forgets its oldest entry (in the order of insertion) once it holds more than `limit`. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    if (this.size > this.limit) this.delete(this.keys().next().value as K);
    return this;
  }
}

/**
 * The clients by ID, bounded, and the secrets they hold: whether a value is a client's secret is one lookup, whatever
 * the number of clients (the journal asks it of every long string an exchange carries).
 */
export class ClientMap extends BoundedMap<string, Client> {
  private readonly secrets = new Map<string, number>();

  override set(id: string, client: Client): this {
    this.forget(this.get(id));
    if (client.secret !== undefined) this.secrets.set(client.secret, (this.secrets.get(client.secret) ?? 0) + 1);
    return super.set(id, client);
  }

  // The oldest client leaves through delete (BoundedMap.set): its secret leaves with it.
  override delete(id: string): boolean {
    this.forget(this.get(id));
    return super.delete(id);
  }

  override clear(): void {
    this.secrets.clear();
    super.clear();
  }

  holdsSecret(value: string): boolean {
    return this.secrets.has(value);
  }

  private forget(client: Client | undefined): void {
    if (client?.secret === undefined) return;
    const count = this.secrets.get(client.secret) ?? 0;
    if (count <= 1) this.secrets.delete(client.secret);
    else this.secrets.set(client.secret, count - 1);
  }
}

const emptyRecords = (): TokenRecords => ({
  clients: new ClientMap(rememberedRecords.clients),
  codes: new BoundedMap(rememberedRecords.grantCodes),
  refreshTokens: new BoundedMap(rememberedRecords.refreshTokens),
  accessTokens: new BoundedMap(rememberedRecords.accessTokens),
});

export const emptyStore = (): TokenStore => ({
  own: emptyRecords(),
  adopted: emptyRecords(),
  revoked: new BoundedMap(rememberedRecords.revoked),
  userRefreshTokens: [],
});

/** The records of a kind, each origin's, in the order they are looked up: the test API's first. */
const both = <K extends keyof TokenRecords>(store: TokenStore, kind: K): TokenRecords[K][] => [store.own[kind], store.adopted[kind]];

/** The client of an ID, registered or adopted. */
export const findClient = (store: TokenStore, id: string): Client | undefined => store.own.clients.get(id) ?? store.adopted.clients.get(id);
export const findCode = (store: TokenStore, code: string): GrantCode | undefined =>
  store.own.codes.get(code) ?? store.adopted.codes.get(code);
/** A refresh token: issued from the test API's grants, revoked though made up, or adopted. */
export const findRefreshToken = (store: TokenStore, value: string): RefreshToken | undefined =>
  store.own.refreshTokens.get(value) ?? store.revoked.get(value) ?? store.adopted.refreshTokens.get(value);
export const findAccessToken = (store: TokenStore, value: string): AccessToken | undefined =>
  store.own.accessTokens.get(value) ?? store.adopted.accessTokens.get(value);

/** Whether a value is a credential the identity provider holds: a token, a grant token, a client's ID or secret. */
export function holdsCredential(store: TokenStore, value: string): boolean {
  if (findAccessToken(store, value) || findRefreshToken(store, value) || findCode(store, value) || findClient(store, value)) return true;
  return both(store, 'clients').some((clients) => clients.holdsSecret(value));
}

/** How many records of each kind it holds, of every origin. */
export function rememberedCounts(store: TokenStore) {
  const size = (kind: keyof TokenRecords) => both(store, kind).reduce((sum, map) => sum + map.size, 0);
  return {
    clients: size('clients'),
    grant_codes: size('codes'),
    refresh_tokens: size('refreshTokens') + store.revoked.size,
    access_tokens: size('accessTokens'),
  };
}

/**
 * The most bytes one record of each kind holds in memory (keptBytes' measure, src/simulator/accounts.ts: an object
 * about 56 bytes and 8 a field, a list 16 and 8 an item, a text 16 and its characters), with its map's slot: its texts
 * at their longest (maxCredentialLength), its lists at their bounds (a client's refresh tokens of a window, 21; a grant's
 * scopes, each documented one once; a refresh token's access tokens and their times, 11 each). What a world holds is
 * counted by these (heldBytes), above what a record really holds.
 */
export const recordBytes = { client: 1_400, grantCode: 2_300, refreshToken: 3_100, accessToken: 400 } as const;

/** The bytes the records of a store hold, at most (recordBytes): counted in constant time. */
export function heldBytes(store: TokenStore): number {
  const sizes = (kind: keyof TokenRecords) => both(store, kind).reduce((sum, map) => sum + map.size, 0);
  return (
    sizes('clients') * recordBytes.client +
    sizes('codes') * recordBytes.grantCode +
    (sizes('refreshTokens') + store.revoked.size) * recordBytes.refreshToken +
    sizes('accessTokens') * recordBytes.accessToken
  );
}

/**
 * The longest credential the identity provider reads (client ID, secret, grant token, refresh token): the mock's
 * own bound, well above what it issues (70 characters) and what the documents' examples show; longer is a 400.
 */
export const maxCredentialLength = 256;

/** A token in the form the documents' examples show: `1000.` and two groups of 32 hexadecimal digits. */
export const tokenValue = () => `1000.${randomBytes(16).toString('hex')}.${randomBytes(16).toString('hex')}`;

/** A client ID and secret in the form of the documents' examples. */
export const clientCredentials = () => ({
  id: `1000.${randomBytes(15).toString('hex').toUpperCase()}`,
  secret: randomBytes(21).toString('hex'),
});

/** The entries of a list of times within the window that ends now. */
export const withinWindow = (times: number[], now: number, windowMs: number): number[] => times.filter((time) => time > now - windowMs);

/** Why a refresh token (or an access token through it) is refused once it has ended. */
export const endedMessage = (what: string, ending: Ending) =>
  ending.reason === 'revoked'
    ? `${what} was revoked at ${serviceTime(ending.at)}`
    : `${what} was deleted at ${serviceTime(ending.at)}, when the user's refresh tokens exceeded ${tokenLimits.refreshTokensPerUser} (the oldest is deleted, in use or not)`;

/** The counts `GET /__mock/state` shows: never a token value. Adopted credentials are not counted. */
export function countTokens(store: TokenStore, now: number): TokenCounts {
  const counts: TokenCounts = {
    clients: [...store.own.clients.values()].filter((client) => client.secret !== undefined).length,
    grant_codes: { unused: 0, used: 0, expired: 0 },
    refresh_tokens: { active: 0, revoked: 0, deleted: 0 },
    access_tokens: { active: 0, expired: 0, deleted: 0, revoked: 0 },
  };
  for (const code of both(store, 'codes').flatMap((codes) => [...codes.values()])) {
    if (code.validityMinutes === 0) continue;
    counts.grant_codes[code.usedAt !== undefined ? 'used' : now >= code.expiresAt ? 'expired' : 'unused']++;
  }
  for (const refresh of [...both(store, 'refreshTokens'), store.revoked].flatMap((tokens) => [...tokens.values()])) {
    if (refresh.adopted) continue;
    counts.refresh_tokens[refresh.ended ? refresh.ended.reason : 'active']++;
  }
  for (const token of both(store, 'accessTokens').flatMap((tokens) => [...tokens.values()])) {
    if (token.refresh.ended) counts.access_tokens[token.refresh.ended.reason]++;
    else if (token.evictedAt !== undefined) counts.access_tokens.deleted++;
    else counts.access_tokens[now >= token.expiresAt ? 'expired' : 'active']++;
  }
  return counts;
}
