// The request journal without a server: entries made from calls and answers, the ring's bounds, the filters, the
// near misses, and no secret in any entry whatever place a client put it in.
import { describe, expect, it } from 'vitest';
import { mockDocumentOf } from '../../src/description/mock-document.js';
import { compileRoutes, matchRoute } from '../../src/description/routes.js';
import { type Answer, createCall } from '../../src/http/exchange.js';
import { makeEntry, maxBodyBytes } from '../../src/journal/entry.js';
import { journalAnswer } from '../../src/journal/http.js';
import { createJournal, type ExchangeFacts } from '../../src/journal/index.js';
import { nearMiss, nearMissRoutes } from '../../src/journal/near-miss.js';
import { serviceTime } from '../../src/simulator/clock.js';
import { loadBundle } from '../support/bundle.js';

const document = mockDocumentOf(loadBundle());
const routes = compileRoutes(document);
const at = Date.UTC(2026, 10, 21, 10);
const facts: ExchangeFacts = { at, operation: null, account: null, client_id: null, fault: null, behaviours: [] };
const formatTime = serviceTime;

const call = (method: string, url: string, headers: Record<string, string> = {}, body = '') =>
  createCall({ method, url, headers, body: Buffer.from(body) });
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

/** A journal, and a recorder of calls with their answers: the facts given, the operation the mock's routes match. */
function journalOf(
  options: { size?: number; maxBytes?: number; isSecret?: (value: string) => boolean; facts?: Partial<ExchangeFacts> } = {},
) {
  const { facts: given, ...journalOptions } = options;
  const journal = createJournal(document, { ...journalOptions, formatTime });
  const record = (sent: ReturnType<typeof call>, answered: Answer) => {
    const operation = matchRoute(routes, sent.segments, sent.method)?.operation?.operationId ?? null;
    journal.record(sent, answered, { ...facts, operation, ...given });
  };
  return { journal, record };
}

describe('an entry', () => {
  it('holds the request, the operation, the answer and the facts the simulator gives', () => {
    const { journal, record } = journalOf({
      facts: {
        at,
        account: '700000123',
        client_id: '1000.0123456789ABCDEF',
        fault: { status: 503, delay_ms: 20 },
        behaviours: ['fault-server-error', 'fault-delay'],
      },
    });
    record(
      call(
        'POST',
        '/api/monitor_groups?x=1&x=2',
        { 'content-type': 'application/json', cookie: 'zaaid=700000123' },
        '{"display_name":"Pay"}',
      ),
      answer(200, { code: 0, message: 'success' }),
    );
    const [entry] = journal.requests().requests;
    expect(entry).toEqual({
      id: 1,
      at: '2026-11-21T10:00:00+0000',
      method: 'POST',
      path: '/api/monitor_groups',
      query: { x: ['1', '2'] },
      operation: 'createMonitorGroup',
      account: '700000123',
      client_id: '...CDEF',
      headers: { 'content-type': 'application/json', cookie: 'zaaid=700000123' },
      body: { display_name: 'Pay' },
      status: 200,
      answer: { code: 0, message: 'success' },
      violations: [],
      fault: { status: 503, delay_ms: 20 },
      behaviours: ['fault-server-error', 'fault-delay'],
      near_miss: null,
    });
    // Read in the order of an exchange: the request, then the answer (toEqual ignores the order of the keys).
    expect(Object.keys(entry!)).toEqual([
      'id',
      'at',
      'method',
      'path',
      'query',
      'operation',
      'account',
      'client_id',
      'headers',
      'body',
      'status',
      'answer',
      'violations',
      'fault',
      'behaviours',
      'near_miss',
    ]);
  });

  it('keeps a body that is not JSON as text, and the violations of the answer', () => {
    const { journal, record } = journalOf();
    const violations = JSON.stringify([
      { location: ['request', 'body'], severity: 'Error', message: "must have required property 'display_name'" },
    ]);
    record(
      call('POST', '/api/monitor_groups', { 'content-type': 'text/plain' }, 'not json'),
      answer(400, { code: 400, message: 'Bad Request' }, { 'sl-violations': violations }),
    );
    const [entry] = journal.requests().requests;
    expect(entry?.body).toBe('not json');
    expect(entry?.violations).toEqual([{ location: 'request.body', message: "must have required property 'display_name'" }]);
  });

  it('cuts a body over 64 KiB and marks the cut', () => {
    const { journal, record } = journalOf();
    const long = JSON.stringify({ display_name: 'x'.repeat(maxBodyBytes) });
    record(call('POST', '/api/monitor_groups', { 'content-type': 'application/json' }, long), answer(200, {}));
    const body = journal.requests().requests[0]?.body as string;
    expect(typeof body).toBe('string');
    expect(body.startsWith('{"display_name":"xxx')).toBe(true);
    expect(body.endsWith(`...[cut: the body has ${long.length} bytes; the journal keeps ${maxBodyBytes}]`)).toBe(true);
    expect(body.length).toBeLessThan(maxBodyBytes + 100);
  });

  it('keeps a JSON body nested deeper than it walks as text, without failing', () => {
    const { journal, record } = journalOf();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    record(call('POST', '/api/monitor_groups', { 'content-type': 'application/json' }, deep), answer(400, {}));
    expect(journal.requests().requests[0]?.body).toBe(deep);
  });
});

