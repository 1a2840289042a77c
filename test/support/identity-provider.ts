// A small identity provider on 127.0.0.1 for the client's token flows: it answers the token and revoke endpoints
// the way the core document describes them, issues numbered access tokens (access-1, access-2...), and records
// and counts every request.
import { type FaultServer, type RecordedRequest, type Reply, startFaultServer } from './fault-server.js';

export const credentials = {
  clientId: '1000.TESTCLIENTID',
  clientSecret: 'test-client-secret-must-stay-private',
  refreshToken: '1000.test-refresh-token-must-stay-private',
} as const;

export const grantCode = '1000.test-grant-code';

export interface IdentityProvider {
  /** The `{auth_url}` of the provider. */
  origin: string;
  server: FaultServer;
  /** Access tokens issued so far, in order. */
  issued: string[];
  /** Refresh tokens revoked. */
  revoked: string[];
  /** `expires_in` of the next tokens, in seconds. Default 3600. */
  expiresIn: number;
  /** Delay of each token answer (to let concurrent calls pile up). */
  delayMs: number;
  /** When set, the token endpoint answers this instead of a token. */
  failWith: Reply | undefined;
  /** Requests of the refresh-token grant received. */
  refreshRequests(): RecordedRequest[];
  /** Every request received. */
  requests(): RecordedRequest[];
  stop(): Promise<void>;
}

const badRequest = (error: string): Reply => ({ status: 400, json: { error } });

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const server = await startFaultServer();
  const provider: IdentityProvider = {
    origin: server.origin,
    server,
    issued: [],
    revoked: [],
    expiresIn: 3600,
    delayMs: 0,
    failWith: undefined,
    refreshRequests: () =>
      server.requests.filter((request) => request.path === '/oauth/v2/token' && form(request).get('grant_type') === 'refresh_token'),
    requests: () => server.requests,
    stop: () => server.stop(),
  };
  const issue = () => {
    const token = `access-${provider.issued.length + 1}`;
    provider.issued.push(token);
    return token;
  };
  server.handle(async (request) => {
    if (request.method !== 'POST') return { status: 405, json: { error: 'method' } };
    // The parameters are accepted only as form fields here, so that a secret in a URL is an error the tests see.
    if (request.query.size > 0) return badRequest('parameters_in_url');
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return badRequest('not_form_encoded');
    const fields = form(request);
    if (request.path === '/oauth/v2/token/revoke') {
      const token = fields.get('token');
      if (!token) return badRequest('invalid_request');
      provider.revoked.push(token);
      return { json: { status: 'success' } };
    }
    if (request.path !== '/oauth/v2/token') return { status: 404, json: { error: 'not_found' } };
    if (provider.failWith) return provider.failWith;
    if (fields.get('client_id') !== credentials.clientId || fields.get('client_secret') !== credentials.clientSecret)
      return badRequest('invalid_client');
    const common = { expires_in: provider.expiresIn, api_domain: 'https://api.test.invalid', token_type: 'Bearer' };
    const grant = fields.get('grant_type');
    if (grant === 'refresh_token') {
      if (fields.get('refresh_token') !== credentials.refreshToken || provider.revoked.includes(credentials.refreshToken))
        return badRequest('invalid_code');
      return { json: { access_token: issue(), ...common }, delayMs: provider.delayMs };
    }
    if (grant === 'authorization_code') {
      if (fields.get('code') !== grantCode) return badRequest('invalid_code');
      return { json: { access_token: issue(), refresh_token: credentials.refreshToken, ...common }, delayMs: provider.delayMs };
    }
    return badRequest('unsupported_grant_type');
  });
  return provider;
}

export function form(request: RecordedRequest): URLSearchParams {
  return new URLSearchParams(request.body);
}

/** The access token of a resource request, or undefined without a well-formed Authorization header. */
export function tokenOf(request: RecordedRequest): string | undefined {
  const match = /^Service-oauthtoken (\S+)$/.exec(String(request.headers.authorization ?? ''));
  return match?.[1];
}

/** The service's 401 answer. */
export const unauthorized: Reply = { status: 401, json: { code: 401, message: 'Unauthorized: the access token is invalid or expired.' } };
