// The client's types follow the description (checked by tsc, which test/integration/typecheck.test.ts runs over the tests),
// and its table of operationIds matches the bundled description.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as entry from '../../src/index.js';
import {
  createServiceClient,
  type DeviceKey,
  type ManagedAccount,
  type Monitor,
  operationIds,
  type ServiceClient,
  ServiceError,
  type ServiceErrorKind,
  type ServiceResult,
} from '../../src/index.js';
import { loadBundle, operationsOf } from '../support/bundle.js';

/** Never called: its body only has to compile (or fail to, where marked). */
async function typedUsage(client: ServiceClient) {
  expectTypeOf(await client.GET('/monitors')).toEqualTypeOf<Monitor[]>();
  expectTypeOf(await client.GET('/device_key')).toEqualTypeOf<DeviceKey>();
  expectTypeOf(await client.GET('/short/msp/customers')).toEqualTypeOf<ManagedAccount[]>();
  expectTypeOf(await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } })).toEqualTypeOf<Monitor>();
  expectTypeOf(await client.forAccount('1').GET('/short/bu/business_units')).toEqualTypeOf<ManagedAccount[]>();
  // The fields of the new group's data are not shown in the documents: an object or an array, if present.
  expectTypeOf(await client.POST('/monitor_groups', { body: { display_name: 'x' } })).toEqualTypeOf<
    { [key: string]: unknown } | unknown[] | undefined
  >();
  const raw = await client.request('GET', '/monitors');
  expectTypeOf(raw).toMatchTypeOf<ServiceResult<unknown>>();
  expectTypeOf(raw.data).toEqualTypeOf<Monitor[]>();
  expectTypeOf(raw.response).toEqualTypeOf<Response>();

  // Response objects are open (additionalProperties: true): fields the description does not name arrive typed unknown.
  const monitor = await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: '1' } } });
  expectTypeOf(monitor.monitor_id).toEqualTypeOf<string>();
  expectTypeOf(monitor.display_name).toEqualTypeOf<unknown>();
  const carried: Monitor = { monitor_id: '1', status: 1, name: 'Homepage' };
  void carried;
  expectTypeOf<DeviceKey>().toMatchTypeOf<{ device_key: string; [key: string]: unknown }>();

  // @ts-expect-error the path parameter is required
  await client.GET('/monitors/{monitor_id}');
  // @ts-expect-error monitor_id is a string
  await client.GET('/monitors/{monitor_id}', { params: { path: { monitor_id: 1 } } });
  // @ts-expect-error display_name is required
  await client.POST('/monitor_groups', { body: { description: 'no name' } });
  // @ts-expect-error the body is required
  await client.POST('/monitor_groups');
  // @ts-expect-error /monitors has no POST
  await client.POST('/monitors', { body: {} });
  // @ts-expect-error the token endpoints are not resource calls
  await client.POST('/oauth/v2/token');
  // @ts-expect-error not a documented path
  await client.GET('/monitor');
  // @ts-expect-error no body on a GET
  await client.GET('/monitors', { body: { a: 1 } });
  // @ts-expect-error dataCenter is one of the ten ids
  createServiceClient({ dataCenter: 'mars', auth: { accessToken: 't' } });
  // @ts-expect-error a refresh token needs its client ID and secret
  createServiceClient({ dataCenter: 'eu', auth: { refreshToken: 'r' } });
}
void typedUsage;

describe('types and tables', () => {
  it('ServiceError kinds and fields', () => {
    expectTypeOf<ServiceError['kind']>().toEqualTypeOf<ServiceErrorKind>();
    expectTypeOf<ServiceError['status']>().toEqualTypeOf<number>();
    expectTypeOf<ServiceError['code']>().toEqualTypeOf<number | undefined>();
    const error = new ServiceError({ kind: 'network', message: 'x', operation: { method: 'GET', path: '/monitors' } });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ServiceError', status: 0, code: undefined, attempts: 0 });
  });

  it('operationIds names every operation of the bundled description, as it does', () => {
    const fromBundle = operationsOf(loadBundle()).map(({ path, method, operation }) => [path, method, operation.operationId]);
    const fromTable = Object.entries(operationIds).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, id]) => [path, method, id]),
    );
    expect(fromTable.sort()).toEqual(fromBundle.sort());
  });

  it('the entry exports the public API and the generated data centers', () => {
    for (const name of [
      'createServiceClient',
      'ServiceError',
      'exchangeGrantCode',
      'refreshAccessToken',
      'revokeRefreshToken',
      'parseTimestamp',
      'formatTimestamp',
      'dataCenters',
      'apiVersion',
      'tokenLimits',
    ]) {
      expect(entry, name).toHaveProperty(name);
    }
    expect(Object.keys(entry.dataCenters)).toHaveLength(10);
  });
});
