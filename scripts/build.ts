// Builds generated/ from openapi/ (lint, bundle as YAML and JSON, the engine's operations of the mock document,
// TypeScript types, the typed client, the constants, the 3.0 and dereferenced forms, the Markdown reference and
// llms.txt, the Postman collection and environments, the MCP tools, the seed's and the coverage report's JSON Schemas,
// the zod schemas, the rendered docs), then the
// package in dist/ (src/ and the generated TypeScript, compiled).
//
//   tsx scripts/build.ts              build, skipping steps whose inputs did not change
//   tsx scripts/build.ts --force      rebuild every step
//   tsx scripts/build.ts --out DIR    build generated/ into DIR instead (the freshness test), without dist/
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { OpenAPI3 } from 'openapi-typescript';
import { parse, stringify } from 'yaml';
import { runScript, type ScriptLine, UsageError } from '../src/cli/args.js';
import { mockDocument } from '../src/description/mock-document.js';
import type { OpenApiDocument } from '../src/description/openapi.js';
import { clientSource } from './lib/client-source.js';
import { generateConstants } from './lib/constants-source.js';
import { coverageSchema } from './lib/coverage-schema.js';
import { finishedPage, redocPage } from './lib/docs-page.js';
import { llmsText, markdownReference } from './lib/markdown-reference.js';
import { mcpTools } from './lib/mcp-tools.js';
import { dereferenced, toOpenApi30 } from './lib/openapi-forms.js';
import { distFile, generatedDir, outputs, root, specRoot } from './lib/paths.js';
import { postmanCollection, postmanEnvironments } from './lib/postman.js';
import { run, withoutBanner } from './lib/run.js';
import { seedSchema } from './lib/seed-schema.js';
import { zodSource } from './lib/zod-source.js';

type Outputs = ReturnType<typeof outputs>;

interface Step {
  name: string;
  /** The step writes dist/, not generated/ (a build into another folder skips it). */
  compiles?: boolean;
  /** Files and folders (relative to the root) whose contents decide whether the step must run again. */
  inputs: string[];
  produces: (out: Outputs) => string[];
  run: (out: Outputs) => Promise<void>;
}

const specInputs = ['openapi', 'redocly.yaml', 'scripts/redocly', 'EXTENSIONS.md'];

/** The bundle the first steps wrote: an OpenAPI 3.1 document (the lint step checks it against the specification). */
async function readBundle(out: Outputs): Promise<OpenApiDocument> {
  return JSON.parse(await readFile(out.bundleJson, 'utf8'));
}

