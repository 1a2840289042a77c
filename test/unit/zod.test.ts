// The zod schemas of monitoring-service-api/zod (generated/zod.ts): every example of the description passes (of
// answers, request bodies and schemas), answers that break the contract fail with the place and the rule, and unknown
// attributes stay allowed (section 9).
import { describe, expect, it } from 'vitest';
import * as zodSchemas from '../../generated/zod.js';
import { answerSchema } from '../../generated/zod.js';
import { deref, type Json, loadBundle, operationsOf } from '../support/bundle.js';

const bundle = loadBundle();
const named = zodSchemas as unknown as Record<
  string,
  { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; code: string }[] } } }
>;

describe('every example of the description passes', () => {
  const cases: [string, () => { success: boolean }][] = [];
  for (const { operation } of operationsOf(bundle)) {
    for (const [status, raw] of Object.entries<Json>(operation.responses!)) {
      const response = deref(bundle, raw)!;
      for (const [mediaType, media] of Object.entries<Json>(response.content ?? {})) {
        if (!mediaType.startsWith('application/json')) continue;
        for (const [name, example] of Object.entries<Json>(media.examples ?? {})) {
          const value = deref(bundle, example)!.value;
          cases.push([
            `${operation.operationId} ${status} ${name}`,
            () => answerSchema(String(operation.operationId), status)!.safeParse(value),
          ]);
        }
      }
    }
  }
  // The examples of request bodies (JSON and form), against the named schema each body refers to.
  for (const { operation } of operationsOf(bundle)) {
    const body = deref(bundle, operation.requestBody);
    for (const [mediaType, media] of Object.entries<Json>(body?.content ?? {})) {
      const schemaName = String(media.schema.$ref).split('/').at(-1)!;
      for (const [name, example] of Object.entries<Json>(media.examples ?? {})) {
        const value = deref(bundle, example)!.value;
        cases.push([`${operation.operationId} request ${mediaType} ${name}`, () => named[`${schemaName}Schema`]!.safeParse(value)]);
      }
    }
  }
  for (const [name, schema] of Object.entries<Json>(bundle.components.schemas)) {
    (schema.examples ?? []).forEach((value: unknown, index: number) => {
      cases.push([`${name} example ${index}`, () => named[`${name}Schema`]!.safeParse(value)]);
    });
  }

  it('finds the examples', () => {
    expect(cases.length).toBeGreaterThan(30);
  });

  it.each(cases)('%s', (_name, parse) => {
    expect(parse().success).toBe(true);
  });
});

describe('answers that break the contract fail, naming the place and the rule', () => {
  const monitor = { code: 0, message: 'success', data: { monitor_id: '169863000000025001', display_name: 'Checkout' } };
  const issues = (value: unknown) => {
    const result = answerSchema('getMonitor', 200)!.safeParse(value);
    return result.success ? [] : result.error!.issues.map((issue) => `${issue.path.join('/')} ${issue.code}`);
  };

  it('passes the documented shape, with an attribute the contract does not describe', () => {
    expect(issues(monitor)).toEqual([]);
    expect(issues({ ...monitor, data: { ...monitor.data, new_attribute: 1 } })).toEqual([]);
  });

  it.each([
    ['a wrong type', { ...monitor, data: { ...monitor.data, monitor_id: 169863 } }, 'data/monitor_id invalid_type'],
    ['a monitor ID that is not digits', { ...monitor, data: { monitor_id: '16986x' } }, 'data/monitor_id invalid_format'],
    ['a missing message', { code: 0, data: monitor.data }, 'message invalid_type'],
    ['no data', { code: 0, message: 'success' }, 'data invalid_type'],
    ['no data at all', 'not json', ' invalid_type'],
  ])('%s', (_name, value, issue) => {
    expect(issues(value)).toContain(issue);
  });

  const failures = (operationId: string, status: number, value: unknown) => {
    const result = answerSchema(operationId, status)!.safeParse(value);
    return result.success ? [] : result.error!.issues.map((issue) => `${issue.path.join('/')} ${issue.code}`);
  };

  it.each([
    ['a list whose data is an object', 'listMonitors', 200, { message: 'success', data: { monitor_id: '1' } }, 'data invalid_type'],
    [
      'a list item without its ID',
      'listMonitors',
      200,
      { message: 'success', data: [{ monitor_id: '1' }, {}] },
      'data/1/monitor_id invalid_type',
    ],
    ['a device key answer without its code', 'getDeviceKey', 200, { message: 'success', data: { device_key: 'k' } }, 'code invalid_type'],
    [
      'a customer without its zaaid',
      'listMspCustomers',
      200,
      { code: 0, message: 'success', data: [{ name: 'Acme' }] },
      'data/0/zaaid invalid_type',
    ],
    [
      'a monitor type ID that is a number',
      'listMonitorTypes',
      200,
      { code: 0, message: 'success', data: [{ id: 1, name: 'x' }] },
      'data/0/id invalid_union',
    ],
    [
      'group creation data that is a string',
      'createMonitorGroup',
      201,
      { code: 0, message: 'success', data: 'created' },
      'data invalid_union',
    ],
    ['an error code that is a string', 'getMonitor', 404, { code: '1002', message: 'Monitor does not exist.' }, 'code invalid_type'],
    ['an error without its message', 'getMonitor', 500, { code: 500 }, 'message invalid_type'],
    [
      'a token answer without its access token',
      'requestToken',
      200,
      { expires_in: 3600, api_domain: 'x', token_type: 'Bearer' },
      ' invalid_union',
    ],
    ['a revocation answer without its status', 'revokeToken', 200, {}, 'status invalid_type'],
  ])('%s', (_name, operationId, status, value, issue) => {
    expect(failures(operationId, status, value)).toContain(issue);
  });

  it('an enumerated value outside its set', () => {
    expect(named.MonitorStatusSchema!.safeParse(99).success).toBe(false);
    expect(named.MonitorStatusSchema!.safeParse(10).success).toBe(true);
  });

  it('knows no answer for an unknown operation or status', () => {
    expect(answerSchema('noSuchOperation', 200)).toBeUndefined();
    expect(answerSchema('getMonitor', 299)).toBeUndefined();
  });
});
