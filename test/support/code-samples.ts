// The x-codeSamples of the bundled description. The TypeScript ones are type-checked against src/ as part of the
// repository (tsconfig.json includes openapi/code_samples/TypeScript/: test/integration/typecheck.test.ts).
import { isRecord, listOf, type OpenApiDocument, operationsOf } from '../../src/description/openapi.js';

export interface CodeSample {
  operationId: string;
  method: string;
  path: string;
  lang: string;
  label: string;
  source: string;
}

export function codeSamplesOf(bundle: OpenApiDocument): CodeSample[] {
  return operationsOf(bundle).flatMap(({ path: route, method, operation }) =>
    listOf(operation['x-codeSamples'])
      .filter(isRecord)
      .map((sample) => ({
        operationId: String(operation.operationId),
        method,
        path: route,
        lang: String(sample.lang),
        label: String(sample.label ?? sample.lang),
        source: String(sample.source),
      })),
  );
}
