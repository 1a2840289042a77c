// The hand-written readers of outside input, one function at a time: media types, Prefer, request targets, the
// sl-violations header, redaction and escaping. No server: what each gives for ordinary and hostile text.
import { describe, expect, it } from 'vitest';
import {
  checkCall,
  createCall,
  maxViolationsHeaderLength,
  parseMediaType,
  sameMediaType,
  violationsHeader,
} from '../../src/http/exchange.js';
import { jsonFault } from '../../src/http/json-fault.js';
import { maxPreferLength, readPreferences } from '../../src/mock/preferences.js';
import { markdownText, terminalText, xmlText } from '../../src/output/escape.js';
import { scanJson } from '../../src/output/json-text.js';
import { Patterns } from '../../src/output/patterns.js';
import { hiddenWhole, Redactor, redacted, redactJson, redactTarget, secretsOfJson, secretsOfRequest } from '../../src/output/redact.js';

describe('parseMediaType', () => {
  it.each([
    ['application/json', { type: 'application/json', parameters: {} }],
    ['Application/JSON ; Version=2.0', { type: 'application/json', parameters: { version: '2.0' } }],
    ['application/json;charset=UTF-8', { type: 'application/json', parameters: { charset: 'UTF-8' } }],
    ['application/json; version="2.0"', { type: 'application/json', parameters: { version: '2.0' } }],
    ['text/plain; x="a\\"b"', { type: 'text/plain', parameters: { x: 'a"b' } }],
    ['application/json;\tversion=2.0\t', { type: 'application/json', parameters: { version: '2.0' } }],
  ])('reads %j', (text, expected) => {
    expect(parseMediaType(text)).toEqual(expected);
  });

  it.each([
    '',
    'json',
    'application/',
    '/json',
    'application/json; version',
    'application/json; =1',
    'application/json; x="open',
    'application/json x',
    'application/json; x=\u0001',
    'a/b; x="\u0007"',
  ])('refuses %j', (text) => {
    expect(parseMediaType(text)).toBeUndefined();
  });

  it('matches a sent type to the documented one: a left-out parameter is no fault, a different one is', () => {
    expect(sameMediaType('application/json', 'application/json; version=2.0')).toBe(true);
    expect(sameMediaType('application/json; version=3.0', 'application/json; version=2.0')).toBe(false);
    expect(sameMediaType('text/html', 'application/json; version=2.0')).toBe(false);
  });
});

describe('readPreferences', () => {
  const call = (prefer: string | string[] | undefined, url = '/api/monitors') => ({ headers: { prefer }, url });

  it.each([
    ['code=404', { code: '404' }],
    ['code=404, example=NotAuthorizedForAccount', { code: '404', example: 'NotAuthorizedForAccount' }],
    ['CODE = 404 ; example="Name"', { code: '404', example: 'Name' }],
    ['dynamic=true, respond-async, wait=5', { dynamic: 'true' }],
    ['dynamic', { dynamic: '' }],
    ['code="x"y', { code: '"x"y' }],
  ])('reads %j', (prefer, expected) => {
    expect(readPreferences(call(prefer))).toEqual(expected);
  });

  it('reads several header lines, and the query forms over the header', () => {
    expect(readPreferences(call(['code=400', 'example=A'], '/api/monitors?__code=500&x=1'))).toEqual({ code: '500', example: 'A' });
  });

  it(`gives nothing for a header over ${maxPreferLength} characters, all lines together`, () => {
    expect(readPreferences(call(`code=${' '.repeat(maxPreferLength)}`))).toBeUndefined();
    expect(readPreferences(call(['x'.repeat(600), 'y'.repeat(600)]))).toBeUndefined();
    expect(readPreferences(call('x'.repeat(maxPreferLength)))).toEqual({});
  });
});

