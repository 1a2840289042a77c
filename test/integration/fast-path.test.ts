// The mock's fast path against the engine's full path. The fast path routes each request with the description's
// own routes and hands the engine only the operations that could answer it, and keeps the example answers the
// engine makes; the full path is the engine as Prism runs it (every operation, every answer made again). The same
// requests, valid and invalid, of every operation, with every documented status and example preferred, must get the
// same result from both: the engine's answer or refusal and its violations, and the mock's status, headers and body.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type SampleRequest, sampleRequests } from '../../scripts/lib/sample-requests.js';
import { engineFor, packagedDescription } from '../../src/engine/packaged.js';
import { createEngine, type Engine, type EngineResult, engineOperations, loadEngine } from '../../src/engine/prism.js';
import { candidatesOf, operationTable } from '../../src/engine/routing.js';
import { engineInput } from '../../src/engine/translate.js';
import { type Answer, type Call, checkCall, createCall } from '../../src/http/exchange.js';
import { type MockHandler, prepareMock } from '../../src/mock/handler.js';
import { createMockFetch } from '../../src/mock/index.js';
import { mockPolicy } from '../../src/mock/policy.js';
import { generateBadRequests } from '../support/bad-requests.js';
import { deref, type Json, loadBundle } from '../support/bundle.js';
import { schemaValidator } from '../support/validator.js';

const bundle = loadBundle();
const samples = sampleRequests(bundle);

interface Case {
  name: string;
  operationId?: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer | undefined;
}

/** Each sample as it is, then with each documented status, and each named example of it, preferred. */
function preferredCases(sample: SampleRequest): Case[] {
  const base = { operationId: sample.operationId, method: sample.method, target: sample.path, headers: sample.headers, body: sample.body };
  const cases: Case[] = [{ ...base, name: `${sample.operationId}: the sample` }];
  for (const [status, reference] of Object.entries<Json>(sample.operation.responses!)) {
    if (!/^\d{3}$/.test(status)) continue;
    const response: Json = deref(bundle, reference) ?? {};
    cases.push({ ...base, name: `${sample.operationId}: Prefer code=${status}`, headers: { ...sample.headers, Prefer: `code=${status}` } });
    for (const name of Object.keys(Object.values<Json>(response.content ?? {})[0]?.examples ?? {}))
      cases.push({
        ...base,
        name: `${sample.operationId}: Prefer code=${status}, example=${name}`,
        headers: { ...sample.headers, Prefer: `code=${status}, example=${name}` },
      });
  }
  return cases;
}

const validCases = samples.flatMap(preferredCases);
const invalidCases: Case[] = generateBadRequests(bundle, schemaValidator(bundle))
  .filter((entry) => entry.raw === undefined && entry.method !== undefined && entry.target !== undefined)
  .map((entry) => ({ name: entry.name, method: entry.method!, target: entry.target!, headers: entry.headers ?? {}, body: entry.body }));
const cases = [...validCases, ...invalidCases];

const callOf = (entry: Case): Call =>
  createCall({ method: entry.method, url: entry.target, headers: entry.headers, body: Buffer.from(entry.body ?? '') });

/** What the mock's policy hands the engine for a call, as the handler does; undefined when the policy answers it. */
function engineCall(policy: ReturnType<typeof mockPolicy>, call: Call) {
  if (checkCall(call)) return undefined;
  const match = policy.match(call);
  const decision = policy.before(call, match);
  if ('answer' in decision) return undefined;
  return { input: engineInput(call, decision.headers), config: decision.engine, route: match?.operation };
}

