// How the engine's modules load: the parts the mock does not use by default load on first use, and what one of its
// modules compiles on every request is compiled once. Done once per process, around the loading of the engine.
import { createRequire, Module } from 'node:module';

/** How a module of the engine is put off until it is used. */
interface Deferral {
  /** The exports the engine reads while it loads: each gets a stand-in of its own. */
  eager?: string[];
  /**
   * Methods of the eager exports that the engine calls while it loads (settings): the stand-in keeps the calls and
   * makes them on the real export when it loads, in the same order.
   */
  kept?: string[];
  /** The module's export is a function: its stand-in can be called too. */
  callable?: boolean;
}

type Loaded = Record<string | symbol, unknown>;

/** An object (or function) that stands for what `resolve` gives, and calls it on first use. */
function lazy(
  resolve: () => object,
  callable = false,
  get: (key: string | symbol) => unknown = (key) => Reflect.get(resolve(), key),
): object {
  // A callable stand-in is a function, so that it can be called and constructed like the real export; the one
  // property of a function that cannot be configured, `prototype`, is reported as such (the Proxy's invariants).
  const target = callable ? function standIn() {} : {};
  const fixed = (key: string | symbol) => Reflect.getOwnPropertyDescriptor(target, key)?.configurable === false;
  return new Proxy(target, {
    get: (_target, key) => get(key),
    has: (_target, key) => key in resolve(),
    ownKeys: () => [...new Set([...Reflect.ownKeys(resolve()), ...Reflect.ownKeys(target).filter(fixed)])],
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(resolve(), key);
      if (fixed(key)) return { ...Reflect.getOwnPropertyDescriptor(target, key), ...(descriptor && { value: descriptor.value }) };
      return descriptor && { ...descriptor, configurable: true };
    },
    apply: (_target, self, args) => Reflect.apply(resolve() as (...args: unknown[]) => unknown, self, args),
    construct: (_target, args) => Reflect.construct(resolve() as new (...args: unknown[]) => object, args),
  });
}

/** A stand-in in the require cache, taken out once the engine has loaded (see releaseStandIns). */
interface StandIn {
  cache: NodeJS.Require['cache'];
  file: string;
  module: Module;
}

/**
 * Puts a stand-in for a module of the engine in the require cache, while the engine loads: its values load the
 * real module the first time they are used (see Deferral for what the engine uses while it loads).
 */
function deferModule(
  requireEngine: NodeJS.Require,
  specifier: string,
  { eager = [], kept = [], callable = false }: Deferral = {},
): StandIn | undefined {
  let file: string;
  try {
    file = requireEngine.resolve(specifier);
  } catch {
    return undefined;
  }
  if (requireEngine.cache[file]) return undefined;
  let real: Loaded | undefined;
  const calls: { key: string; method: string; args: unknown[] }[] = [];
  const load = () => {
    if (!real) {
      // Other code of the process may have loaded the real module since the stand-in left the cache: the same one.
      const present = requireEngine.cache[file];
      if (present && present !== module) real = present.exports as Loaded;
      else {
        delete requireEngine.cache[file];
        real = requireEngine(file) as Loaded;
      }
      for (const { key, method, args } of calls.splice(0)) (real[key] as Record<string, (...args: unknown[]) => unknown>)[method]!(...args);
    }
    return real;
  };
  const standIns = new Map<string, object>();
  const standIn = (key: string) =>
    lazy(
      () => load()[key] as object,
      false,
      (method) =>
        !real && typeof method === 'string' && kept.includes(method)
          ? (...args: unknown[]) => void calls.push({ key, method, args })
          : Reflect.get(load()[key] as object, method),
    );
  const module = new Module(file);
  module.filename = file;
  module.loaded = true;
  module.exports = lazy(load, callable, (key) => {
    if (typeof key !== 'string' || !eager.includes(key)) return load()[key];
    if (!standIns.has(key)) standIns.set(key, standIn(key));
    return standIns.get(key);
  });
  requireEngine.cache[file] = module;
  return { cache: requireEngine.cache, file, module };
}

/**
 * Parts of the engine that take much of its start-up time and memory for what the mock does not use by default,
 * or not for its first answers, load on first use: the schema faker, its random generator and its fake-data library
 * with every locale (for `Prefer: dynamic=true`); the reader of descriptions (the operations of this package's
 * description are made at build time) and of Postman collections; the merger of `allOf` schemas the validator uses
 * on request bodies (about 190 modules of lodash); the logger library (the mock gives the engine its own); the HTTP
 * client and proxy agents of callbacks and of Prism's own forwarding (the proxy forwards with its own).
 */
function deferUnusedParts(requireEngine: NodeJS.Require): (StandIn | undefined)[] {
  const callables = ['seedrandom', '@stoplight/json-schema-merge-allof', 'node-fetch', 'http-proxy-agent', 'https-proxy-agent'];
  return [
    // The engine hands `require('@faker-js/faker').default` to its schema faker as it loads.
    deferModule(requireEngine, '@faker-js/faker', { eager: ['default', 'faker'] }),
    // And sets the schema faker's options (JSONSchemaFaker.extend, .option) as it loads.
    deferModule(requireEngine, 'json-schema-faker', { eager: ['JSONSchemaFaker'], kept: ['extend', 'option'] }),
    ...callables.map((callable) => deferModule(requireEngine, callable, { callable: true })),
    // The validator of security requirements sets one attribute with lodash/fp (a conversion of all of lodash, the
    // largest part of the engine's start) only when a request fails them.
    deferModule(requireEngine, 'lodash/fp', { callable: true }),
    deferModule(requireEngine, '@stoplight/http-spec/postman/operation'),
    deferModule(requireEngine, './utils/operations'),
    // The engine's core requires the logger library from its own folder.
    deferModule(createRequire(requireEngine.resolve('@stoplight/prism-core')), 'pino', { callable: true }),
  ];
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

/**
 * Prepares the engine's modules, from its entry's location (its dependencies resolve from there). Gives the function
 * to call once the engine's modules have loaded: it takes the stand-ins out of the require cache, so that other code
 * of the process that requires one of those modules later gets the module itself (writes to it, its identity), while
 * the engine keeps its stand-ins, which load it on first use.
 */
export function prepareEngineModules(engineEntry: string): () => void {
  const requireEngine = createRequire(engineEntry);
  const standIns = deferUnusedParts(requireEngine);
  keepCompiledTemplates(requireEngine);
  return () => {
    for (const standIn of standIns) if (standIn && standIn.cache[standIn.file] === standIn.module) delete standIn.cache[standIn.file];
  };
}
