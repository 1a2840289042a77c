// The x-codeSamples of the bundled description, and a type check of the TypeScript ones against the client in src/.
import path from 'node:path';
import ts from 'typescript';
import { root } from '../../scripts/lib/paths.js';
import { operationsOf, type Json } from './bundle.js';

export interface CodeSample {
  operationId: string;
  method: string;
  path: string;
  lang: string;
  label: string;
  source: string;
}

export function codeSamplesOf(bundle: Json): CodeSample[] {
  return operationsOf(bundle).flatMap(({ path: route, method, operation }) =>
    ((operation['x-codeSamples'] ?? []) as Json[]).map((sample) => ({
      operationId: String(operation.operationId),
      method,
      path: route,
      lang: String(sample.lang),
      label: String(sample.label ?? sample.lang),
      source: String(sample.source),
    })),
  );
}

/**
 * Compiles each TypeScript sample as an ES module of its own, with the project's compiler options and the package
 * name `monitoring-service-api` mapped to src/index.ts: what a reader who copies the sample gets. Returns the
 * diagnostics as `operationId:line: message`.
 */
export function typeCheckSamples(samples: CodeSample[]): string[] {
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  options.noEmit = true;
  options.paths = { 'monitoring-service-api': ['./src/index.ts'] };
  const virtualDir = path.join(root, 'test-results', 'code-samples');
  const files = new Map(samples.map((sample) => [path.join(virtualDir, `${sample.operationId}.mts`), sample]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.readFile = (file) => files.get(file)?.source ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, shouldCreate) => {
    const sample = files.get(file);
    return sample
      ? ts.createSourceFile(file, sample.source, language, true)
      : getSourceFile.call(host, file, language, onError, shouldCreate);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file === undefined || files.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file || diagnostic.start === undefined) return message;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${files.get(diagnostic.file.fileName)?.operationId}:${line + 1}: ${message}`;
    });
}
