// The package's public TypeScript API as a report: every export of every entry point (package.json "exports", their
// "types"), read by the TypeScript compiler from the emitted declarations: the members of each object type, the
// signatures of each function, the values of each set, and the direction its values flow (what users pass in, what
// the package gives them). The release keeps it beside the description's snapshot (releases/<version>.api.json);
// api-changes.ts compares the package with it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { root } from './paths.js';

export interface ApiMember {
  type: string;
  optional: boolean;
}

export interface ApiSignature {
  parameters: { name: string; type: string; optional: boolean }[];
  returns: string;
}

export interface ApiExport {
  kind: string;
  /** The type, as the compiler prints it (for an object type, its name; its members are listed apart). */
  type: string;
  /** The members of an object type (or of a constant object): name → type and whether it is optional. */
  members?: Record<string, ApiMember>;
  /** The values of a set (a union type, a constant tuple of values). */
  values?: string[];
  /** The call signatures of a function, the construct signatures of a class. */
  signatures?: ApiSignature[];
  /**
   * Which way its values flow: `input` (users pass it to the package: options), `output` (the package gives it:
   * results, errors, constants), `both`.
   */
  direction?: 'input' | 'output' | 'both';
  /**
   * Made from the description: declared in generated/ (the types, constants, client, zod schemas) or a type alias of
   * those types. The description's rules judge its changes; the report holds only its removal, its members' and its
   * values' removal.
   */
  fromDescription?: true;
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

/** Whether a declaration file is one of generated/ (types, constants, client, zod schemas made from the description). */
const isGenerated = (file: ts.SourceFile) => file.fileName.split(/[\\/]/).includes('generated');

/** Whether an export is made from the description: declared in generated/, or an alias naming its types. */
function fromDescription(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  const declarations = symbol.declarations ?? [];
  if (declarations.some((declaration) => isGenerated(declaration.getSourceFile()))) return true;
  let found = false;
  const visit = (node: ts.Node) => {
    if (found) return;
    if (ts.isIdentifier(node)) {
      const target = checker.getSymbolAtLocation(node);
      const resolved = target && target.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(target) : target;
      found = (resolved?.declarations ?? []).some((declaration) => isGenerated(declaration.getSourceFile()));
      return;
    }
    ts.forEachChild(node, visit);
  };
  for (const declaration of declarations) if (ts.isTypeAliasDeclaration(declaration)) visit(declaration.type);
  return found;
}

/** The printer of one entry: types read short, as in the entry's file (`ServiceClient`, not `import("…").ServiceClient`). */
const printerFor =
  (checker: ts.TypeChecker, scope: ts.SourceFile) =>
  (type: ts.Type, flags = ts.TypeFormatFlags.None) =>
    checker.typeToString(type, scope, printing | flags).replace(/import\("[^"]*"\)\./g, '');

function signaturesOf(checker: ts.TypeChecker, signatures: readonly ts.Signature[], print: (type: ts.Type) => string): ApiSignature[] {
  return signatures.map((signature) => ({
    parameters: signature.parameters.map((parameter) => {
      const declaration = parameter.valueDeclaration;
      const optional =
        !!declaration &&
        ts.isParameter(declaration) &&
        (!!declaration.questionToken || !!declaration.initializer || !!declaration.dotDotDotToken);
      return { name: parameter.name, type: print(checker.getTypeOfSymbol(parameter)), optional };
    }),
    returns: print(signature.getReturnType()),
  }));
}

function membersOf(checker: ts.TypeChecker, type: ts.Type, print: (type: ts.Type) => string): Record<string, ApiMember> {
  const members: Record<string, ApiMember> = {};
  for (const member of checker.getPropertiesOfType(type)) {
    const declaration = member.valueDeclaration ?? member.declarations?.[0];
    const memberType = declaration ? checker.getTypeOfSymbolAtLocation(member, declaration) : checker.getTypeOfSymbol(member);
    members[member.name] = { type: print(memberType), optional: (member.flags & ts.SymbolFlags.Optional) !== 0 };
  }
  return members;
}

function describeExport(checker: ts.TypeChecker, symbol: ts.Symbol, scope: ts.SourceFile): ApiExport {
  const print = printerFor(checker, scope);
  const kind = kindOf(symbol);
  const isType = kind === 'interface' || kind === 'type' || kind === 'class';
  const type = isType ? checker.getDeclaredTypeOfSymbol(symbol) : checker.getTypeOfSymbol(symbol);
  // A type alias is printed as what it stands for (`'http' | 'auth' | ...`), not by its own name.
  const described: ApiExport = { kind, type: kind === 'type' ? print(type, ts.TypeFormatFlags.InTypeAlias) : print(type) };
  if (fromDescription(checker, symbol)) described.fromDescription = true;
  // A set of values (a union alias, the constants' readonly tuples of values): its values in a fixed order (the
  // compiler's follows the order it met them in), so that one added is told apart from one removed.
  const unit = ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral | ts.TypeFlags.BigIntLiteral;
  const elements = type.isUnion()
    ? type.types
    : checker.isTupleType(type)
      ? checker.getTypeArguments(type as ts.TypeReference)
      : kind === 'type' && type.flags & unit
        ? [type]
        : undefined;
  if (elements && (kind === 'type' || kind === 'const')) {
    described.values = elements.map((element) => print(element)).sort();
    described.type = kind === 'type' ? described.values.join(' | ') : `readonly [${described.values.join(', ')}]`;
    return described;
  }
  const calls = type.getCallSignatures();
  if (kind === 'function' || (calls.length > 0 && checker.getPropertiesOfType(type).length === 0)) {
    described.signatures = signaturesOf(checker, calls, print);
    return described;
  }
  if (kind === 'class') described.signatures = signaturesOf(checker, checker.getTypeOfSymbol(symbol).getConstructSignatures(), print);
  const isObject = (type.flags & ts.TypeFlags.Object) !== 0;
  // A constant's members count when it is an object written out (the constants' tables), not an instance of a
  // library's class (a zod schema), whose members are the library's.
  const literal = isObject && ((type as ts.ObjectType).objectFlags & (ts.ObjectFlags.ObjectLiteral | ts.ObjectFlags.Anonymous)) !== 0;
  if ((isType && isObject) || (kind === 'const' && literal)) described.members = membersOf(checker, type, print);
  return described;
}

/** The named types a type is made of: its alias, its symbol, the members of a union or intersection, its type arguments. */
function markType(checker: ts.TypeChecker, type: ts.Type, into: Set<ts.Symbol>, depth = 0): void {
  if (depth > 4) return;
  for (const symbol of [type.aliasSymbol, type.getSymbol()]) if (symbol) into.add(symbol);
  if (type.isUnionOrIntersection()) for (const part of type.types) markType(checker, part, into, depth + 1);
  for (const argument of type.aliasTypeArguments ?? []) markType(checker, argument, into, depth + 1);
  if ((type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0)
    for (const argument of checker.getTypeArguments(type as ts.TypeReference)) markType(checker, argument, into, depth + 1);
}

/** The named types written in a type node, outside the functions in it (whose parameters flow the other way). */
function markNames(checker: ts.TypeChecker, node: ts.Node, into: Set<ts.Symbol>): ts.Symbol[] {
  const added: ts.Symbol[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isFunctionTypeNode(child) || ts.isMethodSignature(child) || ts.isMethodDeclaration(child)) return;
    if (ts.isTypeReferenceNode(child)) {
      const found = checker.getSymbolAtLocation(ts.isQualifiedName(child.typeName) ? child.typeName.right : child.typeName);
      const symbol = found && found.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found) : found;
      if (symbol && !into.has(symbol)) {
        into.add(symbol);
        added.push(symbol);
      }
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return added;
}

/**
 * What a type is made of flows the same way as the type: the types named in an alias, in the members of an
 * interface, in a class's properties.
 */
function propagate(checker: ts.TypeChecker, marked: Set<ts.Symbol>): void {
  const pending = [...marked];
  for (let symbol = pending.pop(); symbol; symbol = pending.pop()) {
    for (const declaration of symbol.declarations ?? []) {
      const nodes = ts.isTypeAliasDeclaration(declaration)
        ? [declaration.type]
        : ts.isInterfaceDeclaration(declaration) || ts.isClassDeclaration(declaration)
          ? [...declaration.members]
          : [];
      for (const node of nodes) pending.push(...markNames(checker, node, marked));
    }
  }
}

/**
 * The exported types that users pass to the package (inputs) and those the package gives them (outputs): the
 * parameters and results of exported functions and constructors, then of the methods of exported types (a method of
 * an input, a callback, takes what the package gives), each spread to the types it is made of.
 */
function flows(checker: ts.TypeChecker, exported: ts.Symbol[]): { inputs: Set<ts.Symbol>; outputs: Set<ts.Symbol> } {
  const inputs = new Set<ts.Symbol>();
  const outputs = new Set<ts.Symbol>();
  const markSignatures = (signatures: readonly ts.Signature[], parameters: Set<ts.Symbol>, results: Set<ts.Symbol>) => {
    for (const signature of signatures) {
      for (const parameter of signature.parameters) {
        markType(checker, checker.getTypeOfSymbol(parameter), parameters);
        // `method?: Method` is typed `"GET" | "POST" | undefined`: the alias is in the declaration only.
        const declared = parameter.valueDeclaration;
        if (declared && ts.isParameter(declared) && declared.type) markNames(checker, declared.type, parameters);
      }
      markType(checker, signature.getReturnType(), results);
    }
  };
  const isType = (symbol: ts.Symbol) => ['interface', 'class', 'type'].includes(kindOf(symbol));
  for (const symbol of exported) {
    if (['function', 'const', 'class'].includes(kindOf(symbol))) {
      const value = checker.getTypeOfSymbol(symbol);
      markSignatures([...value.getCallSignatures(), ...value.getConstructSignatures()], inputs, outputs);
    }
  }
  propagate(checker, inputs);
  propagate(checker, outputs);
  for (const symbol of exported.filter(isType)) {
    const callback = inputs.has(symbol) && !outputs.has(symbol);
    for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
      const signatures = checker.getTypeOfSymbol(member).getCallSignatures();
      if (callback) markSignatures(signatures, outputs, inputs);
      else markSignatures(signatures, inputs, outputs);
    }
  }
  propagate(checker, inputs);
  propagate(checker, outputs);
  return { inputs, outputs };
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
  const modules = Object.entries(entries).map(([entry, file]) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!source || !module) throw new Error(`${file} (the types of ${entry}) cannot be read: build dist/ first (npm run build).`);
    const exported = checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name));
    return { entry, source, exported };
  });
  const resolve = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const { inputs, outputs } = flows(
    checker,
    modules.flatMap((module) => module.exported.map(resolve)),
  );
  const report: ApiReport = {};
  for (const { entry, source, exported } of modules) {
    const exports: Record<string, ApiExport> = {};
    for (const symbol of exported) {
      const target = resolve(symbol);
      const described = describeExport(checker, target, source);
      if (described.kind === 'interface' || described.kind === 'type' || described.kind === 'class') {
        const input = inputs.has(target);
        described.direction = input && outputs.has(target) ? 'both' : input ? 'input' : 'output';
      }
      exports[symbol.name] = described;
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
  // Making the report takes the compiler some 3.5 s of CPU; a check run again on the same build (release --check
  // --no-build after an edit of openapi/ alone) reads the one it made.
  const key = reportKey(entries);
  const kept = existsSync(reportCacheFile)
    ? (JSON.parse(readFileSync(reportCacheFile, 'utf8')) as { key?: string; report?: ApiReport })
    : {};
  if (kept.key === key && kept.report) return kept.report;
  const report = apiReportOf(entries);
  mkdirSync(path.dirname(reportCacheFile), { recursive: true });
  writeFileSync(reportCacheFile, JSON.stringify({ key, report }));
  return report;
}

const reportCacheFile = path.join(root, 'node_modules', '.cache', 'api-report.json');

/**
 * What the report of the package is made from: the entry points, every declaration file of dist/, the installed
 * dependencies (package-lock.json: their declarations), the compiler's version and this code.
 */
function reportKey(entries: Record<string, string>): string {
  const hash = createHash('sha256').update(JSON.stringify(entries)).update(ts.version);
  const declarations = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) return declarations(file);
        return entry.name.endsWith('.d.ts') ? [file] : [];
      });
  const dist = path.join(root, 'dist');
  const files = [...(existsSync(dist) ? declarations(dist) : []), path.join(root, 'package-lock.json'), fileURLToPath(import.meta.url)];
  for (const file of files) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The API report of a release, beside its description in releases/. */
export const apiSnapshotFile = (version: string) => `${version}.api.json`;
