// What the client costs a browser app: esbuild bundles small apps (make a client, call one operation) as a
// front-end build would (`--bundle --minify --format=esm --platform=browser`), from the compiled package as its
// exports map publishes it, and reports each bundle's minified and gzipped size and what went into it; Vite 8 builds
// the same apps with its defaults, the figures a front-end developer sees. The anchor is openapi-fetch alone making
// the same call. `npm run bench` prints the rows; a test checks what each bundle holds.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { type Plugin as VitePlugin, build as viteBuild } from 'vite';
import { root } from './paths.js';

/** The apps measured, each the code a front-end developer would write. */
export const bundleApps = {
  /** The client as most apps use it: no answer check. Bundled with zod made impossible to resolve. */
  client: `import { createServiceClient } from 'monitoring-service-api';
const client = createServiceClient({ baseUrl: 'https://api.example.com/api', auth: { accessToken: 'token' } });
console.log(await client.GET('/monitors'));
`,
  /** The client checking answers: it pays for zod and the schemas because it imports them. */
  validating: `import { createServiceClient } from 'monitoring-service-api';
import { answerSchema } from 'monitoring-service-api/zod';
const client = createServiceClient({ baseUrl: 'https://api.example.com/api', auth: { accessToken: 'token' }, validate: answerSchema });
console.log(await client.GET('/monitors'));
`,
  /** The anchor: openapi-fetch alone, the same call. */
  openapiFetch: `import createClient from 'openapi-fetch';
const client = createClient({ baseUrl: 'https://api.example.com/api' });
console.log((await client.GET('/monitors')).data);
`,
} as const;

export type BundleApp = keyof typeof bundleApps;

export interface BundleSize {
  app: BundleApp;
  bundler: 'esbuild' | 'vite';
  minifiedBytes: number;
  /** gzip at its highest level (9), as the sizes of front-end packages are usually given. */
  gzippedBytes: number;
  /** The files that went into the bundle, relative to the repository (node_modules/... for dependencies). */
  inputs: string[];
  /** The bundle's JavaScript. */
  code: string;
}

/** Makes resolving zod fail, as in an app that did not install it: a bundle that needs zod then fails to build. */
const withoutZod: Plugin = {
  name: 'without-zod',
  setup(context) {
    context.onResolve({ filter: /^zod(\/|$)/ }, (args) => ({
      errors: [{ text: `Could not resolve "${args.path}": zod is not installed in this app` }],
    }));
  },
};

/**
 * A folder standing for a front-end project that installed the package: its node_modules links to this repository
 * (resolved through the package's exports map, to dist/) and to the openapi-fetch it depends on.
 */
function appProject(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bundle-size-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(root, path.join(dir, 'node_modules', 'monitoring-service-api'), 'dir');
  symlinkSync(path.join(root, 'node_modules', 'openapi-fetch'), path.join(dir, 'node_modules', 'openapi-fetch'), 'dir');
  return dir;
}

/** Bundles one app for browsers and measures it. Needs dist/ (`npm run build`). */
async function bundleOne(dir: string, app: BundleApp): Promise<BundleSize> {
  const entry = path.join(dir, `${app}.mjs`);
  writeFileSync(entry, bundleApps[app]);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // An installed package carries no tsconfig.json: the repository's (its paths into src/) must not apply to dist/.
    tsconfigRaw: '{}',
    plugins: app === 'client' ? [withoutZod] : [],
  });
  const output = result.outputFiles[0]!;
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.relative(root, path.resolve(input)));
  return {
    app,
    bundler: 'esbuild',
    minifiedBytes: output.contents.byteLength,
    gzippedBytes: gzipSync(output.contents, { level: 9 }).byteLength,
    inputs,
    code: output.text,
  };
}

/** The same, for Vite: resolving zod fails, as in an app that did not install it. */
const withoutZodForVite: VitePlugin = {
  name: 'without-zod',
  enforce: 'pre',
  resolveId(id) {
    if (/^zod(\/|$)/.test(id)) this.error(`Could not resolve "${id}": zod is not installed in this app`);
  },
};

