// The parts of the engine's fast path that are pure: which operations a route hands the engine (routing.ts),
// which of the mocker's answers are kept (answers.ts), and which of its verdicts (verdicts.ts). test/integration/fast-path.test.ts compares the whole with
// the engine's full path.
import { describe, expect, it } from 'vitest';
import { keptAnswers, type Mocker } from '../../src/engine/answers.js';
import type { EngineInput, EngineResult, EngineRoute, MockCallConfig } from '../../src/engine/prism.js';
import { candidatesOf, operationTable, routedFirst } from '../../src/engine/routing.js';
import { keptVerdicts, withoutCallbacks } from '../../src/engine/verdicts.js';

describe('operationTable: the operations a route hands the engine', () => {
  const operations = [
    { method: 'get', path: '/api/monitors' },
    { method: 'get', path: '/api/monitors/{monitor_id}' },
    { method: 'get', path: '/api/monitors/search' },
    { method: 'post', path: '/api/monitors/{monitor_id}' },
    { method: 'get', path: '/api/{kind}/search' },
    { method: 'get', path: '/api/monitor%20groups' },
    { method: 'get', path: '/api/monitor groups' },
    { method: 'get', path: '/api/files/{name}.json' },
  ];
  const table = operationTable(operations);
  const paths = (method: string, template: string) =>
    (candidatesOf(table, method, template) as typeof operations | undefined)?.map((operation) => operation.path);

  it('gives a path that overlaps no other its own operation alone', () => {
    expect(paths('get', '/api/monitors')).toEqual(['/api/monitors']);
    expect(paths('post', '/api/monitors/{monitor_id}')).toEqual(['/api/monitors/{monitor_id}']);
  });

  it('adds every operation of the same method whose path could match the same requests, in the document order', () => {
    expect(paths('get', '/api/monitors/{monitor_id}')).toEqual([
      '/api/monitors/{monitor_id}',
      '/api/monitors/search',
      '/api/{kind}/search',
    ]);
    expect(paths('get', '/api/monitors/search')).toEqual(['/api/monitors/{monitor_id}', '/api/monitors/search', '/api/{kind}/search']);
    expect(paths('get', '/api/{kind}/search')).toEqual([
      '/api/monitors/{monitor_id}',
      '/api/monitors/search',
      '/api/{kind}/search',
      '/api/files/{name}.json',
    ]);
  });

  it('compares literal segments percent-decoded, and takes a segment with a parameter in it as templated', () => {
    expect(paths('get', '/api/monitor%20groups')).toEqual(['/api/monitor%20groups', '/api/monitor groups']);
    expect(paths('get', '/api/files/{name}.json')).toEqual(['/api/{kind}/search', '/api/files/{name}.json']);
  });

  it("takes a route's operation as routed when it is the only candidate, and asks the engine's router otherwise", () => {
    const asked: unknown[][] = [];
    const route = routedFirst(({ resources }) => {
      asked.push(resources);
      return { _tag: 'Left', left: 'asked' };
    });
    const alone = candidatesOf(table, 'get', '/api/monitors')!;
    expect(route({ resources: alone, input: {} })).toEqual({ _tag: 'Right', right: alone[0] });
    const several = candidatesOf(table, 'get', '/api/monitors/search')!;
    expect(route({ resources: several, input: {} })).toEqual({ _tag: 'Left', left: 'asked' });
    // A list of one operation that is not a table's: the full path's, or the proxy's.
    expect(route({ resources: [operations[0]], input: {} })).toEqual({ _tag: 'Left', left: 'asked' });
    expect(asked).toEqual([several, [operations[0]]]);
  });

  it('has nothing for a route the engine does not know, and is made once per list', () => {
    expect(candidatesOf(table, 'delete', '/api/monitors')).toBeUndefined();
    expect(operationTable(operations)).toBe(table);
  });
});

