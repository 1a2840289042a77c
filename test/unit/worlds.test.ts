// The mock's worlds without the engine: their addresses, their isolation, their bounds and what is forgotten past
// them, the endpoints of /__mock/worlds and the methods of control (src/mock/worlds/).
import { describe, expect, it } from 'vitest';
import { mockDocumentOf } from '../../src/description/mock-document.js';
import { type Answer, type Call, createCall } from '../../src/http/exchange.js';
import type { MockBehaviour } from '../../src/mock/types.js';
import { createWorlds, isTestApiPath, worldPathOf } from '../../src/mock/worlds/index.js';
import { worldIdFault } from '../../src/mock/worlds/paths.js';
import { worldBytes } from '../../src/mock/worlds/registry.js';
import { isControlPath, type Simulator } from '../../src/simulator/index.js';
import { loadBundle } from '../support/bundle.js';

const document = mockDocumentOf(loadBundle());
const origin = 'http://127.0.0.1:4010';

const call = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Call =>
  createCall({
    method,
    url,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });

/** What the mock's handler does around the worlds, without the engine: the test API, else a 200 recorded in the journal. */
const respond = async (simulator: Simulator, inner: Call): Promise<Answer> => {
  const answer = isControlPath(inner.path)
    ? simulator.controlAnswer(inner)
    : { status: 200, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify({ path: inner.path })) };
  simulator.record(inner, { answer, match: undefined, refused: false, behaviours: [] });
  return answer;
};

function mockWorlds(setup: MockBehaviour = {}) {
  const worlds = createWorlds(document, { clock: () => Date.UTC(2026, 10, 21, 10), ...setup }, () => origin);
  const control = { ...worlds.main.control, ...worlds.controls(() => origin) };
  const send = async (method: string, url: string, body?: unknown) => {
    const answer = url.startsWith('/worlds')
      ? await worlds.answer(call(method, url, body), respond)
      : worlds.controlAnswer(call(method, url, body), origin);
    return {
      status: answer.status,
      json: answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : undefined,
      headers: answer.headers,
    };
  };
  return { worlds, control, send };
}

