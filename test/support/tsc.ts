// The compilers of the tests and the one command line of tsc for code a generator wrote. TypeScript 5.9 is the
// project's (openapi-typescript needs it at build time, and users still run it: the consumer test compiles with it);
// TypeScript 7, the native compiler, comes from the npm registry once per machine (tool()) and type-checks the
// repository and the code generators write, reporting what 5.9 reports there in a fifth of its CPU time
// (decisions/0010).
import { root } from '../../scripts/lib/paths.js';
import { exec, type Result, tool } from './consumer-project.js';

export const typescript7 = 'typescript@7.0.2';

/**
 * Options for every run of TypeScript 7's tsc here: one thread. Its checkers in parallel report the same diagnostics
 * and spend a fifth more CPU on two cores.
 */
export const tsc7Args = ['--singleThreaded'];

/** The `tsc --init` defaults of TypeScript 5.9 and 7 (the same in both): the configuration of a user's new project. */
export const initDefaults = {
  module: 'nodenext',
  target: 'esnext',
  types: [],
  sourceMap: true,
  declaration: true,
  declarationMap: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  strict: true,
  jsx: 'react-jsx',
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUncheckedSideEffectImports: true,
  moduleDetection: 'force',
  skipLibCheck: true,
};

/** The path of TypeScript 7's tsc, installed on first use. */
export const tsc7Path = () => tool(typescript7, 'tsc');

/**
 * Type-checks code a generator wrote, as its documentation compiles it: strict, nothing emitted, ES2022 modules
 * resolved as a bundler does, with the libraries given (`DOM.Iterable` for clients that iterate headers).
 */
export async function checkGeneratedCode(files: string[], lib: string[] = ['ES2023', 'DOM']): Promise<Result> {
  const args = ['--strict', '--noEmit', '--skipLibCheck', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler'];
  return exec(await tsc7Path(), [...args, ...tsc7Args, '--ignoreConfig', '--pretty', 'false', '--lib', lib.join(','), ...files], {
    cwd: root,
  });
}
