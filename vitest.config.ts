import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Three tiers, each an npm script (`npm run test:unit`, `test:integration`, `test:e2e`); `npm test` runs them all.
// - unit: pure functions and documents in this process: no child process, no socket, no browser. Seconds.
// Unit and integration files share their worker's modules (isolate: false): the TypeScript compiler, Prism's engine
// and the bundle load once per worker. A file that patches a global puts it back (decisions/0010).
// - integration: the mock, the proxy and verify over loopback, lint, generated freshness, interop, typecheck.
// - e2e: the package as users get it (a packed tarball in fresh projects), the docs page in Chromium, and the release
//   check on a copy of the repository. Its files share a folder of the run (test/support/e2e-setup.ts): the package is
//   packed and installed alone once for them all (test/support/shared-package.ts).
export default defineConfig({
  // The tests run the sources: package.json's "imports" point into dist/, as the package ships (tsconfig.json's paths).
  resolve: { alias: { '#packaged-schemas': fileURLToPath(new URL('./src/client/packaged-schemas.ts', import.meta.url)) } },
  test: {
    // Suites start Prism, Chromium and the TypeScript compiler: give them room on a two-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/support/e2e-setup.ts'] } },
    ],
  },
});
