// The description this package ships, and the engine's operations of its mock document, made at build time by
// scripts/build.ts (reading the document takes the engine longer than the rest of the mock's start).

import operations from '../../generated/mock-operations.json' with { type: 'json' };
import bundle from '../../generated/openapi.json' with { type: 'json' };
import { mockDocumentOf } from '../description/mock-document.js';
import type { OpenApiDocument } from '../description/openapi.js';
import { createEngine, type Engine, type EngineMode, type PrecomputedOperations } from './prism.js';

export const packagedDescription: OpenApiDocument = bundle;
const packagedOperations: PrecomputedOperations = operations;

/** The engine on the mock document of a description (this package's by default). */
export function engineFor(
  description: OpenApiDocument | undefined,
  mode: EngineMode,
): { document: OpenApiDocument; engine: Promise<Engine> } {
  const source = description ?? packagedDescription;
  const document = mockDocumentOf(source);
  return { document, engine: createEngine(document, mode, source === packagedDescription ? packagedOperations : undefined) };
}
