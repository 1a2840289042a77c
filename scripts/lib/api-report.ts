// The package's public TypeScript API as a report: every export of every entry point (package.json "exports", their
// "types"), read by the TypeScript compiler from the emitted declarations, with the members of each object type.
// The release keeps it beside the description's snapshot (releases/<version>.api.json); the release check compares
// the package with it: an export removed or changed breaks users' code, an export or an optional member added does not.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Change } from './breaking-changes.js';
import { root } from './paths.js';

export interface ApiExport {
  kind: string;
  /** The type, as the compiler prints it (for an object type, its name; its members are listed apart). */
  type: string;
  /** The members of an object type (or of a constant object): name → type and whether it is optional. */
  members?: Record<string, { type: string; optional: boolean }>;
  /** The values of a set (a union type, a constant tuple of values): one added is no break, one removed is. */
  values?: string[];
}

/** Entry point (`monitoring-service-api/constants`) → export name → export. */
export type ApiReport = Record<string, Record<string, ApiExport>>;

const printing = ts.TypeFormatFlags.NoTruncation;

function kindOf(symbol: ts.Symbol): string {
  const { flags } = symbol;
  if (flags & ts.SymbolFlags.Class) return 'class';
  if (flags & ts.SymbolFlags.Interface) return 'interface';
  if (flags & ts.SymbolFlags.TypeAlias) return 'type';
  if (flags & ts.SymbolFlags.Enum) return 'enum';
  if (flags & ts.SymbolFlags.Function) return 'function';
  if (flags & ts.SymbolFlags.Variable) return 'const';
  return 'other';
}

function describeExport(checker: ts.TypeChecker, exported: ts.Symbol, scope: ts.SourceFile): ApiExport {
  // Printed from the entry's file, so that names in its scope read short.
  // `import("dist/src/client/client").ServiceClient` reads `ServiceClient`: where a type is declared is not its API.
  const print = (type: ts.Type, flags = ts.TypeFormatFlags.None) =>
    checker.typeToString(type, scope, printing | flags).replace(/import\("[^"]*"\)\./g, '');
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const kind = kindOf(symbol);
  const isType = kind === 'interface' || kind === 'type' || kind === 'class';
  const type = isType ? checker.getDeclaredTypeOfSymbol(symbol) : checker.getTypeOfSymbol(symbol);
  // A type alias is printed as what it stands for (`'http' | 'auth' | ...`), not by its own name.
  const described: ApiExport = { kind, type: kind === 'type' ? print(type, ts.TypeFormatFlags.InTypeAlias) : print(type) };
  // A set of values (a union alias, the constants' readonly tuples of values): its values in a fixed order (the
  // compiler's follows the order it met them in), so that one added is told apart from one removed.
  const elements = type.isUnion() ? type.types : checker.isTupleType(type) ? checker.getTypeArguments(type as ts.TypeReference) : undefined;
  if (elements && (kind === 'type' || kind === 'const')) {
    described.values = elements.map((element) => print(element)).sort();
    described.type = kind === 'type' ? described.values.join(' | ') : `readonly [${described.values.join(', ')}]`;
    return described;
  }
  const isObject = (type.flags & ts.TypeFlags.Object) !== 0 && type.getCallSignatures().length === 0;
  // A constant's members count when it is an object written out (the constants' tables), not an instance of a
  // library's class (a zod schema), whose members are the library's.
  const literal = isObject && ((type as ts.ObjectType).objectFlags & (ts.ObjectFlags.ObjectLiteral | ts.ObjectFlags.Anonymous)) !== 0;
  if ((isType && isObject) || (kind === 'const' && literal)) {
    described.members = {};
    for (const member of checker.getPropertiesOfType(type)) {
      const declaration = member.valueDeclaration ?? member.declarations?.[0];
      const memberType = declaration ? checker.getTypeOfSymbolAtLocation(member, declaration) : checker.getTypeOfSymbol(member);
      described.members[member.name] = {
        type: print(memberType),
        optional: (member.flags & ts.SymbolFlags.Optional) !== 0,
      };
    }
  }
  return described;
}

/** The report of declaration files: entry name → its .d.ts. `host` serves the files (tests give small ones). */
export function apiReportOf(entries: Record<string, string>, host?: ts.CompilerHost): ApiReport {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  };
  const program = ts.createProgram(Object.values(entries), options, host);
  const checker = program.getTypeChecker();
  const report: ApiReport = {};
  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file} (the types of ${entry}) cannot be read: build dist/ first (npm run build).`);
    const exports: Record<string, ApiExport> = {};
    for (const exported of checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name))) {
      exports[exported.name] = describeExport(checker, exported, source);
    }
    report[entry] = exports;
  }
  return report;
}

/** The report of this package as built: the "types" of each entry of package.json "exports". */
export function packageApiReport(): ApiReport {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = typeof target === 'object' && target !== null ? (target as { types?: string }).types : undefined;
    if (types) entries[subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`] = path.join(root, types);
  }
  return apiReportOf(entries);
}

/** The API report of a release, beside its description in releases/. */
export const apiSnapshotFile = (version: string) => `${version}.api.json`;

const breaking = (ruleId: string, pointer: string, message: string): Change => ({ ruleId, impact: 'major', message, pointer });

/**
 * What a revision of the package breaks for its users: an entry or export removed (`export-removed`), an export whose
 * kind or type changed, a set of values that lost one, an object type that lost or changed a member or gained a
 * required one (`export-changed`). An added export, value, optional member, or member of a constant does not.
 */
export function apiChanges(base: ApiReport, revision: ApiReport): Change[] {
  const changes: Change[] = [];
  for (const [entry, exports] of Object.entries(base)) {
    const now = revision[entry] ?? {};
    for (const [name, before] of Object.entries(exports)) {
      const pointer = `${entry}#${name}`;
      const after = now[name];
      if (!after) {
        changes.push(breaking('export-removed', pointer, `The export ${name} of ${entry} was removed.`));
        continue;
      }
      if (before.kind !== after.kind) {
        changes.push(breaking('export-changed', pointer, `${name} of ${entry} was a ${before.kind} and is now a ${after.kind}.`));
        continue;
      }
      if (before.values && after.values) {
        const kept = new Set(after.values);
        const removed = before.values.filter((value) => !kept.has(value));
        if (removed.length > 0)
          changes.push(breaking('export-changed', pointer, `${name} of ${entry} no longer has ${removed.join(', ')}.`));
        continue;
      }
      if (!before.members || !after.members) {
        if (before.type !== after.type)
          changes.push(
            breaking('export-changed', pointer, `The type of ${name} of ${entry} changed from ${before.type} to ${after.type}.`),
          );
        continue;
      }
      const members = after.members;
      for (const [member, was] of Object.entries(before.members)) {
        const is = members[member];
        if (!is)
          changes.push(breaking('export-changed', `${pointer}.${member}`, `${name}.${member} of ${entry} was removed (or renamed).`));
        else if (is.type !== was.type || (is.optional === false && was.optional === true)) {
          changes.push(
            breaking(
              'export-changed',
              `${pointer}.${member}`,
              `${name}.${member} of ${entry} changed from ${was.type} to ${is.type}${is.optional ? '' : ' (required)'}.`,
            ),
          );
        }
      }
      // A required member added breaks what users build (options, arguments), not a constant they read.
      for (const [member, is] of Object.entries(members)) {
        if (after.kind !== 'const' && !Object.hasOwn(before.members, member) && !is.optional) {
          changes.push(breaking('export-changed', `${pointer}.${member}`, `${name}.${member} of ${entry} was added as required.`));
        }
      }
    }
  }
  return changes;
}
