// The package's TypeScript API report, on small declaration files: what it lists of each export (members, values,
// signatures), which way each type's values flow, and which exports are made from the description. The verdicts on
// changes are the corpus of test/unit/gate-corpus.test.ts.
import { describe, expect, it } from 'vitest';
import { canonicalType, typeShift, unionParts } from '../../scripts/lib/api-changes.js';
import { reportOf } from '../support/declarations.js';

const release = `
import type { components } from './generated/types.js';
export type { components } from './generated/types.js';
export interface ServiceClientOptions { baseUrl?: string; timeoutMs?: number; auth: { accessToken: string }; onAnswer?: (answer: Answer) => void }
export interface Answer { status: number; body?: unknown }
export interface ServiceClient { get(path: string, init?: CallInit): Promise<Answer> }
export interface CallInit { signal?: AbortSignal }
export declare function createServiceClient(options: ServiceClientOptions): ServiceClient;
export declare const SlaTypeValues: readonly [1, 2];
export type SlaType = 1 | 2;
export type Monitor = components['schemas']['Monitor'];
`;
const generated = `export interface components { schemas: { Monitor: { monitor_id: string } } }`;

describe('the API report', () => {
  const report = reportOf(release, generated)['monitoring-service-api']!;

  it('lists every export with its kind, and the members of object types', () => {
    expect(Object.keys(report)).toEqual([
      'Answer',
      'CallInit',
      'components',
      'createServiceClient',
      'Monitor',
      'ServiceClient',
      'ServiceClientOptions',
      'SlaType',
      'SlaTypeValues',
    ]);
    expect(report.ServiceClientOptions!.members).toMatchObject({
      baseUrl: { type: 'string | undefined', optional: true },
      auth: { type: '{ accessToken: string; }', optional: false },
    });
  });

  it('lists the values of sets and the signatures of functions', () => {
    expect(report.SlaTypeValues).toMatchObject({ kind: 'const', type: 'readonly [1, 2]', values: ['1', '2'] });
    expect(report.SlaType).toMatchObject({ kind: 'type', type: '1 | 2', values: ['1', '2'] });
    expect(report.createServiceClient!.signatures).toEqual([
      { parameters: [{ name: 'options', type: 'ServiceClientOptions', optional: false }], returns: 'ServiceClient' },
    ]);
  });

  it('knows which way values flow: options in, results out, a callback its parameter out', () => {
    expect(report.ServiceClientOptions!.direction).toBe('input');
    expect(report.CallInit!.direction).toBe('input');
    expect(report.ServiceClient!.direction).toBe('output');
    expect(report.Answer!.direction).toBe('output');
  });

  it('marks what is made from the description: its generated types and aliases of them', () => {
    expect(report.components!.fromDescription).toBe(true);
    expect(report.Monitor!.fromDescription).toBe(true);
    expect(report.ServiceClientOptions!.fromDescription).toBeUndefined();
  });
});

describe('comparing printed types', () => {
  it('splits a union at its top level only', () => {
    expect([...unionParts('"a|b" | { x: 1 | 2; } | (() => void) | undefined')]).toEqual([
      '"a|b"',
      '{ x: 1 | 2; }',
      '(() => void)',
      'undefined',
    ]);
  });

  it('writes a type with every union in one order', () => {
    expect(canonicalType('("b" | "a")[] | undefined')).toBe('("a" | "b")[] | undefined');
  });

  it('tells a type widened from one narrowed, changed or the same in another order', () => {
    expect(typeShift('"a" | "b"', '"a" | "b" | "c"')).toBe('widened');
    expect(typeShift('"a" | "b"', '"a"')).toBe('narrowed');
    expect(typeShift('string', 'number')).toBe('changed');
    expect(typeShift('"a" | "b"', '"b" | "a"')).toBe('same');
    // Inside parentheses too: an array of a union, a union of unions.
    expect(typeShift('("path" | "method" | "server")[]', '("method" | "path" | "server")[]')).toBe('same');
    expect(typeShift('("b" | "a")[] | undefined', 'undefined | ("a" | "b")[]')).toBe('same');
    expect(typeShift('("a" | "b")[]', '("a" | "c")[]')).toBe('changed');
    expect(typeShift('f(")" | "(")', 'f("(" | ")")')).toBe('same');
  });
});