describe('violationsHeader', () => {
  const violation = (message: string) => ({ location: ['request', 'body'], severity: 'Error', code: 'x', message });

  it('is the violations as JSON', () => {
    expect(JSON.parse(violationsHeader([violation('must be string')]))).toEqual([violation('must be string')]);
  });

  it(`stays whole JSON within ${maxViolationsHeaderLength} characters, saying how many were left out`, () => {
    const many = Array.from({ length: 5000 }, (_, index) => violation(`${'long message '.repeat(50)}${index}`));
    const header = violationsHeader(many);
    expect(header.length).toBeLessThanOrEqual(maxViolationsHeaderLength);
    const parsed = JSON.parse(header) as { message: string }[];
    expect(parsed.at(-1)!.message).toBe(`${5000 - (parsed.length - 1)} more violations not shown`);
    expect(parsed[0]!.message.length).toBeLessThanOrEqual(303);
  });

  it('holds no character a header cannot carry', () => {
    const header = violationsHeader([violation('line\r\nX-Injected: 1 \u0000 é')]);
    expect(header).not.toMatch(/[\r\n\u0000]/);
    expect(header).toMatch(/^[\x20-\x7e]*$/);
  });
});

describe('redaction', () => {
  it('replaces the values of credential parameters in a target, whatever their case or encoding', () => {
    expect(redactTarget('/oauth/v2/token?Client_Secret=s3&grant_type=refresh_token&refresh%5Ftoken=r&code=c')).toBe(
      `/oauth/v2/token?Client_Secret=${redacted}&grant_type=refresh_token&refresh%5Ftoken=${redacted}&code=${redacted}`,
    );
    expect(redactTarget('/api/monitors')).toBe('/api/monitors');
  });

  it('replaces a secret in each form a report can show it: raw, URL-, form-, JSON- and JSON-pointer-escaped', () => {
    const secret = 'a/b~c "d" e+f';
    const redactor = new Redactor([secret]);
    for (const form of [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ v: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      'a~1b~0c "d" e+f',
    ]) {
      expect(redactor.text(`before ${form} after`)).toBe(`before ${redacted} after`);
    }
    expect(redactor.value({ [secret]: [secret, 1] })).toEqual({ [redacted]: [redacted, 1] });
  });

  it('replaces every occurrence of every secret in one pass: those that overlap or hold another as one span', () => {
    const patterns = new Patterns(['abcdef', 'defghi', 'cd', 'xyz', 'zzz']);
    expect(patterns.replace('--abcdefghi--', '#')).toBe('--#--');
    expect(patterns.replace('abcd xyzzz cd', '#')).toBe('ab# # #');
    expect(patterns.replace('xyzxyz', '#')).toBe('##');
    expect(patterns.replace('nothing here', '#')).toBe('nothing here');
    // Thousands of secrets, each found wherever it stands.
    const many = Array.from({ length: 5_000 }, (_, index) => `secret-${index}-value`);
    const text = many.filter((_, index) => index % 7 === 0).join(' | ');
    expect(new Patterns(many).replace(text, '#')).toBe(
      many
        .filter((_, index) => index % 7 === 0)
        .map(() => '#')
        .join(' | '),
    );
  });

  it('holds at most the secrets of its limit; past it, every text it redacts is hidden whole, and says so', () => {
    const limit = { values: 2, characters: 1024 };
    const redactor = new Redactor([], { limit });
    expect([redactor.add('first-secret'), redactor.add('second-secret'), redactor.full]).toEqual([true, true, false]);
    expect(redactor.text('a first-secret b')).toBe(`a ${redacted} b`);
    expect(redactor.add('third-secret')).toBe(false);
    expect(redactor.full).toBe(true);
    expect(redactor.text('a first-secret b')).toBe(hiddenWhole(limit));
    expect(new Redactor([], { limit }).add('x'.repeat(2000))).toBe(false);
  });

  it('reads JSON text by name at any depth, escaped, duplicated, unquoted or broken, in one pass', () => {
    const found: string[] = [];
    const text = `{"a":{"client_secret":"s\\u0031-secret"},"token":["t1-secret",{"x":"not-a-secret"}],"code":0,"code":1234567,"code":"dup-1","code":"dup-2","access_token":Unquoted-secret, "refresh_token":"unterminated`;
    secretsOfJson(text, (value) => found.push(value) > 0);
    expect(found).toEqual(['s1-secret', 't1-secret', '1234567', 'dup-1', 'dup-2', 'Unquoted-secret', 'unterminated']);
    const redactor = new Redactor(found);
    expect(redactJson('{"note":"s\\u0031-secret here","client_id":"abc","n":[1,2]}', redactor)).toBe(
      '{"note":"[redacted] here","client_id":"[redacted]","n":[1,2]}',
    );
    // Any depth, with an explicit stack.
    const deep = `${'['.repeat(200_000)}{"token":"deep-secret"}${']'.repeat(200_000)}`;
    const inDeep: string[] = [];
    scanJson(
      deep,
      (key) => key === 'token',
      (_kind, start, end, named) => {
        if (named) inDeep.push(deep.slice(start, end));
        return true;
      },
    );
    expect(inDeep).toEqual(['"deep-secret"']);
  });

  it('finds the secrets of a request: credential parameters, the Authorization token and header, cookies', () => {
    const secrets = secretsOfRequest({
      url: '/oauth/v2/token?client_id=1000.ID&grant_type=refresh_token',
      headers: { authorization: 'Service-oauthtoken 1000.tok', cookie: 'zaaid=700000123' },
      form: 'client_secret=s3cr3t-value&refresh_token=1000.refresh',
    });
    for (const secret of ['1000.ID', 's3cr3t-value', '1000.refresh', '1000.tok', 'Service-oauthtoken 1000.tok'])
      expect(secrets).toContain(secret);
  });
});

