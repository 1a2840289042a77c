// The bundled description, as the tests read it.
import { readFileSync } from 'node:fs';
import { outputs } from '../../scripts/lib/paths.js';
import type { Json } from '../../src/description/openapi.js';

export { deref, isRecord, type Json, operationsOf } from '../../src/description/openapi.js';

export function loadBundle(): Json {
  return JSON.parse(readFileSync(outputs().bundleJson, 'utf8'));
}
