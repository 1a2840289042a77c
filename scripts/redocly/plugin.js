// Redocly plugin: the conventions of this description that Redocly's built-in rules cannot express, and the
// decorators that write derived text into the bundle (enum tables, each operation's scope line).
// Plain JavaScript because Redocly loads plugins without a TypeScript step. One file per rule (rules/) and per
// decorator (decorators/); what several of them share in security.js and extensions.js.
//
// Every rule reports at the file and line of the fault in openapi/. CONTRIBUTING.md lists the conventions and the
// rule that enforces each; test/integration/lint.test.ts seeds a violation of each rule and checks that lint names it.
import { EnumTables } from './decorators/enum-tables.js';
import { ScopeLine } from './decorators/scope-line.js';
import { CodeSamples } from './rules/code-samples.js';
import { EnumValuesNamed } from './rules/enum-values-named.js';
import { KnownExtensions } from './rules/known-extensions.js';
import { OperationIdVerb } from './rules/operation-id-verb.js';
import { OperationScopeDeclared } from './rules/operation-scope-declared.js';
import { ResponseSchemasOpen } from './rules/response-schemas-open.js';
import { SecuredOperationErrors } from './rules/secured-operation-errors.js';

export { extensionsFile, registeredExtensions } from './extensions.js';

export default function servicePlugin() {
  return {
    id: 'service',
    rules: {
      oas3: {
        'enum-values-named': EnumValuesNamed,
        'operation-scope-declared': OperationScopeDeclared,
        'secured-operation-errors': SecuredOperationErrors,
        'response-schemas-open': ResponseSchemasOpen,
        'known-extensions': KnownExtensions,
        'operation-id-verb': OperationIdVerb,
        'code-samples': CodeSamples,
      },
    },
    decorators: {
      oas3: {
        'enum-tables': EnumTables,
        'scope-line': ScopeLine,
      },
    },
  };
}
