// The bundled description, as the tests read it.
import { readFileSync } from 'node:fs';
import type { Json } from '../../src/description/openapi.js';
import { outputs } from '../../scripts/lib/paths.js';

export { deref, operationsOf, type Json } from '../../src/description/openapi.js';

export function loadBundle(): Json {
  return JSON.parse(readFileSync(outputs().bundleJson, 'utf8'));
}