describe("a world's addresses", () => {
  it('are the usual ones under /worlds/{id}, read as sent', () => {
    expect(worldPathOf('/worlds/gw0/api/monitors')).toEqual({ id: 'gw0', rest: '/api/monitors' });
    expect(worldPathOf('/worlds/gw0')).toEqual({ id: 'gw0', rest: '/' });
    expect(worldPathOf('/worlds')).toEqual({ id: '', rest: '/' });
    expect(worldPathOf('/worldsx/a')).toBeUndefined();
    expect(worldPathOf('/api/worlds/a')).toBeUndefined();
  });

  it("a world's test API is the test API, whatever its id (its rules apply there)", () => {
    expect(isTestApiPath('/__mock/state')).toBe(true);
    expect(isTestApiPath('/worlds/w1/__mock/state')).toBe(true);
    expect(isTestApiPath('/worlds/%2e%2e/__mock')).toBe(true);
    expect(isTestApiPath('/worlds/w1/api/monitors')).toBe(false);
    expect(isTestApiPath('/worlds/w1/worlds/w2/__mock')).toBe(false);
  });

  it('an id is 1 to 64 letters, digits, ".", "_" and "-", not starting with "."', () => {
    for (const id of ['gw0', '7', 'shard-3', 'node_20.x', 'a'.repeat(64)]) expect(worldIdFault(id), id).toBeUndefined();
    for (const id of ['', '.', '..', '.hidden', 'a b', 'a/b', '%41', 'é', 'a'.repeat(65), 7])
      expect(worldIdFault(id), String(id)).toMatch(/a world's id is/);
  });
});

describe('worlds made on demand', () => {
  it('a call to a world that is not yet makes it from the mock seed, and the world sees its call at its own root', async () => {
    const { send, control } = mockWorlds();
    const first = await send('GET', '/worlds/gw0/api/monitors?x=1');
    expect(first.json).toEqual({ path: '/api/monitors' });
    expect(control.worlds().worlds.map((world) => world.id)).toEqual(['default', 'gw0']);
    expect(
      control
        .world('gw0')
        .control.requests()
        .requests.map((entry) => `${entry.path} ${JSON.stringify(entry.query)}`),
    ).toEqual(['/api/monitors {"x":"1"}']);
    expect(control.requests().requests).toEqual([]);
    expect(control.world('gw0').control.state().account).toEqual(control.state().account);
  });

  it('POST /__mock/worlds answers the id and the addresses; ids are made when none is given', async () => {
    const { send } = mockWorlds();
    const made = await send('POST', '/__mock/worlds', { id: 'w1' });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      id: 'w1',
      base_url: `${origin}/worlds/w1/api`,
      auth_url: `${origin}/worlds/w1`,
      test_api: `${origin}/worlds/w1/__mock`,
      accounts: 5,
      requests: 0,
    });
    expect((await send('POST', '/__mock/worlds')).json.id).toBe('world-1');
    expect((await send('POST', '/__mock/worlds', { id: 'w1' })).status).toBe(409);
    expect((await send('POST', '/__mock/worlds', { id: 'default' })).status).toBe(409);
    expect((await send('POST', '/__mock/worlds', { id: '../x' })).json.message).toMatch(/id: a world's id is/);
    expect((await send('POST', '/__mock/worlds', { name: 'x' })).json.message).toMatch(/"name": it takes id, seed, from/);
  });

  it('from a seed of its own (checked as the mock seed), or as a copy of another world', async () => {
    const { send, control } = mockWorlds();
    const seeded = await send('POST', '/__mock/worlds', {
      id: 'seeded',
      seed: { account: { type: 'normal', monitors: [{ monitor_id: '42' }] } },
    });
    expect(seeded.json).toMatchObject({ accounts: 1, monitors: 1 });
    const wrong = await send('POST', '/__mock/worlds', { seed: { account: { monitors: [{ monitor_id: 'x' }] } } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/the seed is not valid, so no world was made: \/account\/monitors\/0\/monitor_id/);

    control.setState({ account: { monitors: [{ monitor_id: '7' }] } });
    control.advanceClock(3_600_000);
    control.randomFaults({ seed: 5, rate: 0.5 });
    control.registerClient();
    const copy = control.createWorld({ from: 'default' });
    const state = copy.control.state();
    expect(state.account.monitors).toEqual([{ monitor_id: '7' }]);
    expect(state.now).toBe('2026-11-21T11:00:00+0000');
    expect(state.random_faults?.seed).toBe(5);
    expect(state.tokens.clients).toBe(0);
    copy.control.reset();
    expect(copy.control.state()).toMatchObject({ now: '2026-11-21T11:00:00+0000', account: { monitors: [{ monitor_id: '7' }] } });
    expect(() => control.createWorld({ from: 'nowhere' })).toThrow(RangeError);
    expect(() => control.createWorld({ from: 'default', seed: {} })).toThrow(/a seed or from another world, not both/);
  });

  it("no world sees another's state, clock, faults, clients or journal", async () => {
    const { send, control } = mockWorlds();
    const [a, b] = [control.world('a'), control.world('b')];
    a.control.setState({ account: { monitors: [{ monitor_id: '1' }] } });
    a.control.advanceClock(60_000);
    a.control.fault({ operation: 'listMonitors', status: 503 });
    a.control.registerClient();
    await send('GET', '/worlds/a/api/monitors');
    expect(b.control.state()).toEqual(control.state());
    expect(b.control.requests().requests).toEqual([]);
    expect(a.control.state()).toMatchObject({
      now: '2026-11-21T10:01:00+0000',
      faults: [{ operation: 'listMonitors' }],
      tokens: { clients: 1 },
    });
    expect((await send('POST', '/worlds/b/__mock/reset')).status).toBe(204);
    expect(a.control.state().account.monitors).toEqual([{ monitor_id: '1' }]);
  });

  it('/worlds/default is the default world; a world has no /__mock/worlds of its own', async () => {
    const { send, control } = mockWorlds();
    await send('GET', '/worlds/default/api/monitors');
    expect(control.requests().requests).toHaveLength(1);
    expect((await send('GET', '/worlds/w1/__mock/worlds')).json.message).toMatch(/the mock's own test API \(\/__mock\/worlds\)/);
    expect((await send('GET', '/worlds/')).status).toBe(404);
    expect((await send('GET', '/worlds/a%20b/api/monitors')).status).toBe(400);
  });
});

describe('the bound on worlds', () => {
  it('past maxWorlds the world idle longest is forgotten, and a call to it says so (410) until it is made again', async () => {
    const { send, control } = mockWorlds({ maxWorlds: 2 });
    await send('GET', '/worlds/w1/api/monitors');
    await send('GET', '/worlds/w2/api/monitors');
    await send('GET', '/worlds/w1/api/monitors'); // w2 is now idle longest
    await send('GET', '/worlds/w3/api/monitors');
    expect(control.worlds().worlds.map((world) => world.id)).toEqual(['default', 'w1', 'w3']);
    const gone = await send('GET', '/worlds/w2/api/monitors');
    expect(gone.status).toBe(410);
    expect(gone.json.message).toMatch(
      /^Gone: the world "w2" was forgotten: the mock keeps at most 2 worlds besides the default \(--max-worlds, maxWorlds\), and it was the one idle longest when "w3" was made; make it again with POST \/__mock\/worlds \{"id": "w2"\}/,
    );
    expect((await send('GET', '/__mock/worlds/w2')).status).toBe(410);
    expect(() => control.world('w2')).toThrow(/was forgotten/);
    expect(control.worlds()).toMatchObject({ forgotten: 1, max_worlds: 2 });
    expect((await send('POST', '/__mock/worlds', { id: 'w2' })).status).toBe(201);
    expect((await send('GET', '/worlds/w2/api/monitors')).status).toBe(200);
  });

  it('a world with a call under way is not forgotten; with every world busy, a new one is refused (503)', async () => {
    const { worlds, send } = mockWorlds({ maxWorlds: 1 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = worlds.answer(call('GET', '/worlds/busy/api/monitors'), async (simulator, inner) => {
      await held;
      return respond(simulator, inner);
    });
    const refused = await send('GET', '/worlds/other/api/monitors');
    expect(refused.status).toBe(503);
    expect(refused.headers['Retry-After']).toBe('1');
    expect(refused.json.message).toMatch(/each with a call under way: none can be forgotten to make "other"/);
    release();
    expect((await slow).status).toBe(200);
    expect((await send('GET', '/worlds/other/api/monitors')).status).toBe(200);
  });

  it("a world's journal holds no more than maxWorldBytes, so that the one world in use stays within the bound", async () => {
    const bytes = 1_000_000;
    const { send, control } = mockWorlds({ maxWorldBytes: bytes });
    const refused = { display_name: 5, note: 'x'.repeat(200_000) }; // a 400 the journal keeps 64 KiB of
    for (let index = 0; index < 30; index++) await send('POST', '/worlds/w1/api/monitor_groups', refused);
    const world = control.worlds().worlds.find((each) => each.id === 'w1')!;
    expect(world.held_bytes).toBeLessThan(bytes + worldBytes + 100_000);
    expect(control.world('w1').control.requests().requests.length).toBeLessThan(30);
  });

  it('past maxWorldBytes the worlds idle longest are forgotten, never the one in use, never the default', async () => {
    const bytes = 3 * worldBytes + 200_000;
    const { send, control } = mockWorlds({ maxWorldBytes: bytes });
    for (const id of ['w1', 'w2', 'w3']) await send('GET', `/worlds/${id}/api/monitors`);
    expect(control.worlds().forgotten).toBe(0);
    const group = { display_name: 'x'.repeat(60_000) };
    for (let index = 0; index < 4; index++) await send('POST', '/worlds/w3/api/monitor_groups', group); // the journal keeps each body
    const report = control.worlds();
    // w3 alone holds more than the bound: the world a call is using stays, and its journal's own bound holds it.
    expect(report.worlds.map((world) => world.id)).toEqual(['default', 'w3']);
    expect(report.held_bytes).toBe(report.worlds[1]!.held_bytes);
    expect(report.held_bytes).toBeGreaterThan(bytes);
    expect((await send('GET', '/worlds/w1/api/monitors')).json.message).toMatch(
      /the worlds held more than \d+ bytes together \(--max-world-bytes, maxWorldBytes\), and it was the one idle longest/,
    );
  });

  it("a world's held bytes count its seed of its own, its journal, its groups, its tokens and its fault scripts", async () => {
    const { send, control } = mockWorlds();
    const held = (id: string) => control.worlds().worlds.find((world) => world.id === id)!.held_bytes;
    control.world('w');
    const start = held('w');
    expect(start).toBeGreaterThanOrEqual(worldBytes);
    const seeded = control.createWorld({ seed: { account: { monitors: [{ monitor_id: '1', display_name: 'x'.repeat(100_000) }] } } });
    expect(held(seeded.id)).toBeGreaterThan(start + 2 * 100_000);
    await send('GET', `/worlds/w/api/monitors?q=${'y'.repeat(10_000)}`);
    const journaled = held('w');
    expect(journaled).toBeGreaterThan(start + 10_000);
    const w = control.world('w').control;
    w.registerClient();
    w.fault({ operation: 'listMonitors', status: 500, count: 3 });
    expect(held('w')).toBeGreaterThan(journaled + 1_000);
    expect(control.worlds().held_bytes).toBe(held('w') + held(seeded.id));
  });
});

describe('ending worlds', () => {
  it('DELETE ends a world: its controls say so, and its next call makes it anew', async () => {
    const { send, control } = mockWorlds();
    const w = control.world('w');
    w.control.setState({ account: { monitors: [] } });
    expect((await send('DELETE', '/__mock/worlds/w')).status).toBe(204);
    expect(() => w.control.state()).toThrow(/the world "w" was ended/);
    expect((await send('GET', '/__mock/worlds/w')).status).toBe(404);
    await send('GET', '/worlds/w/api/monitors');
    expect(control.world('w').control.state().account.monitors).toHaveLength(2);
    expect((await send('DELETE', '/__mock/worlds/default')).json.message).toMatch(/never ended/);
    expect((await send('DELETE', '/__mock/worlds/nobody')).status).toBe(404);
    expect(() => control.deleteWorld('nobody')).toThrow(RangeError);
  });

  it('DELETE of a forgotten world frees its id for a call to make it anew', async () => {
    const { send } = mockWorlds({ maxWorlds: 1 });
    await send('GET', '/worlds/a/api/monitors');
    await send('GET', '/worlds/b/api/monitors');
    expect((await send('GET', '/worlds/a/api/monitors')).status).toBe(410);
    expect((await send('DELETE', '/__mock/worlds/a')).status).toBe(204);
    expect((await send('GET', '/worlds/a/api/monitors')).status).toBe(200);
  });
});

describe('the worlds endpoints', () => {
  it('GET lists the default first, then the others, the one idle longest first, with their counts', async () => {
    const { send } = mockWorlds({ maxWorlds: 5, maxWorldBytes: 10_000_000 });
    await send('GET', '/worlds/b/api/monitors');
    await send('GET', '/worlds/a/api/monitors');
    const list = await send('GET', '/__mock/worlds');
    expect(list.json.worlds.map((world: { id: string }) => world.id)).toEqual(['default', 'b', 'a']);
    expect(list.json).toMatchObject({ max_worlds: 5, max_world_bytes: 10_000_000, forgotten: 0 });
    expect(list.json.worlds[2]).toMatchObject({ id: 'a', requests: 1, faults: 0, tokens: { clients: 0 }, now: '2026-11-21T10:00:00+0000' });
    expect((await send('GET', '/__mock/worlds/a')).json).toEqual(list.json.worlds[2]);
  });

  it('answer 405 with Allow, OPTIONS, 404 beyond them, 400 for a body they do not take', async () => {
    const { send } = mockWorlds();
    expect((await send('PUT', '/__mock/worlds')).headers.Allow).toBe('GET, POST');
    expect((await send('POST', '/__mock/worlds/x')).headers.Allow).toBe('GET, DELETE');
    expect((await send('OPTIONS', '/__mock/worlds/')).status).toBe(204);
    expect((await send('GET', '/__mock/worlds/a/b')).status).toBe(404);
    expect((await send('GET', '/__mock/worlds', { id: 'x' })).status).toBe(400);
  });

  it('refuses an id, a number of worlds or bytes that is not one', () => {
    expect(() => mockWorlds({ maxWorlds: 0 })).toThrow(/maxWorlds must be a whole number > 0/);
    expect(() => mockWorlds({ maxWorldBytes: 1.5 })).toThrow(/maxWorldBytes must be a whole number > 0/);
    expect(() => mockWorlds().control.world('a/b')).toThrow(TypeError);
  });
});