describe('a request the mock refuses quotes no secret of it', () => {
  /** The answer's headers and body as text: everything of it a client, a log or the journal sees. */
  const refusal = (url: string, headers: Record<string, string>, body: string) => {
    const answer = checkCall(createCall({ method: 'POST', url, headers, body: Buffer.from(body) }))!;
    return `${JSON.stringify(answer.headers)}\n${answer.body.toString('utf8')}`;
  };

  it('a JSON body that does not parse: where it stops being JSON, not a character of it', () => {
    const answer = refusal('/oauth/v2/token', { 'content-type': 'application/json' }, '{"client_secret":MadeUpUnquotedSecretValue}');
    expect(answer).toContain('the body is not valid JSON (at line 1, column 18: expected a value');
    expect(answer).not.toMatch(/Made|Unquoted|Secret/);
    expect(jsonFault('{\n  "a": 1,\n}')).toBe('at line 3, column 1: expected a name in double quotes');
    expect(jsonFault('[1, 2')).toBe('at line 1, column 6: the text ends where it expects a comma or ]');
    expect(jsonFault('{"a": [true, null, -1.5e3, "\\u00e9"]}')).toBeUndefined();
  });

  it('malformed percent-encoding in the value of a credential parameter: its name, not its value', () => {
    const form = refusal(
      '/oauth/v2/token',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=x&client_secret=%ZZ-secret-value',
    );
    expect(form).toContain('the form body has malformed percent-encoding in the value of \\"client_secret\\"');
    expect(form).not.toContain('secret-value');
    const query = refusal('/oauth/v2/token?refresh_token=%ZZ-secret-value&x=1', {}, '');
    expect(query).not.toContain('secret-value');
    expect(refusal('/api/monitors?name=%ZZ', {}, '')).toContain('malformed percent-encoding in \\"name=%ZZ\\"');
  });
});

describe('escaping service text', () => {
  it('terminalText shows every control character as an escape', () => {
    expect(terminalText('a\u001b]0;T\u0007b\r\nc\u009b\u202e')).toBe('a\\e]0;T\\u0007b\\r\\nc\\u009b\\u202e');
    expect(terminalText('plain: é ✔')).toBe('plain: é ✔');
    expect(terminalText('\u001bx\u0007')).toBe('\\ex\\u0007');
  });

  it('markdownText makes Markdown and HTML literal', () => {
    expect(markdownText('<img src=x> [a](b) | *x* _y_ `z` ~s~ & \\')).toBe(
      '&lt;img src=x&gt; \\[a\\](b) \\| \\*x\\* \\_y\\_ \\`z\\` \\~s\\~ &amp; \\\\',
    );
  });

  it('xmlText writes markup as entities, and every character XML cannot carry as a visible escape', () => {
    expect(xmlText(`a&b<c>"d'e\tf\ng`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;e\tf\ng');
    // C0 controls (an escape sequence's ESC, BEL) and the two noncharacters U+FFFE and U+FFFF.
    expect(xmlText('\u001b[31m\u0007\ufffe\uffff')).toBe('\\e[31m\\u0007\\ufffe\\uffff');
    expect(xmlText('plain: é ✔ 😀')).toBe('plain: é ✔ 😀');
  });
});
