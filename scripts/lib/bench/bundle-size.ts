// What the client adds to a browser app's bundle, beside openapi-fetch alone (measured by scripts/lib/bundle-size.ts).
// A client bundle over its target makes the bench exit 1.
import { bundleRows, clientBundleTarget, measureBundles } from '../bundle-size.js';
import type { BenchSection } from './section.js';

export const bundleSize: BenchSection = {
  part: 'client',
  title: "the client's browser bundle",
  async run({ row }) {
    const sizes = [...(await measureBundles()), ...(await measureBundles(['client', 'openapiFetch'], 'vite'))];
    for (const entry of bundleRows(sizes)) row(entry.measure, entry.figure, entry.anchor, entry.notes);
    const client = sizes.find((size) => size.app === 'client' && size.bundler === 'esbuild')!;
    if (client.gzippedBytes > clientBundleTarget.gzippedBytes) process.exitCode = 1;
  },
};
