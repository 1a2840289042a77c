// The e2e tier's global setup (vitest.config.ts): a folder for the whole run, which its files share across their
// processes (the package packed once: sharedPackage in consumer-project.ts), removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { scratchRoot } from './consumer-project.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run of the e2e tier, shared by its files. */
    e2eShared: string;
  }
}

export default function setup(project: TestProject) {
  const shared = mkdtempSync(path.join(scratchRoot(), 'e2e-run-'));
  project.provide('e2eShared', shared);
  return () => rmSync(shared, { recursive: true, force: true });
}