/** Builds one app with Vite (`vite build`'s defaults: its browser targets, Rolldown, minified) and measures its JavaScript. */
async function viteBundleOne(dir: string, app: BundleApp): Promise<BundleSize> {
  const entry = path.join(dir, `${app}.mjs`);
  writeFileSync(entry, bundleApps[app]);
  const built = await viteBuild({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: app === 'client' ? [withoutZodForVite] : [],
    build: { write: false, rolldownOptions: { input: entry } },
  });
  const outputs = (Array.isArray(built) ? built : [built]).flatMap((result) => ('output' in result ? result.output : []));
  const chunks = outputs.filter((output) => output.type === 'chunk');
  const code = Buffer.from(chunks.map((chunk) => chunk.code).join(''));
  const inputs = chunks.flatMap((chunk) => Object.keys(chunk.modules)).map((input) => path.relative(root, path.resolve(input)));
  return {
    app,
    bundler: 'vite',
    minifiedBytes: code.byteLength,
    gzippedBytes: gzipSync(code, { level: 9 }).byteLength,
    inputs,
    code: code.toString('utf8'),
  };
}

/**
 * Bundles and measures the apps given (all by default), with esbuild or with Vite; throws with the bundler's errors
 * when one does not build.
 */
export async function measureBundles(
  apps: readonly BundleApp[] = Object.keys(bundleApps) as BundleApp[],
  bundler: BundleSize['bundler'] = 'esbuild',
): Promise<BundleSize[]> {
  const dir = appProject();
  try {
    const sizes: BundleSize[] = [];
    for (const app of apps) sizes.push(await (bundler === 'vite' ? viteBundleOne(dir, app) : bundleOne(dir, app)));
    return sizes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The targets of the default client's bundle (issue 30): 10 kB gzipped at most, zod and the schemas absent. */
export const clientBundleTarget = { gzippedBytes: 10 * 1024 };

/** Whether a bundle holds zod or the generated schemas. */
export const holdsZod = (size: BundleSize): boolean =>
  size.inputs.some((input) => /(^|\/)node_modules\/zod\//.test(input) || input.endsWith(path.join('generated', 'zod.js')));

/** A size in kB (1,024 bytes), as esbuild prints them. */
export const kB = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

/** The bench's rows of the bundles: figure, anchor and notes of each. */
export function bundleRows(sizes: BundleSize[]): { measure: string; figure: string; anchor: string; notes: string }[] {
  const of = (app: BundleApp, bundler: BundleSize['bundler'] = 'esbuild') =>
    sizes.find((size) => size.app === app && size.bundler === bundler)!;
  const client = of('client');
  const anchor = of('openapiFetch');
  const anchorText = `openapi-fetch alone: ${kB(anchor.gzippedBytes)} gzipped, ${kB(anchor.minifiedBytes)} minified`;
  const met = client.gzippedBytes <= clientBundleTarget.gzippedBytes && !holdsZod(client);
  const validating = of('validating');
  return [
    {
      measure: 'browser bundle: createServiceClient + one GET',
      figure: `${kB(client.gzippedBytes)} gzipped, ${kB(client.minifiedBytes)} minified`,
      anchor: anchorText,
      notes: `${met ? 'target met' : 'TARGET MISSED'} (at most ${kB(clientBundleTarget.gzippedBytes)} gzipped, zod and the schemas absent: ${holdsZod(client) ? 'no' : 'yes'}); built with zod unresolvable`,
    },
    {
      measure: 'browser bundle: the same with validate: answerSchema',
      figure: `${kB(validating.gzippedBytes)} gzipped, ${kB(validating.minifiedBytes)} minified`,
      anchor: anchorText,
      notes: `+${kB(validating.gzippedBytes - client.gzippedBytes)} gzipped: zod and generated/zod.js, which the app imports`,
    },
    ...viteRows(of('client', 'vite'), of('openapiFetch', 'vite')),
  ];
}

/** The rows of the apps as Vite builds them, when they were measured. */
function viteRows(client: BundleSize | undefined, anchor: BundleSize | undefined) {
  if (!client || !anchor) return [];
  return [
    {
      measure: 'browser bundle as Vite 8 builds it (vite build): createServiceClient + one GET',
      figure: `${kB(client.gzippedBytes)} gzipped, ${kB(client.minifiedBytes)} minified`,
      anchor: `openapi-fetch alone: ${kB(anchor.gzippedBytes)} gzipped, ${kB(anchor.minifiedBytes)} minified`,
      notes: `Vite's defaults (its browser targets, Rolldown); zod absent: ${holdsZod(client) ? 'no' : 'yes'}; built with zod unresolvable`,
    },
  ];
}
