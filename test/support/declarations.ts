// The API report of small declaration files served from memory (the standard library from disk), for the unit
// tests of the TypeScript API gate: one entry, `monitoring-service-api`, made of `index.d.ts`, with a
// `generated/types.d.ts` beside it to stand for the types made from the description.
import path from 'node:path';
import ts from 'typescript';
import { type ApiReport, apiReportOf } from '../../scripts/lib/api-report.js';

/** The standard library's files, parsed once for every report of the process. */
const libraries = new Map<string, ts.SourceFile | undefined>();

const folder = path.resolve('/virtual');

/** The report of one entry, `index` (a .d.ts text), with `generated` as `./generated/types.js` beside it. */
export function reportOf(index: string, generated = 'export {};'): ApiReport {
  const files = new Map([
    [path.join(folder, 'index.d.ts'), index],
    [path.join(folder, 'generated', 'types.d.ts'), generated],
  ]);
  const host = ts.createCompilerHost({});
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  // The standard library without the DOM: the declarations use none of it, and it is most of the parsing.
  host.getDefaultLibFileName = (options) => path.join(path.dirname(ts.getDefaultLibFilePath(options)), 'lib.es2022.d.ts');
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.directoryExists = (name) => name === folder || name === path.join(folder, 'generated') || ts.sys.directoryExists(name);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.getSourceFile = (name, version) => {
    const text = files.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, version);
    if (!libraries.has(name)) libraries.set(name, getSourceFile(name, version));
    return libraries.get(name);
  };
  return apiReportOf({ 'monitoring-service-api': path.join(folder, 'index.d.ts') }, host);
}