describe('keptAnswers: the mocker answers once per operation and preference', () => {
  const counting = () => {
    const calls: unknown[] = [];
    const mocker: Mocker = (options) => () => {
      calls.push(options);
      const code = options.config.code;
      return code === 999
        ? { _tag: 'Left', left: new Error('no such status') }
        : { _tag: 'Right', right: { statusCode: code ?? 200, body: { n: calls.length } } };
    };
    return { calls, mocker: keptAnswers(mocker) };
  };
  const resource = {};
  const request = (config: Parameters<Mocker>[0]['config'] = {}, more: Partial<Parameters<Mocker>[0]> = {}) => ({
    resource,
    input: { data: { headers: {} }, validations: [] },
    config,
    ...more,
  });

  it('makes an answer once per operation, status, example and media types, and hands out the same frozen answer', () => {
    const { calls, mocker } = counting();
    const first = mocker(request())(undefined);
    expect(mocker(request())(undefined)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen((first as { right: { body: object } }).right.body)).toBe(true);
    mocker(request({ code: 404 }))(undefined);
    mocker(request({ code: 404, exampleKey: 'NotFound' }))(undefined);
    mocker(request({ code: 404, exampleKey: 'NotFound' }))(undefined);
    mocker({ ...request(), resource: {} })(undefined);
    expect(calls).toHaveLength(4);
  });

  it('makes the answer each time for a request with faults, a dynamic answer, an Accept header or callbacks', () => {
    const { calls, mocker } = counting();
    const faulty = request({}, { input: { data: { headers: {} }, validations: [{ severity: 0 }] } });
    const accepting = request({}, { input: { data: { headers: { Accept: 'application/json' } }, validations: [] } });
    const calling = request({}, { resource: { callbacks: [{}] } });
    for (const options of [faulty, request({ dynamic: true }), accepting, calling]) {
      mocker(options)(undefined);
      mocker(options)(undefined);
    }
    expect(calls).toHaveLength(8);
    // A warning is no fault: the answer is kept.
    const warned = request({}, { input: { data: { headers: {} }, validations: [{ severity: 1 }] } });
    mocker(warned)(undefined);
    mocker(warned)(undefined);
    expect(calls).toHaveLength(9);
  });

  it('keeps no refusal, and at most 64 answers per operation', () => {
    const { calls, mocker } = counting();
    mocker(request({ code: 999 }))(undefined);
    mocker(request({ code: 999 }))(undefined);
    expect(calls).toHaveLength(2);
    for (let round = 0; round < 2; round++)
      for (let index = 0; index < 100; index++) mocker(request({ exampleKey: `e${index}` }))(undefined);
    expect(calls).toHaveLength(2 + 100 + 36);
  });
});

