// The package's own zod schemas for `validate: true`, where the runtime loads modules beside the package (Node, Deno,
// Bun). Bundlers take packaged-schemas.browser.ts instead (the `browser` condition of `#packaged-schemas` in
// package.json): what a bundle can never load is not in it.
import type { AnswerSchemas } from './contract.js';

let packaged: Promise<AnswerSchemas> | undefined;

/**
 * Loads the schemas, once: imported by a specifier held in a variable, which a bundler building for a server
 * (esbuild, Rollup, webpack with its comment) leaves to the runtime instead of bundling zod into every app.
 */
function load(): Promise<AnswerSchemas> {
  const specifier = '../../generated/zod.js';
  packaged ??= import(/* webpackIgnore: true */ /* @vite-ignore */ specifier).then(
    (module: { answerSchema: AnswerSchemas }) => module.answerSchema,
    (error: unknown) => {
      packaged = undefined;
      throw new TypeError(
        'validate: true loads the zod schemas installed beside this package, and needs zod 4 there (npm install zod@4); ' +
          "in a bundle, give the schemas instead: import { answerSchema } from 'monitoring-service-api/zod' and " +
          `validate: answerSchema. (${error instanceof Error ? error.message : String(error)})`,
      );
    },
  );
  return packaged;
}

/** How `validate: true` gets the package's schemas in this runtime. */
export const packagedSchemas = (): (() => Promise<AnswerSchemas>) => load;