describe('the engine: the operations of the route only, and kept answers, against the full path', () => {
  const document = engineFor(undefined, { kind: 'mock' }).document;
  const policy = mockPolicy(document);
  const engines = Promise.all([createEngine(document, { kind: 'mock' }), createEngine(document, { kind: 'mock', fullPath: true })]);

  it('hands the engine the operation of the route alone (no two paths of the description overlap)', async () => {
    const operations = (await engineOperations(document)) as { method: string; path: string }[];
    const table = operationTable(operations);
    expect(operations.length).toBe(samples.length);
    for (const operation of operations) expect(candidatesOf(table, operation.method, operation.path)).toEqual([operation]);
  });

  it('gives the same result for every request the policy hands it, valid and invalid, and for each again', async () => {
    const [fast, full] = (await engines) as [Engine, Engine];
    const seen = { answers: new Set<string>(), faulted: new Set<string>() };
    // Every request twice: the second time, the fast path hands out the verdict it kept (verdicts.ts), and of
    // another request of the same operation and preferences without faults, the answer it kept (answers.ts). The
    // full path judges each request once (it keeps nothing: the second result would be the first).
    const fullResults = new Map<Case, EngineResult>();
    for (const round of [1, 2]) {
      for (const entry of cases) {
        // Each path gets its own reading of the call (the engine may write into what it is given).
        const prepared = engineCall(policy, callOf(entry));
        const again = engineCall(policy, callOf(entry));
        if (!prepared || !again) continue;
        const expected: EngineResult = fullResults.get(entry) ?? (await full.request(prepared.input, prepared.config));
        fullResults.set(entry, expected);
        const actual: EngineResult = await fast.request(again.input, again.config, again.route);
        expect(actual, `${entry.name} (round ${round})`).toEqual(expected);
        const operationId = again.route!.operationId;
        if (!expected.ok || expected.validations.input.some((validation) => validation.severity === 0)) seen.faulted.add(operationId);
        else seen.answers.add(operationId);
      }
    }
    // Every operation was answered; the engine found faults in the requests of every operation that takes input (a
    // path parameter, a body). It refuses none outright: every operation lists 400, which it answers with the faults.
    expect([...seen.answers].sort()).toEqual(samples.map((sample) => sample.operationId).sort());
    const takingInput = samples.filter((sample) => sample.template.includes('{') || sample.body !== undefined);
    expect(takingInput.length).toBeGreaterThan(2);
    for (const sample of takingInput) expect(seen.faulted, sample.operationId).toContain(sample.operationId);
  });
  it('keeps verdicts in mock mode only: the full path and the proxy judge the same request every time', async () => {
    const [fast, full] = (await engines) as [Engine, Engine];
    let forwarded = 0;
    const proxy = await createEngine(document, {
      kind: 'proxy',
      upstream: 'http://127.0.0.1:9',
      errors: false,
      forward: async () => {
        forwarded++;
        return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: { data: [] } };
      },
    });
    const sample = samples.find((entry) => entry.operationId === 'listMonitors')!;
    const twice = async (engine: Engine) => {
      const results: EngineResult[] = [];
      for (let round = 0; round < 2; round++) {
        const prepared = engineCall(
          policy,
          callOf({ name: 'listMonitors', method: sample.method, target: sample.path, headers: sample.headers }),
        )!;
        results.push(await engine.request(prepared.input, prepared.config, prepared.route));
      }
      return results;
    };
    const [kept, again] = await twice(fast);
    expect(again).toBe(kept);
    const [first, second] = await twice(full);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    await twice(proxy);
    expect(forwarded).toBe(2);
  });
});