describe('keptVerdicts: the engine judges a request once', () => {
  const counting = (
    judgedAlike = (_route: EngineRoute | undefined) => true,
    limits = { entries: 4, keyCharacters: 400, findingCharacters: 400 },
  ) => {
    const judged: EngineInput[] = [];
    const judge = keptVerdicts(
      async (input) => {
        judged.push(input);
        // A finding per element of a body that is a list (the engine reports every fault of a request).
        const findings = Array.isArray(input.body) ? input.body.length : 1;
        return {
          ok: true,
          output: { statusCode: 200, body: { n: judged.length } },
          validations: { input: Array.from({ length: findings }, () => ({ message: 'm', severity: 1 })), output: [] },
        } satisfies EngineResult;
      },
      judgedAlike,
      limits,
    );
    return { judged, judge };
  };
  const input = (more: Partial<EngineInput> = {}): EngineInput => ({
    method: 'get',
    url: { path: '/api/monitors', query: { page: '1' } },
    headers: { authorization: 'Service-oauthtoken 1000.a' },
    body: undefined,
    ...more,
  });
  const route: EngineRoute = { method: 'get', template: '/api/monitors' };

  it('hands out the same frozen verdict for the same request, preferences and route', async () => {
    const { judged, judge } = counting();
    const first = await judge(input(), {}, route);
    expect(await judge(input(), {}, route)).toBe(first);
    expect(judged).toHaveLength(1);
    expect(Object.isFrozen(first) && first.ok && Object.isFrozen(first.validations.input[0])).toBe(true);
  });

  it('judges again whatever differs: route, status, example, method, path, query, header, body, no body and null', async () => {
    const { judged, judge } = counting(undefined, { entries: 100, keyCharacters: 400, findingCharacters: 400 });
    const variants: [EngineInput, MockCallConfig, EngineRoute | undefined][] = [
      [input(), {}, route],
      [input(), {}, undefined],
      [input(), {}, { method: 'get', template: '/api/{kind}' }],
      [input(), {}, { method: 'head', template: '/api/monitors' }],
      [input(), { code: 404 }, route],
      [input(), { code: 404, exampleKey: 'NotFound' }, route],
      [input({ method: 'head' }), {}, route],
      [input({ url: { path: '/api/monitors/', query: { page: '1' } } }), {}, route],
      [input({ url: { path: '/api/monitors', query: { page: ['1', '1'] } } }), {}, route],
      [input({ headers: { authorization: 'Service-oauthtoken 1000.b' } }), {}, route],
      [input({ body: null }), {}, route],
      [input({ body: 'null' }), {}, route],
      [input({ body: {} }), {}, route],
    ];
    for (const [call, mock, to] of variants) await judge(call, mock, to);
    for (const [call, mock, to] of variants) await judge(call, mock, to);
    expect(judged).toHaveLength(variants.length);
  });

  it('judges every time a dynamic answer, a route with callbacks, a request larger than the bound, and one with more findings', async () => {
    const { judged, judge } = counting((to) => to?.template !== '/api/callbacks');
    const large = input({ body: { text: 'x'.repeat(400) } });
    // A short request the engine finds many faults in: its verdict is larger than its key.
    const faulty = input({ body: Array.from({ length: 40 }, () => 1) });
    for (let round = 0; round < 2; round++) {
      await judge(input(), { dynamic: true }, route);
      await judge(input(), {}, { method: 'get', template: '/api/callbacks' });
      await judge(large, {}, route);
      expect(Object.isFrozen(await judge(faulty, {}, route))).toBe(false);
    }
    expect(judged).toHaveLength(8);
  });

  it('stops writing the key of a large body at the bound: the body is not read whole', async () => {
    const { judged, judge } = counting();
    let reads = 0;
    const large = new Proxy(
      Array.from({ length: 100_000 }, () => 1),
      {
        get: (target, key, receiver) => {
          reads++;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    await judge(input({ body: large }), {}, route);
    expect(judged).toHaveLength(1);
    expect(reads).toBeLessThan(1000);
  });

  it('judges every time a body that JSON cannot write exactly: a number too large is Infinity, which JSON writes as null', async () => {
    const { judged, judge } = counting();
    // JSON.parse('{"n":1e400}') gives Infinity; the engine takes it for a number, and null for none.
    for (const body of [{ n: Number.POSITIVE_INFINITY }, { n: null }, { n: Number.NEGATIVE_INFINITY }, { n: null }])
      await judge(input({ body }), {}, route);
    expect(judged.map((call) => (call.body as { n: unknown }).n)).toEqual([Number.POSITIVE_INFINITY, null, Number.NEGATIVE_INFINITY]);
  });

  it('keeps at most the bound of verdicts: the oldest makes room', async () => {
    const { judged, judge } = counting();
    const numbered = (index: number) => input({ url: { path: '/api/monitors', query: { page: String(index) } } });
    for (let index = 0; index < 5; index++) await judge(numbered(index), {}, route);
    for (const index of [4, 3, 2, 1]) await judge(numbered(index), {}, route);
    expect(judged).toHaveLength(5);
    await judge(numbered(0), {}, route);
    expect(judged).toHaveLength(6);
  });
});

describe('withoutCallbacks: which routes the engine judges alike', () => {
  it('is true of operations without callbacks or with an empty list, false once one has a callback', () => {
    expect(withoutCallbacks([{ method: 'get' }, { method: 'get', callbacks: [] }])).toBe(true);
    expect(withoutCallbacks([{ method: 'get' }, { method: 'post', callbacks: [{ callbackName: 'onEvent' }] }])).toBe(false);
  });
});