/** Writes a file when its text changed: a build that changes nothing rewrites nothing (tests may be reading it). */
async function write(file: string, text: string) {
  if (existsSync(file) && (await readFile(file, 'utf8')) === text) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

export const steps: Step[] = [
  {
    name: 'lint',
    inputs: specInputs,
    produces: () => [],
    run: async () => {
      const result = await run('redocly', ['lint', specRoot, '--format=codeframe'], { allowFailure: true });
      if (result.code !== 0) throw new Error(`The description does not pass lint:\n${result.stdout}${withoutBanner(result.stderr)}`);
    },
  },
  {
    name: 'bundle',
    inputs: specInputs,
    produces: (out) => [out.bundleYaml, out.bundleJson],
    run: async (out) => {
      const scratch = await mkdtemp(path.join(os.tmpdir(), 'bundle-'));
      try {
        const file = path.join(scratch, 'openapi.yaml');
        await run('redocly', ['bundle', specRoot, '-o', file]);
        const document = parse(await readFile(file, 'utf8'));
        await write(out.bundleYaml, stringify(document, { lineWidth: 0 }));
        await write(out.bundleJson, `${JSON.stringify(document, null, 2)}\n`);
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
  },
  {
    // The engine's operations of the mock document, which the mock would otherwise compute at each start.
    name: 'mock operations',
    inputs: [...specInputs, 'src/description/mock-document.ts', 'package-lock.json'],
    produces: (out) => [out.mockOperations],
    run: async (out) => {
      const { engineOperations, installedEngineVersion } = await import('../src/engine/prism.js');
      const operations = await engineOperations(mockDocument(await readBundle(out)));
      await write(out.mockOperations, `${JSON.stringify({ engineVersion: installedEngineVersion(), operations }, null, 1)}\n`);
    },
  },
  {
    name: 'types',
    inputs: [...specInputs, 'package-lock.json'],
    produces: (out) => [out.types],
    run: async (out) => {
      // Loaded here, for this step only (it and the TypeScript compiler it loads take most of a run that skips it).
      const { default: openapiTS, astToString } = await import('openapi-typescript');
      // openapi-typescript takes the document as its own full type of OpenAPI 3.x.
      const ast = await openapiTS((await readBundle(out)) as OpenAPI3, { rootTypes: true, alphabetize: false });
      const header = '// Generated by scripts/build.ts (openapi-typescript) from openapi/. Do not edit by hand.\n';
      await write(out.types, header + astToString(ast));
    },
  },
  {
    name: 'client',
    inputs: [...specInputs, 'scripts/lib/client-source.ts'],
    produces: (out) => [out.client],
    run: async (out) => write(out.client, clientSource(await readBundle(out))),
  },
  {
    name: 'constants',
    inputs: [...specInputs, 'scripts/lib/constants-source.ts'],
    produces: (out) => [out.constants],
    run: async (out) => write(out.constants, generateConstants(await readBundle(out), { source: 'openapi/' })),
  },
  {
    // The description for tools that read OpenAPI 3.0 only, and for tools with poor support for references.
    name: 'forms',
    inputs: [...specInputs, 'scripts/lib/openapi-forms.ts', 'package-lock.json'],
    produces: (out) => [out.openapi30Json, out.openapi30Yaml, out.dereferencedJson],
    run: async (out) => {
      const bundle = await readBundle(out);
      const down = toOpenApi30(bundle);
      await write(out.openapi30Json, `${JSON.stringify(down, null, 2)}\n`);
      await write(out.openapi30Yaml, stringify(down, { lineWidth: 0 }));
      await write(out.dereferencedJson, `${JSON.stringify(dereferenced(bundle), null, 2)}\n`);
    },
  },
  {
    // The description as Markdown for readers and AI assistants, beside the docs page that links it.
    name: 'markdown',
    inputs: [...specInputs, 'scripts/lib/markdown-reference.ts'],
    produces: (out) => [out.referenceMd, out.llmsTxt],
    run: async (out) => {
      const bundle = await readBundle(out);
      await write(out.referenceMd, markdownReference(bundle));
      await write(out.llmsTxt, llmsText(bundle));
    },
  },
  {
    // Postman's collection and environments, beside the docs page.
    name: 'postman',
    inputs: [...specInputs, 'scripts/lib/postman.ts'],
    produces: (out) => [out.postmanCollection, out.postmanEnvironment('mock')],
    run: async (out) => {
      const bundle = await readBundle(out);
      await write(out.postmanCollection, `${JSON.stringify(postmanCollection(bundle), null, 2)}\n`);
      for (const [id, environment] of Object.entries(postmanEnvironments(bundle))) {
        await write(out.postmanEnvironment(id), `${JSON.stringify(environment, null, 2)}\n`);
      }
    },
  },
  {
    // The tools of the MCP server (src/mcp/), one per resource operation.
    name: 'mcp tools',
    inputs: [...specInputs, 'scripts/lib/mcp-tools.ts', 'scripts/lib/openapi-forms.ts'],
    produces: (out) => [out.mcpTools],
    run: async (out) => write(out.mcpTools, `${JSON.stringify({ tools: mcpTools(await readBundle(out)) }, null, 2)}\n`),
  },
  {
    // The JSON Schema of the mock's seed, from the description's schemas (checked against the seed reader by a test).
    name: 'seed schema',
    inputs: [...specInputs, 'scripts/lib/seed-schema.ts', 'src/simulator/seed.ts'],
    produces: (out) => [out.seedSchema],
    run: async (out) => write(out.seedSchema, `${JSON.stringify(seedSchema(await readBundle(out)), null, 2)}\n`),
  },
  {
    // The JSON Schema of the mock's coverage report, from the description and the names the mock counts by.
    name: 'coverage schema',
    inputs: [...specInputs, 'scripts/lib/coverage-schema.ts', 'src/simulator/behaviours.ts', 'src/coverage/errors.ts'],
    produces: (out) => [out.coverageSchema],
    run: async (out) => write(out.coverageSchema, `${JSON.stringify(coverageSchema(await readBundle(out)), null, 2)}\n`),
  },
  {
    name: 'zod',
    inputs: [...specInputs, 'scripts/lib/zod-source.ts'],
    produces: (out) => [out.zod],
    run: async (out) => write(out.zod, zodSource(await readBundle(out))),
  },
  {
    name: 'docs',
    inputs: [
      ...specInputs,
      'package-lock.json',
      'scripts/docs-template.hbs',
      'scripts/lib/docs-page.ts',
      'scripts/lib/docs-loading.ts',
      'scripts/lib/docs-console.ts',
      'scripts/docs-console',
      // What the console's bundle takes from src/ (scripts/docs-console/*.ts's imports, and theirs).
      'src/description/examples.ts',
      'src/client/request-values.ts',
      'src/fetch/address.ts',
      'src/options.ts',
    ],
    produces: (out) => [out.docs],
    run: async (out) => {
      const bundle = await readBundle(out);
      await write(out.docs, await finishedPage(await redocPage(bundle), bundle));
    },
  },
  {
    // The package: src/ and the generated TypeScript as JavaScript, declarations and source maps in dist/.
    name: 'compile',
    compiles: true,
    inputs: ['src', 'generated', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
    produces: () => [distFile('index.js'), distFile('bin.js')],
    run: async () => {
      await rm(path.join(root, 'dist'), { recursive: true, force: true });
      await run('tsc', ['-p', 'tsconfig.build.json']);
    },
  },
];

async function hashInputs(inputs: string[]): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (relative: string) => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => null);
    if (entries === null) {
      hash
        .update(relative)
        .update('\0')
        .update(await readFile(absolute))
        .update('\0');
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) await visit(path.join(relative, entry.name));
  };
  for (const input of [...inputs, 'scripts/build.ts']) await visit(input);
  return hash.digest('hex');
}

const stampFile = path.join(root, 'node_modules', '.cache', 'build-stamps.json');

export interface BuildReport {
  step: string;
  ran: boolean;
  ms: number;
}

export interface BuildOptions {
  /** Build generated/ into this folder instead (no dist/). */
  out?: string | undefined;
  /** Run every step, changed or not. */
  force?: boolean | undefined;
  /** Run only this step. */
  only?: string | undefined;
  log?: ((line: string) => void) | undefined;
}

export async function build(options: BuildOptions = {}): Promise<BuildReport[]> {
  const out = outputs(options.out ?? generatedDir);
  const cached = !options.out && !options.force;
  const stamps: Record<string, string> = existsSync(stampFile) ? JSON.parse(await readFile(stampFile, 'utf8')) : {};
  if (options.only !== undefined && !steps.some((step) => step.name === options.only)) {
    throw new UsageError(
      `--only must name a step: ${steps.map((step) => step.name).join(', ')}; not "${options.only}".\n${buildLine.usage}`,
    );
  }
  const report: BuildReport[] = [];
  const chosen = steps.filter((step) => !(options.out && step.compiles) && (options.only === undefined || step.name === options.only));
  for (const step of chosen) {
    const started = performance.now();
    const stamp = await hashInputs(step.inputs);
    const fresh = cached && stamps[step.name] === stamp && step.produces(out).every((file) => existsSync(file));
    if (!fresh) {
      await step.run(out);
      stamps[step.name] = stamp;
    }
    const ms = performance.now() - started;
    report.push({ step: step.name, ran: !fresh, ms });
    options.log?.(`${fresh ? 'fresh  ' : 'built  '} ${step.name.padEnd(14)} ${ms.toFixed(0).padStart(6)} ms`);
  }
  if (!options.out) {
    await mkdir(path.dirname(stampFile), { recursive: true });
    await writeFile(stampFile, JSON.stringify(stamps, null, 2));
  }
  return report;
}

export const buildLine = {
  usage: `Usage: npm run build -- [--force] [--only STEP] [--out DIR]
  --force      run every step, whether its inputs changed or not.
  --only STEP  run one step: ${steps.map((step) => step.name).join(', ')}.
  --out DIR    build generated/ into DIR instead (the freshness test does this); dist/ is not built.
  -h, --help   this help.`,
  options: { out: { type: 'string' }, force: { type: 'boolean', default: false }, only: { type: 'string' } },
} satisfies ScriptLine;

runScript(buildLine, import.meta.url, (values) =>
  build({
    out: typeof values.out === 'string' ? path.resolve(values.out) : undefined,
    force: values.force === true,
    only: typeof values.only === 'string' ? values.only : undefined,
    log: (line) => console.log(line),
  }),
);