describe('the mock: fast and full path give the same answers', () => {
  /** The answer as the test compares it: status, headers (the violations among them) and body. */
  const shown = (answer: Answer) => ({ status: answer.status, headers: answer.headers, body: answer.body.toString('utf8') });

  // One time for both simulators: what depends on the time is the same in both.
  const clock = () => Date.UTC(2026, 10, 26, 10);

  // A request the engine refuses or finds faults in is answered before the simulator, the same in both modes: the
  // bad requests are compared in mode 'examples' (and by the engine's own comparison above), the sample requests in
  // both, the simulator's answers among them.
  for (const [mode, modeCases] of [
    ['examples', cases],
    ['simulator', validCases],
  ] as const) {
    it(`in mode '${mode}', for every sample request${mode === 'examples' ? ' and bad request' : ''}`, async () => {
      const [fast, full] = (await Promise.all([
        prepareMock(packagedDescription, { mode, clock }).handler,
        prepareMock(packagedDescription, { mode, clock }, { engineMode: { kind: 'mock', fullPath: true } }).handler,
      ])) as [MockHandler, MockHandler];
      const statuses = new Set<number>();
      for (const entry of modeCases) {
        const expected = shown(await full(callOf(entry)));
        // The simulator's tokens are made at random: its answers of the identity provider are compared by status.
        const actual = shown(await fast(callOf(entry)));
        if (mode === 'simulator' && entry.target.startsWith('/oauth/')) expect(actual.status, entry.name).toBe(expected.status);
        else expect(actual, entry.name).toEqual(expected);
        // Without state, the same request again gets the same answer from the engine's kept verdict.
        if (mode === 'examples') expect(shown(await fast(callOf(entry))), `${entry.name}, again`).toEqual(expected);
        statuses.add(expected.status);
      }
      expect([...statuses].filter((status) => status >= 400).length).toBeGreaterThan(3);
      expect(statuses.has(200)).toBe(true);
    });
  }
});

describe('the parts of the engine that load on first use', () => {
  it('Prefer: dynamic=true loads the schema faker with the settings the engine made while it loaded', async () => {
    const mockFetch = createMockFetch({ mode: 'examples' });
    const reply = await mockFetch(`${mockFetch.baseUrl}/monitors`, {
      headers: { Authorization: 'Service-oauthtoken 1000.x', Prefer: 'dynamic=true' },
    });
    expect(reply.status).toBe(200);
    // Generated from the schema: the list may be empty (the schema sets no minimum).
    expect(Array.isArray(((await reply.json()) as { data: unknown }).data)).toBe(true);
    // Set by the engine's resetGenerator() as it loaded, kept by the stand-in and made on the real module.
    const requireEngine = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
    const { JSONSchemaFaker } = requireEngine('json-schema-faker') as { JSONSchemaFaker: { option(name: string): unknown } };
    expect([JSONSchemaFaker.option('alwaysFakeOptionals'), JSONSchemaFaker.option('optionalsProbability')]).toEqual([true, 1]);
  });

  it('other code of the process that requires a module the engine put off gets the module itself: its writes hold', () => {
    loadEngine();
    const requireEngine = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
    // node-fetch (v2) is its own default export; pino takes attributes set on it (the engine uses neither here).
    const nodeFetch = requireEngine('node-fetch') as { default: unknown };
    expect(nodeFetch.default).toBe(nodeFetch);
    const pino = createRequire(requireEngine.resolve('@stoplight/prism-core'))('pino') as Record<string, unknown>;
    pino.setByTheProcess = 42;
    expect(pino.setByTheProcess).toBe(42);
    delete pino.setByTheProcess;
  });

  it('a module put off until first use acts as the real one for any code of the process: called, constructed, read', () => {
    loadEngine();
    const requireEngine = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
    type Random = ((seed: string) => () => number) & (new (seed: string) => () => number);
    const seedrandom = requireEngine('seedrandom') as Random;
    expect(typeof seedrandom).toBe('function');
    const [called, constructed] = [seedrandom('same seed'), new seedrandom('same seed')];
    expect(constructed()).toBe(called());
    expect(Object.keys(seedrandom)).toEqual(expect.arrayContaining(['alea', 'xor128']));
    expect(Object.getOwnPropertyDescriptor(seedrandom, 'prototype')?.configurable).toBe(false);
    // lodash/fp is a function with methods: code of the process that requires it before the engine does gets one.
    const fp = requireEngine('lodash/fp') as ((value: unknown) => unknown) & {
      set: (path: string[], value: unknown, object: object) => object;
    };
    expect(typeof fp).toBe('function');
    expect(fp.set(['a'], 1, {})).toEqual({ a: 1 });
    const merge = requireEngine('@stoplight/json-schema-merge-allof') as (schema: object) => object;
    expect(merge({ allOf: [{ type: 'object' }, { required: ['a'] }] })).toEqual({ type: 'object', required: ['a'] });
  });
});
