// A service on 127.0.0.1 that plays a live account for `record`: an MSP account with two customers and a BU portal
// with one business unit, each with monitors of its own (chosen by the `Cookie: zaaid=...` header), behind the
// identity provider's refresh grant. It records every request, and can refuse a path, redirect, or be a normal
// account (customers and business units refused with the documented message).
import { envelope, type FaultServer, type Reply, startFaultServer } from './fault-server.js';

export const liveCredentials = {
  clientId: '1000.LIVECLIENTID',
  clientSecret: 'live-client-secret-must-stay-private',
  refreshToken: '1000.live-refresh-token-must-stay-private',
} as const;
export const liveAccessToken = '1000.live-access-token-0123456789';
export const liveDeviceKey = 'eu_0f1e2d3c4b5a69788796a5b4c3d2e1f0';

/** The monitors of each account, by zaaid ('' is the own account). */
export const liveMonitors: Record<string, { monitor_id: string; display_name: string; type: string }[]> = {
  '': [
    { monitor_id: '5001', display_name: 'Checkout', type: 'URL' },
    { monitor_id: '5002', display_name: 'Billing API', type: 'RESTAPI' },
  ],
  '71': [{ monitor_id: '7101', display_name: 'Initech shop', type: 'URL' }],
  '72': [],
  '81': [{ monitor_id: '8101', display_name: 'EU gateway', type: 'PING' }],
};

export interface LiveAccount {
  origin: string;
  server: FaultServer;
  /** Answer this reply to every request of a path (with its query). */
  refuse(path: string, reply: Reply): void;
  stop(): Promise<void>;
}

const notAuthorized: Reply = { status: 403, json: { code: 403, message: 'You are not authorized to perform this operation.' } };

export async function startLiveAccount(kind: 'msp and bu' | 'normal' = 'msp and bu'): Promise<LiveAccount> {
  const refusals = new Map<string, Reply>();
  const server = await startFaultServer((request) => {
    const refusal = refusals.get(request.url);
    if (refusal) return refusal;
    if (request.path === '/oauth/v2/token') {
      const form = new URLSearchParams(request.body);
      if (form.get('refresh_token') !== liveCredentials.refreshToken || form.get('client_secret') !== liveCredentials.clientSecret)
        return { status: 400, json: { error: 'invalid_code' } };
      return { json: { access_token: liveAccessToken, expires_in: 3600, api_domain: 'https://api.live.invalid', token_type: 'Bearer' } };
    }
    if (request.headers.authorization !== `Service-oauthtoken ${liveAccessToken}`)
      return { status: 401, json: { code: 401, message: 'Unauthorized' } };
    const zaaid = /zaaid=(\w+)/.exec(String(request.headers.cookie ?? ''))?.[1] ?? '';
    if (!(zaaid in liveMonitors)) return notAuthorized;
    switch (request.path) {
      case '/api/device_key':
        return { json: envelope({ device_key: zaaid ? `eu_${zaaid}` : liveDeviceKey }) };
      case '/api/monitors':
        return { json: { message: 'success', data: liveMonitors[zaaid] } };
      case '/api/short/msp/customers':
        return kind === 'normal' || zaaid
          ? notAuthorized
          : {
              json: envelope([
                { name: 'Initech', zaaid: '71' },
                { name: 'Hooli', zaaid: '72' },
              ]),
            };
      case '/api/short/bu/business_units':
        return kind === 'normal' || zaaid ? notAuthorized : { json: envelope([{ name: 'Europe', zaaid: '81' }]) };
      default:
        return { status: 404, json: { code: 404, message: 'URL Not found' } };
    }
  });
  return {
    origin: server.origin,
    server,
    refuse: (path, reply) => refusals.set(path, reply),
    stop: () => server.stop(),
  };
}
