// The zod schemas of monitoring-service-api/zod (generated/zod.ts): every example of the description passes, the
// answers that break the contract fail with the place and the rule, and unknown attributes stay allowed (section 9).
import { describe, expect, it } from 'vitest';
import * as zodSchemas from '../../generated/zod.js';
import { answerSchema } from '../../generated/zod.js';
import { deref, loadBundle, operationsOf, type Json } from '../support/bundle.js';

const bundle = loadBundle();
const named = zodSchemas as unknown as Record<
  string,
  { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; code: string }[] } } }
>;

describe('every example of the description passes', () => {
  const cases: [string, () => { success: boolean }][] = [];
  for (const { operation } of operationsOf(bundle)) {
    for (const [status, raw] of Object.entries<Json>(operation.responses)) {
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
    ['a missing message', { code: 0, data: monitor.data }, 'message invalid_type'],
    ['no data at all', 'not json', ' invalid_type'],
  ])('%s', (_name, value, issue) => {
    expect(issues(value)).toContain(issue);
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
