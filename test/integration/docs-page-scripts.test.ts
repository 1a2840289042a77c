// The docs page's own scripts (the console, and the loader that starts Redoc) in the browsers the package supports
// (decision 0023): they name no API one of them lacks. The console is bundled as the build bundles it (esbuild);
// the loader is read from the built page. What they do in Chromium is test/e2e/docs-console.test.ts.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { newerFeaturesIn } from '../../scripts/lib/browser-support.js';
import { consoleAssets } from '../../scripts/lib/docs-console.js';
import { outputs } from '../../scripts/lib/paths.js';

it("names no API that a supported browser lacks, in the console's script nor in the page's loader", async () => {
  const { script } = await consoleAssets();
  expect(script.length).toBeGreaterThan(1000);
  expect(newerFeaturesIn(script), "the console's script").toEqual([]);
  const modules = [...readFileSync(outputs().docs, 'utf8').matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
    (match) => match[1]!,
  );
  expect(modules, 'one module script: the loader').toHaveLength(1);
  expect(modules[0]).toContain('DecompressionStream');
  expect(newerFeaturesIn(modules[0]!), "the page's loader").toEqual([]);
});
