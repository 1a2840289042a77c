// How the engine's modules load: the parts the mock does not use by default load on first use, and what one of its
// modules compiles on every request is compiled once. Done once per process, before the engine's entry loads.
import { Module, createRequire } from 'node:module';

/**
 * Puts a stand-in for a module of the engine in the require cache: its values load the real module the first
 * time they are used. `eager` are the exports the engine reads while loading (they stand in too).
 */
function deferModule(requireEngine: NodeJS.Require, specifier: string, eager: string[] = []): void {
  let file: string;
  try {
    file = requireEngine.resolve(specifier);
  } catch {
    return;
  }
  if (requireEngine.cache[file]) return;
  let real: Record<string | symbol, unknown> | undefined;
  const load = () => {
    if (!real) {
      delete requireEngine.cache[file];
      real = requireEngine(file) as Record<string | symbol, unknown>;
    }
    return real;
  };
  /** An object that stands for what `resolve` gives, and calls it on first use. */
  const lazy = (resolve: () => object, get: (key: string | symbol) => unknown = (key) => Reflect.get(resolve(), key)): object =>
    new Proxy(
      {},
      {
        get: (_target, key) => get(key),
        has: (_target, key) => key in resolve(),
        ownKeys: () => Reflect.ownKeys(resolve()),
        getOwnPropertyDescriptor: (_target, key) => {
          const descriptor = Reflect.getOwnPropertyDescriptor(resolve(), key);
          return descriptor && { ...descriptor, configurable: true };
        },
      },
    );
  const standIns = new Map<string | symbol, object>();
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = lazy(load, (key) => {
    if (typeof key !== 'string' || !eager.includes(key)) return load()[key];
    if (!standIns.has(key))
      standIns.set(
        key,
        lazy(() => load()[key] as object),
      );
    return standIns.get(key);
  });
  requireEngine.cache[file] = module;
}

/**
 * Two parts of the engine take most of its start-up time for features the mock does not use by default: a
 * fake-data library with every locale (for `Prefer: dynamic=true`) and the reader of Postman collections (the
 * mock reads OpenAPI). They load on first use.
 */
function deferUnusedParts(requireEngine: NodeJS.Require): void {
  // The engine hands `require('@faker-js/faker').default` to its schema faker as it loads.
  deferModule(requireEngine, '@faker-js/faker', ['default', 'faker']);
  deferModule(requireEngine, '@stoplight/http-spec/postman/operation');
}

/** The most path templates kept compiled; past it, a template is compiled on each use as before. */
const maxKeptTemplates = 1024;

/**
 * The engine's validator reads a request's path parameters with `new URI.Template(operationPath).match(path)`
 * (uri-template-lite), which compiles a regular expression and a function from the template on every request. A
 * template's compiled form is stateless (its `match` only reads), so the same template gives the same object.
 */
function keepCompiledTemplates(requireEngine: NodeJS.Require): void {
  let uri: { Template: new (template: string) => object } | undefined;
  try {
    uri = (requireEngine('uri-template-lite') as { URI?: typeof uri }).URI;
  } catch {
    return;
  }
  if (!uri || (uri.Template as { kept?: boolean }).kept) return;
  const Compile = uri.Template;
  const compiled = new Map<string, object>();
  function Template(template: string): object {
    let kept = compiled.get(template);
    if (!kept) {
      kept = new Compile(template);
      if (compiled.size < maxKeptTemplates) compiled.set(template, kept);
    }
    return kept; // a constructor that returns an object gives that object to `new`
  }
  Template.prototype = Compile.prototype;
  Template.kept = true;
  uri.Template = Template as unknown as typeof Compile;
}

/** Prepares the engine's modules, from its entry's location (its dependencies resolve from there). */
export function prepareEngineModules(engineEntry: string): void {
  const requireEngine = createRequire(engineEntry);
  deferUnusedParts(requireEngine);
  keepCompiledTemplates(requireEngine);
}
