// The client's opt-in answer check (`validate: true`): an answer that drifts from the contract rejects with a
// ServiceError of kind `contract` naming the JSON pointer and the rule; the documented answers of the mock pass,
// attributes the contract does not describe included; without the option nothing is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, ServiceError } from '../../src/index.js';
import { createMockFetch } from '../../src/mock/index.js';
import { issuedAccessToken, monitorId, startDriftingService, type DriftingService } from '../support/drifting-service.js';

let service: DriftingService;
beforeAll(async () => {
  service = await startDriftingService();
});
afterAll(() => service?.stop());

const drifting = (validate: boolean) =>
  createServiceClient({ baseUrl: `${service.origin}/api`, auth: { accessToken: issuedAccessToken }, retry: false, validate });

describe('validate: true', () => {
  it('rejects a drifted answer with kind contract, its pointer and rule', async () => {
    const failure = await drifting(true)
      .GET('/device_key')
      .catch((error: unknown) => error);
    expect(ServiceError.is(failure)).toBe(true);
    expect(failure).toMatchObject({ kind: 'contract', status: 200, operation: { operationId: 'getDeviceKey' } });
    expect((failure as ServiceError).message).toMatch(
      /^The answer of GET \/device_key \(getDeviceKey, 200\) breaks the contract at \/data\/device_key: .*\(invalid_type\)\.$/,
    );
  });

  it('names a missing required attribute', async () => {
    await expect(drifting(true).GET('/monitors/{monitor_id}', { params: { path: { monitor_id: monitorId } } })).rejects.toMatchObject({
      kind: 'contract',
      message: expect.stringContaining('(getMonitor, 200) breaks the contract at /message'),
    });
  });

  it('passes the documented answers of the mock, and checks nothing without the option', async () => {
    const mockFetch = createMockFetch();
    const client = createServiceClient({ baseUrl: mockFetch.baseUrl, fetch: mockFetch, auth: { accessToken: 'any' }, validate: true });
    expect((await client.GET('/monitors')).length).toBeGreaterThan(0);
    expect(await client.GET('/device_key')).toMatchObject({ device_key: expect.any(String) });
    expect(await drifting(false).GET('/device_key')).toEqual({ device_key: 12345 });
  });
});
