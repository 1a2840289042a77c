// An implementation of the API that drifts from the contract on purpose, one kind of drift per operation, for the
// tests of verify. Loopback only; it records every request (method, path, headers, body, time of arrival).
import { type FaultServer, type RecordedRequest, type Reply, startFaultServer } from './fault-server.js';

export const monitorId = '169863000000025001';

/** The drifts, by operation, as verify must report them. */
export const drifts = {
  /** A success body without `message`. */
  missingMessage: { operation: 'getMonitor', pointer: '/message' },
  /** `device_key` as a number. */
  wrongType: { operation: 'getDeviceKey', pointer: '/data/device_key' },
  /** 418 on an operation that documents 200, 401, 403, 404, 500. */
  undocumentedStatus: { operation: 'listMspCustomers', status: 418 },
  /** `display_name` on every monitor: allowed (section 9). */
  extraAttribute: { operation: 'listMonitors', pointer: '/data/0/display_name' },
  /** `created_time` in RFC 3339 (`+05:30`), not the service's form (`+0530`). */
  rfc3339Timestamp: { operation: 'listBusinessUnits', pointer: '/data/0/created_time', value: '2026-11-21T10:00:00+05:30' },
} as const;

export const issuedAccessToken = '1000.drift-access-token-0123456789';

export interface DriftingService {
  /** The server's root: the API root is `${origin}/api`, the identity provider `${origin}`. */
  origin: string;
  server: FaultServer;
  /** Every request received, with its time of arrival (performance.now()). */
  requests: (RecordedRequest & { at: number })[];
  /** Answer the next requests of a path with 429 and this Retry-After (seconds), `times` times. */
  throttle(path: string, retryAfterSeconds: number, times?: number): void;
  /** Make the identity provider refuse the grant with an error that echoes the client ID and secret. */
  refuseGrants(): void;
  stop(): Promise<void>;
}

const success = (data: unknown, extra: Record<string, unknown> = {}): Reply => ({
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  json: { code: 0, message: 'success', data, ...extra },
});
const error = (status: number, code: number, message: string): Reply => ({
  status,
  headers: { 'Content-Type': 'application/json;charset=UTF-8' },
  json: { code, message },
});

export async function startDriftingService(): Promise<DriftingService> {
  const requests: DriftingService['requests'] = [];
  const throttles = new Map<string, { seconds: number; times: number }>();
  let refuse = false;
  const server = await startFaultServer((request) => {
    requests.push({ ...request, at: performance.now() });
    const throttle = throttles.get(request.path);
    if (throttle && throttle.times > 0) {
      throttle.times -= 1;
      return {
        status: 429,
        headers: { 'Retry-After': String(throttle.seconds), 'Content-Type': 'application/json;charset=UTF-8' },
        json: { code: 429, message: 'Too many requests' },
      };
    }
    if (request.path === '/oauth/v2/token' && request.method === 'POST') {
      const form = new URLSearchParams(request.body);
      if (refuse) {
        return {
          status: 400,
          headers: { 'Content-Type': 'application/json' },
          json: {
            error: 'invalid_client',
            error_description: `no client ${form.get('client_id')} with the secret ${form.get('client_secret')} for ${form.get('refresh_token')}`,
          },
        };
      }
      return {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
        json: { access_token: issuedAccessToken, expires_in: 3600, api_domain: 'https://api.drift.example', token_type: 'Bearer' },
      };
    }
    if (!request.path.startsWith('/api/')) return error(404, 404, 'URL Not found');
    if (request.headers.authorization !== `Service-oauthtoken ${issuedAccessToken}`) return error(401, 401, 'Unauthorized');
    const path = request.path.slice('/api'.length);
    if (request.method === 'POST' && path === '/monitor_groups')
      return {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
        json: { code: 0, message: 'success', data: { group_id: '1' } },
      };
    if (request.method !== 'GET') return error(405, 405, 'Method Not Allowed');
    switch (path) {
      case '/device_key':
        return success({ device_key: 12345 });
      case '/monitor_type_constants':
        return success([{ id: 'URL', name: 'Website' }]);
      case '/monitors':
        return {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
          json: {
            message: 'success',
            data: [
              { monitor_id: monitorId, display_name: 'Checkout' },
              { monitor_id: '169863000000025017', display_name: 'Billing' },
            ],
          },
        };
      case `/monitors/${monitorId}`:
        return { status: 200, headers: { 'Content-Type': 'application/json' }, json: { code: 0, data: { monitor_id: monitorId } } };
      case '/short/msp/customers':
        return { status: 418, headers: { 'Content-Type': 'application/json;charset=UTF-8' }, json: { code: 418, message: "I'm a teapot" } };
      case '/short/bu/business_units':
        return success([{ name: 'Unit A', zaaid: '800000001', created_time: drifts.rfc3339Timestamp.value }]);
      case '/admin/monitors':
        return { status: 200, headers: { 'Content-Type': 'application/json' }, json: { code: 0, message: 'success' } };
      default:
        if (path.startsWith('/monitors/')) return error(404, 1002, 'Monitor does not exist.');
        return error(404, 404, 'URL Not found');
    }
  });
  return {
    origin: server.origin,
    server,
    requests,
    throttle: (path, seconds, times = 1) => throttles.set(path, { seconds, times }),
    refuseGrants: () => {
      refuse = true;
    },
    stop: () => server.stop(),
  };
}