describe('no secret in an entry', () => {
  const access = 'access-token-0123456789';
  const refresh = '1000.refresh-token-abcdef';
  const secret = 'client-secret-0123456789';
  const code = '1000.grant-code-0123456';

  it('a token of the Authorization header, sent again in the query, a JSON body, a cookie and another header', () => {
    const { journal, record } = journalOf();
    record(
      call(
        'POST',
        `/api/monitor_groups?t=${access}&access_token=${access}`,
        {
          authorization: `Service-oauthtoken ${access}`,
          'content-type': 'application/json',
          cookie: `zaaid=700000123; session=${access}; refresh_token=${refresh}`,
          'x-debug': `token ${access}`,
        },
        JSON.stringify({ display_name: `made with ${access}`, nested: { refresh_token: refresh, client_secret: secret } }),
      ),
      answer(200, { echo: access }),
    );
    const entry = journal.requests().requests[0]!;
    const text = JSON.stringify(entry);
    for (const value of [access, refresh, secret]) expect(text).not.toContain(value);
    expect(entry.headers.authorization).toBe('Service-oauthtoken [redacted]');
    expect(entry.headers.cookie).toBe('zaaid=700000123; session=[redacted]; refresh_token=[redacted]');
    expect(entry.query).toEqual({ t: '[redacted]', access_token: '[redacted]' });
    expect(entry.body).toEqual({
      display_name: 'made with [redacted]',
      nested: { refresh_token: '[redacted]', client_secret: '[redacted]' },
    });
    expect(entry.answer).toEqual({ echo: '[redacted]' });
  });

  it("the identity provider's form fields and its answer's tokens", () => {
    const { journal, record } = journalOf();
    const form = `grant_type=authorization_code&client_id=1000.CLIENT&client_secret=${secret}&code=${code}`;
    record(
      call('POST', '/oauth/v2/token', { 'content-type': 'application/x-www-form-urlencoded' }, form),
      answer(200, { access_token: access, refresh_token: refresh, expires_in: 3600, token_type: 'Bearer' }),
    );
    const entry = journal.requests().requests[0]!;
    expect(JSON.stringify(entry)).not.toMatch(new RegExp(`${secret}|${code}|${access}|${refresh}`));
    expect(entry.body).toBe('grant_type=authorization_code&client_id=[redacted]&client_secret=[redacted]&code=[redacted]');
    expect(entry.answer).toEqual({ access_token: '[redacted]', refresh_token: '[redacted]', expires_in: 3600, token_type: 'Bearer' });
  });

  /** A call that carries a value in its query, a cookie of no credential's name and its JSON body. */
  const callCarrying = (value: string) =>
    call('POST', `/api/monitor_groups?keep=${value}`, { 'content-type': 'application/json', cookie: `a=${value}` }, `{"note":"${value}"}`);

  it('a credential the simulator issued, given as the account; a long account cut', () => {
    const issued = 'issued-refresh-token-987654';
    const secretFacts = journalOf({ isSecret: (value) => value === issued, facts: { at, account: issued, client_id: null, fault: null } });
    secretFacts.record(call('GET', '/api/monitors', { cookie: `zaaid=${issued}` }), answer(200, {}));
    expect(secretFacts.journal.requests().requests[0]!.account).toBe('[redacted]');
    const long = '7'.repeat(900_000);
    const longFacts = journalOf({ facts: { at, account: long, client_id: null, fault: null } });
    longFacts.record(call('GET', '/api/monitors', { cookie: `zaaid=${long}` }), answer(403, {}));
    expect(longFacts.journal.requests().requests[0]!.account).toBe(`${'7'.repeat(256)}...[cut: 900000 characters]`);
  });

  it('a client ID is a secret: the entry names the client by the last four characters of its ID, and hides it elsewhere', () => {
    const clientId = '1000.0123456789ABCDEFGHIJ';
    const { journal, record } = journalOf({ facts: { at, account: null, client_id: clientId, fault: null } });
    const form = `grant_type=refresh_token&client_id=${clientId}&client_secret=${secret}&refresh_token=${refresh}`;
    record(
      call(
        'POST',
        `/oauth/v2/token/${clientId}?note=${clientId}`,
        { 'content-type': 'application/x-www-form-urlencoded', 'x-client': clientId },
        form,
      ),
      answer(400, { message: `no client ${clientId}` }),
    );
    const entry = journal.requests().requests[0]!;
    expect(JSON.stringify(entry)).not.toContain(clientId);
    expect(entry.client_id).toBe('...GHIJ');
    expect(entry.body).toBe(`grant_type=refresh_token&client_id=[redacted]&client_secret=[redacted]&refresh_token=[redacted]`);
    expect([entry.path, entry.query, entry.headers['x-client'], entry.answer]).toEqual([
      '/oauth/v2/token/[redacted]',
      { note: '[redacted]' },
      '[redacted]',
      { message: 'no client [redacted]' },
    ]);
    // A client ID too short to be one the service issues shows nothing of itself.
    const short = journalOf({ facts: { at, account: null, client_id: '1000.client', fault: null } });
    short.record(call('GET', '/api/monitors'), answer(200, {}));
    expect(short.journal.requests().requests[0]!.client_id).toBe('[redacted]');
  });

  it('a credential the simulator issued, wherever it appears under any name', () => {
    const issued = 'issued-refresh-token-987654';
    const { journal, record } = journalOf({ isSecret: (value) => value === issued });
    record(callCarrying(issued), answer(400, { message: `unknown ${issued}` }));
    expect(JSON.stringify(journal.requests())).not.toContain(issued);
  });

  it('a credential the simulator issued when the call was recorded, though forgotten before the entry is read', () => {
    const issued = 'issued-access-token-123456';
    let known = true;
    const { journal, record } = journalOf({ isSecret: (value) => known && value === issued });
    record(callCarrying(issued), answer(200, { echo: issued, list: [`in ${issued} text`] }));
    known = false; // e.g. the identity provider forgot it, past its bound
    const entry = journal.requests().requests[0]!;
    expect(JSON.stringify(entry)).not.toContain(issued);
    expect(entry.body).toEqual({ note: '[redacted]' });
    expect(entry.answer).toEqual({ echo: '[redacted]', list: ['in [redacted] text'] });
    expect(journal.requests({ path: '/api/monitor_groups' }).requests).toHaveLength(1);
  });

  it('a credential the simulator issued, in a misspelt or made-up header, the path, or a body that does not parse', () => {
    const issued = '1000.0123456789abcdef0123456789abcdef.fedcba9876543210fedcba9876543210';
    const { journal, record } = journalOf({ isSecret: (value) => value === issued });
    record(call('GET', `/api/monitors/${issued}`, { authorisation: `Service-oauthtoken ${issued}`, 'x-refresh': issued }), answer(404, {}));
    record(call('POST', '/api/monitor_groups', { 'content-type': 'application/json' }, `{"display_name": "${issued}",}`), answer(400, {}));
    expect(JSON.stringify(journal.requests())).not.toContain(issued);
    expect(journal.requests().requests[0]!.path).toBe('/api/monitors/[redacted]');
  });

  it('credential parameters of a body sent as text, without Content-Type, or as JSON that does not parse', () => {
    const { journal, record } = journalOf();
    const form = `grant_type=authorization_code&client_id=1000.CLIENT&client_secret=${secret}&code=${code}`;
    record(call('POST', '/oauth/v2/token', { 'content-type': 'text/plain' }, form), answer(400, {}));
    record(call('POST', '/oauth/v2/token', {}, form), answer(400, {}));
    record(
      call('POST', '/api/monitor_groups', { 'content-type': 'application/json' }, `{"client_secret" : "${secret}",}`),
      answer(400, {}),
    );
    const text = JSON.stringify(journal.requests());
    for (const value of [secret, code]) expect(text).not.toContain(value);
    expect(journal.requests().requests[0]!.body).toBe(
      'grant_type=authorization_code&client_id=[redacted]&client_secret=[redacted]&code=[redacted]',
    );
  });

  it('written with JSON escapes, or under an attribute named __proto__', () => {
    const { journal, record } = journalOf();
    const escaped = `{"note":"\\u0061${access.slice(1)}","__proto__":{"x":"${access}"}}`;
    record(
      call('POST', '/api/monitor_groups', { 'content-type': 'application/json', authorization: `Service-oauthtoken ${access}` }, escaped),
      answer(200, {}),
    );
    const entry = journal.requests().requests[0]!;
    expect(JSON.stringify(entry)).not.toContain(access);
    expect(entry.body).toEqual(JSON.parse('{"note":"[redacted]","__proto__":{"x":"[redacted]"}}'));
  });

  it('a credential nested deeper than a walk reaches, in a body of any size', () => {
    const { journal, record } = journalOf();
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}{"client_secret":"${secret}"}${'}'.repeat(depth)}`;
    record(call('POST', '/api/monitor_groups', { 'content-type': 'application/json' }, nested(70)), answer(400, {}));
    record(call('POST', '/api/monitor_groups', { 'content-type': 'text/plain' }, nested(30_000)), answer(400, {}));
    expect(JSON.stringify(journal.requests())).not.toContain(secret);
  });

  it('in a body over 64 KiB: written with escapes, the first of two duplicate keys, a number', () => {
    const { journal, record } = journalOf();
    const padding = 'x'.repeat(maxBodyBytes);
    const escaped = '"\\u0063lient-secret\\/escaped-0123456789"'; // client-secret/escaped-0123456789
    const body = `{"client_secret":${escaped},"note":"client\\u002dsecret\\/escaped-0123456789","client_id":"first-of-two-0123456789","client_id":"second-of-two","refresh_token":987654321012345,"pad":"${padding}"}`;
    record(call('POST', '/oauth/v2/token', { 'content-type': 'application/json' }, body), answer(400, {}));
    const text = JSON.stringify(journal.requests());
    for (const value of ['secret\\/escaped', 'secret/escaped', 'escaped-0123456789', 'first-of-two', '987654321012345'])
      expect(text).not.toContain(value);
    // A number under a credential's name is hidden in a small body too; a short one (a code, a count) stays.
    record(call('POST', '/api/monitor_groups', { 'content-type': 'application/json' }, '{"token":123456789,"code":0}'), answer(400, {}));
    expect(journal.request(2)?.body).toEqual({ token: '[redacted]', code: 0 });
  });

  it('an issued token in the path, its dots percent-encoded or every character', () => {
    const issued = '1000.0123456789abcdef0123456789abcdef.fedcba9876543210fedcba9876543210';
    const { journal, record } = journalOf({ isSecret: (value) => value === issued });
    const everyCharacter = [...issued].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    record(call('GET', `/api/monitors/${issued.replaceAll('.', '%2E')}`), answer(404, {}));
    record(call('GET', `/api/monitors/${everyCharacter}`), answer(404, {}));
    const text = JSON.stringify(journal.requests());
    for (const part of issued.split('.')) expect(text).not.toContain(part);
    expect(journal.requests().requests.map((entry) => entry.path)).toEqual(['/api/monitors/[redacted]', '/api/monitors/[redacted]']);
  });

  it('a token that holds a slash, in the path as sent', () => {
    const token = 'abcdef0123/ghijklmnop4567';
    const { journal, record } = journalOf();
    record(call('GET', `/api/monitors/${token}`, { authorization: `Service-oauthtoken ${token}` }), answer(404, {}));
    expect(journal.requests().requests.map((entry) => entry.path)).toEqual(['/api/monitors/[redacted]']);
    expect(JSON.stringify(journal.requests())).not.toContain('ghijklmnop4567');
  });

  it('a body meant as JSON that does not parse: an unquoted value under a credential name', () => {
    const { journal, record } = journalOf();
    record(
      call(
        'POST',
        '/oauth/v2/token',
        { 'content-type': 'application/json' },
        '{"client_secret":MadeUpUnquotedSecretValue,"grant_type":"refresh_token"}',
      ),
      answer(400, {}),
    );
    expect(journal.requests().requests[0]?.body).toBe('{"client_secret":"[redacted]","grant_type":"refresh_token"}');
  });

  it('in a body over 64 KiB, redacted before the cut', () => {
    const { journal, record } = journalOf();
    const body = JSON.stringify({ display_name: 'x'.repeat(maxBodyBytes - 30), client_secret: secret });
    record(
      call('POST', '/api/monitor_groups', { 'content-type': 'application/json', authorization: `Service-oauthtoken ${secret}` }, body),
      answer(400, {}),
    );
    expect(JSON.stringify(journal.requests())).not.toContain(secret.slice(0, 12));
  });
});

describe('what a client may send it', () => {
  /** The body of a hostile token request: thousands of values under a credential's name, as text/plain (no preflight). */
  const codes = (count: number) =>
    `{"code":[${Array.from({ length: count }, (_, index) => `"v${String(index).padStart(6, '0')}"`).join(',')}]}`;

  it('a request that carries more secrets than one redaction holds keeps none of its text, and says so', () => {
    const { journal, record } = journalOf();
    const body = codes(12_800); // 128 KB
    record(call('POST', '/oauth/v2/token?code=v000001', { 'content-type': 'text/plain', 'x-note': 'v000002' }, body), answer(400, {}));
    const entry = journal.requests().requests[0]!;
    const hidden = '[hidden: more than 64 secrets (or 65536 characters of them) in one exchange]';
    expect(entry).toMatchObject({ method: 'POST', operation: 'requestToken', status: 400, body: hidden, answer: hidden, path: hidden });
    expect(entry.headers).toEqual({ 'content-type': hidden, 'x-note': hidden });
    expect(JSON.stringify(entry)).not.toMatch(/v0000/);
    // Within the bound, each secret is hidden and the rest shown.
    record(call('POST', '/oauth/v2/token', { 'content-type': 'text/plain' }, codes(60)), answer(400, {}));
    expect(journal.request(2)?.body).toEqual({ code: Array.from({ length: 60 }, () => '[redacted]') });
  });

  /** The bytes an object graph holds, about as V8 keeps it: texts and buffers, and a share for each object. */
  function heldBytes(root: unknown): number {
    const seen = new Set<object>();
    const stack = [root];
    let bytes = 0;
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value === 'string') bytes += value.length;
      if (typeof value !== 'object' || value === null || seen.has(value)) continue;
      seen.add(value);
      if (ArrayBuffer.isView(value)) bytes += value.buffer.byteLength;
      else {
        const keys = Object.keys(value);
        bytes += 56 + 8 * keys.length;
        for (const key of keys) stack.push((value as Record<string, unknown>)[key]);
      }
    }
    return bytes;
  }

  it('an entry counts what it really keeps: a body of 64 KB of empty objects, a header of 2 MiB', () => {
    const empties = `[${Array.from({ length: 21_000 }, () => '{}').join(',')}]`;
    const token = makeEntry(call('POST', '/oauth/v2/token', { 'content-type': 'application/json' }, empties), answer(400, {}), {
      ...facts,
      operation: 'requestToken',
    });
    expect(heldBytes(token)).toBeLessThan(token.bytes + 2048);
    const big = makeEntry(call('GET', '/api/monitors', { 'x-big': 'h'.repeat(2 * 1024 * 1024) }), answer(200, {}), {
      ...facts,
      operation: 'listMonitors',
    });
    expect(heldBytes(big)).toBeLessThan(big.bytes + 2048);
    expect(big.bytes).toBeLessThan(24 * 1024);
  });
});

describe('the ring', () => {
  const list = () => call('GET', '/api/monitors');

  it('keeps the newest entries, ids that only grow, and counts those dropped', () => {
    const { journal, record } = journalOf({ size: 3 });
    for (let index = 0; index < 5; index++) record(list(), answer(200, { index }));
    const page = journal.requests();
    expect(page.requests.map((entry) => entry.id)).toEqual([3, 4, 5]);
    expect(page.dropped).toBe(2);
    expect(journal.request(2)).toBeUndefined();
    expect(journal.request(4)?.answer).toEqual({ index: 3 });
    journal.clear();
    expect(journal.requests()).toEqual({ requests: [], dropped: 0 });
    record(list(), answer(200, {}));
    expect(journal.requests().requests[0]?.id).toBe(6);
  });

  it('bounds the bytes it holds, whatever the number of entries', () => {
    const { journal, record } = journalOf({ size: 1000, maxBytes: 300_000 });
    const body = JSON.stringify({ display_name: 'x'.repeat(60_000) });
    for (let index = 0; index < 20; index++)
      record(call('POST', '/api/monitor_groups', { 'content-type': 'application/json' }, body), answer(200, {}));
    const page = journal.requests();
    expect(page.requests.length).toBeLessThanOrEqual(5);
    expect(page.requests.length + page.dropped).toBe(20);
  });

  it('size 0 keeps nothing', () => {
    const { journal, record } = journalOf({ size: 0 });
    record(list(), answer(200, {}));
    expect(journal.requests()).toEqual({ requests: [], dropped: 0 });
  });

  it('refuses a size that is not a whole number >= 0', () => {
    expect(() => createJournal(document, { size: -1, formatTime })).toThrow(/journalSize must be a whole number >= 0/);
    expect(() => createJournal(document, { size: 1.5, formatTime })).toThrow(TypeError);
  });

  it('an entry read out is a copy: changing it changes nothing kept', () => {
    const { journal, record } = journalOf();
    record(list(), answer(200, { kept: true }));
    const [entry] = journal.requests().requests;
    (entry!.answer as { kept: boolean }).kept = false;
    expect(journal.request(1)?.answer).toEqual({ kept: true });
  });
});

describe('filters', () => {
  const { journal, record } = journalOf();
  record(call('GET', '/api/monitors'), answer(200, {}));
  record(call('GET', '/api/monitors/1'), answer(404, {}));
  record(call('POST', '/oauth/v2/token'), answer(400, {}));
  record(call('DELETE', '/api/monitors'), answer(405, {}));
  const ids = (filter: object) => journal.requests(filter).requests.map((entry) => entry.id);

  it('by operation, method, path, status (or its class), since and limit', () => {
    expect(ids({ operation: 'listMonitors' })).toEqual([1]);
    expect(ids({ method: 'get' })).toEqual([1, 2]);
    expect(ids({ path: '/api/monitors' })).toEqual([1, 4]);
    expect(ids({ status: 404 })).toEqual([2]);
    expect(ids({ status: '4xx' })).toEqual([2, 3, 4]);
    expect(ids({ since: 2 })).toEqual([3, 4]);
    expect(ids({ since: 1, limit: 2 })).toEqual([2, 3]);
  });

  it('a wrong filter throws naming the field', () => {
    expect(() => journal.requests({ status: 'abc' })).toThrow(/^status must be/);
    expect(() => journal.requests({ limit: 0 })).toThrow(/^limit must be a whole number >= 1/);
    expect(() => journal.requests({ operation: 'nope' })).toThrow(/^operation must be an operationId/);
    expect(() => journal.requests({ method: 'GE T' })).toThrow(/^method must be an HTTP method/);
    expect(() => journal.requests({ bogus: 1 } as object)).toThrow(/^the filter of the journal has "bogus": it takes operation, method/);
  });

  it('over HTTP: a wrong value or an unknown parameter answers 400 naming it', () => {
    const http = (url: string, method = 'GET') => {
      const sent = call(method, url);
      const answered = journalAnswer(journal, sent, sent.path.replace(/\/+$/, ''));
      return { status: answered.status, body: answered.body.length > 0 ? JSON.parse(answered.body.toString()) : undefined };
    };
    expect(http('/__mock/requests?status=404').body.requests.map((entry: { id: number }) => entry.id)).toEqual([2]);
    expect(http('/__mock/requests?since=x')).toMatchObject({ status: 400, body: { message: expect.stringContaining('since must be') } });
    expect(http('/__mock/requests?colour=red')).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('the filter of the journal has "colour"') },
    });
    expect(http('/__mock/requests?limit=1&limit=2')).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('"limit" is given twice') },
    });
    expect(http('/__mock/requests/3').body.operation).toBe('requestToken');
    expect(http('/__mock/requests/99').status).toBe(404);
    expect(http('/__mock/requests/abc').status).toBe(400);
    expect(http('/__mock/requests', 'POST').status).toBe(405);
  });
});

describe('near misses', () => {
  const prepared = nearMissRoutes(routes);
  const miss = (method: string, path: string) => nearMiss(prepared, method, path.split('/').slice(1));

  it('names the closest operation and what differed', () => {
    expect(miss('GET', '/api/monitor')).toEqual({ operation: 'listMonitors', method: 'GET', path: '/api/monitors', differs: ['path'] });
    expect(miss('GET', '/monitors')).toEqual({ operation: 'listMonitors', method: 'GET', path: '/api/monitors', differs: ['server'] });
    expect(miss('POST', '/api/oauth/v2/token')).toEqual({
      operation: 'requestToken',
      method: 'POST',
      path: '/oauth/v2/token',
      differs: ['server'],
    });
    expect(miss('DELETE', '/api/monitors/1')).toMatchObject({ operation: 'getMonitor', differs: ['method'] });
    expect(miss('GET', '/api/v2/monitors')).toMatchObject({ operation: 'listMonitors', differs: ['path'] });
  });

  it('none for a path far from every operation', () => {
    expect(miss('GET', '/favicon.ico')).toBeNull();
    expect(miss('GET', '/a/b/c/d/e/f/g/h/i/j')).toBeNull();
  });

  it('is recorded for a call no operation matched, and only then', () => {
    const { journal, record } = journalOf();
    record(call('GET', '/api/monitor'), answer(404, {}));
    record(call('GET', '/api/monitors'), answer(200, {}));
    const [missed, matched] = journal.requests().requests;
    expect(missed).toMatchObject({ operation: null, near_miss: { operation: 'listMonitors', differs: ['path'] } });
    expect(matched?.near_miss).toBeNull();
  });
});
