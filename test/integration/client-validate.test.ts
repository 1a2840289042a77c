// The client's opt-in answer check (`validate: answerSchema`, or `true`): an answer that drifts from the contract rejects with a
// ServiceError of kind `contract` naming the JSON pointer and the rule; the documented answers of the mock pass,
// attributes the contract does not describe included; without the option nothing is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSchema } from '../../generated/zod.js';
import { type AnswerSchemas, createServiceClient, ServiceError } from '../../src/index.js';
import { createMockFetch } from '../../src/mock/index.js';
import { type DriftingService, issuedAccessToken, monitorId, startDriftingService } from '../support/drifting-service.js';

let service: DriftingService;
beforeAll(async () => {
  service = await startDriftingService();
});
afterAll(() => service?.stop());

const drifting = (validate: boolean | AnswerSchemas) =>
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

describe('validate: answerSchema (the schemas given by value)', () => {
  it('rejects a drifted answer as validate: true does', async () => {
    await expect(drifting(answerSchema).GET('/device_key')).rejects.toMatchObject({
      kind: 'contract',
      message: expect.stringMatching(/^The answer of GET \/device_key \(getDeviceKey, 200\) breaks the contract at \/data\/device_key: /),
    });
  });

  it('asks the given function for the schema of each answer, by operationId and status', async () => {
    const asked: [string, number][] = [];
    const client = drifting((operationId, status) => {
      asked.push([operationId, status]);
      return { safeParse: () => ({ success: false, error: { issues: [{ path: ['data', 'a/b'], message: 'not this', code: 'custom' }] } }) };
    });
    await expect(client.GET('/monitors')).rejects.toThrow(
      'The answer of GET /monitors (listMonitors, 200) breaks the contract at /data/a~1b: not this (custom).',
    );
    expect(asked).toEqual([['listMonitors', 200]]);
  });

  it('a value that is neither a boolean nor a function is a TypeError when the client is made', () => {
    expect(() => drifting('yes' as unknown as boolean)).toThrow(
      /^validate must be true, false or a function such as answerSchema, not "yes"$/,
    );
  });
});
