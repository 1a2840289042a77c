// The package's TypeScript API report and its comparison, on small declaration files: what breaks users' code (an
// export removed, an option renamed, a type changed) and what does not (an export or an optional option added).
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { apiChanges, apiReportOf } from '../../scripts/lib/api-report.js';

/** The standard library's files, parsed once for every report of this file. */
const libraries = new Map<string, ts.SourceFile | undefined>();

/** The report of one entry made of `source`, served from memory (the standard library from disk). */
function reportOf(source: string) {
  const file = path.resolve('/virtual/index.d.ts');
  const host = ts.createCompilerHost({});
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  // The standard library without the DOM: the declarations below use none of it, and it is most of the parsing.
  host.getDefaultLibFileName = (options) => path.join(path.dirname(ts.getDefaultLibFilePath(options)), 'lib.es2022.d.ts');
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.getSourceFile = (name, version) => {
    if (name === file) return ts.createSourceFile(name, source, version);
    if (!libraries.has(name)) libraries.set(name, getSourceFile(name, version));
    return libraries.get(name);
  };
  return apiReportOf({ 'monitoring-service-api/constants': file }, host);
}

const release = `
export interface ServiceClientOptions { baseUrl?: string; timeoutMs?: number; auth: { accessToken: string } }
export declare function createServiceClient(options: ServiceClientOptions): { GET(path: string): Promise<unknown> };
export declare const SlaTypeValues: readonly [1, 2];
export type SlaType = 1 | 2;
`;

const changesTo = (revision: string) =>
  apiChanges(reportOf(release), reportOf(revision)).map((change) => `${change.ruleId} ${change.pointer}`);

describe('the API report', () => {
  it('lists every export with its kind and type, and the members of object types', () => {
    const report = reportOf(release)['monitoring-service-api/constants']!;
    expect(Object.keys(report)).toEqual(['createServiceClient', 'ServiceClientOptions', 'SlaType', 'SlaTypeValues']);
    expect(report.SlaTypeValues).toEqual({ kind: 'const', type: 'readonly [1, 2]', values: ['1', '2'] });
    expect(report.SlaType).toEqual({ kind: 'type', type: '1 | 2', values: ['1', '2'] });
    expect(report.createServiceClient).toMatchObject({
      kind: 'function',
      type: expect.stringContaining('(options: ServiceClientOptions)'),
    });
    expect(report.ServiceClientOptions!.members).toEqual({
      baseUrl: { type: 'string | undefined', optional: true },
      timeoutMs: { type: 'number | undefined', optional: true },
      auth: { type: '{ accessToken: string; }', optional: false },
    });
  });
});

describe('apiChanges', () => {
  it('refuses an export removed (a constant of monitoring-service-api/constants)', () => {
    expect(changesTo(release.replace('export declare const SlaTypeValues: readonly [1, 2];', ''))).toEqual([
      'export-removed monitoring-service-api/constants#SlaTypeValues',
    ]);
  });

  it('refuses an option of createServiceClient renamed', () => {
    expect(changesTo(release.replace('timeoutMs?: number', 'timeout?: number'))).toEqual([
      'export-changed monitoring-service-api/constants#ServiceClientOptions.timeoutMs',
    ]);
  });

  it('refuses a type changed, and a required option added', () => {
    expect(changesTo(release.replace('(options: ServiceClientOptions)', '(options: ServiceClientOptions, extra: number)'))).toEqual([
      'export-changed monitoring-service-api/constants#createServiceClient',
    ]);
    expect(changesTo(release.replace('auth: {', 'region: string; auth: {'))).toEqual([
      'export-changed monitoring-service-api/constants#ServiceClientOptions.region',
    ]);
  });

  it('refuses a value removed from a set; passes one added (an open enumeration)', () => {
    expect(changesTo(release.replace('export type SlaType = 1 | 2;', 'export type SlaType = 1;'))).toEqual([
      'export-changed monitoring-service-api/constants#SlaType',
    ]);
    expect(
      changesTo(
        release
          .replace('export type SlaType = 1 | 2;', 'export type SlaType = 1 | 2 | 3;')
          .replace('readonly [1, 2]', 'readonly [1, 2, 3]'),
      ),
    ).toEqual([]);
  });

  it('passes an export added and an optional option added', () => {
    expect(changesTo(`${release}\nexport declare const SlaTypeMeanings: readonly string[];`)).toEqual([]);
    expect(changesTo(release.replace('baseUrl?: string;', 'baseUrl?: string; insecure?: boolean;'))).toEqual([]);
  });
});
