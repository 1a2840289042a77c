// The console of the docs page without a browser: what it knows of each operation (read from the description), the
// addresses it sends to (this machine only), the request and its curl command, how it reads an answer; and the page
// as built: the console's data, its content policy, Redoc's code compressed and the description as JSON. What a
// reader does with it in Chromium is test/e2e/docs-console.test.ts.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { headerViolations, journalLines, shownBody, shownBodyLimit } from '../../scripts/docs-console/answer.js';
import { consoleDataId } from '../../scripts/docs-console/data.js';
import { buildRequest, curlCommand, mockOrigin, shellWord } from '../../scripts/docs-console/request.js';
import { servingOrigin } from '../../scripts/docs-console/session.js';
import { consoleData } from '../../scripts/lib/docs-console.js';
import { loadingBlocks, quickLoadingPage, redocParts, scriptJson } from '../../scripts/lib/docs-loading.js';
import { docsDocument } from '../../scripts/lib/docs-page.js';
import { outputs } from '../../scripts/lib/paths.js';
import type { JournalEntry } from '../../src/journal/types.js';
import { deref, type Json, loadBundle, operationsOf } from '../support/bundle.js';

const bundle = loadBundle();
const data = consoleData(bundle);
const operation = (id: string) => data.operations[id.toLowerCase()]!;

describe("the console's data, read from the description", () => {
  it('has every operation, by its id in lower case (the last segment of its section on the page), at its server', () => {
    const entries = operationsOf(bundle);
    expect(Object.keys(data.operations).sort()).toEqual(entries.map((entry) => String(entry.operation.operationId).toLowerCase()).sort());
    for (const { path, method, operation: described } of entries) {
      const known = operation(String(described.operationId));
      expect([known.method, known.path], described.operationId).toEqual([method.toUpperCase(), path]);
      const identity = (bundle.paths[path].servers ?? described.servers) !== undefined;
      expect(known.server).toBe(identity ? 'identity' : 'api');
      expect(known.secured).toBe((described.security ?? []).length > 0);
    }
    // A token of the console is good for every operation: every scope an operation requires.
    const scopes = new Set(
      entries.flatMap(({ operation: described }) => (described.security ?? []).flatMap((req: Json) => Object.values(req).flat())),
    );
    expect(new Set(data.scopes)).toEqual(scopes);
  });

  it('fills each parameter and body with the first named example, and offers the others', () => {
    const getMonitor = operation('getMonitor');
    const monitorId = deref(bundle, bundle.components.parameters.MonitorId) as Json;
    const named = Object.values<Json>(monitorId.examples).map((example) => String(example.value));
    expect(getMonitor.parameters[0]).toMatchObject({ name: 'monitor_id', in: 'path', required: true, value: named[0] });
    expect(getMonitor.parameters[0]!.examples.map((example) => example.value)).toEqual(named);
    expect(getMonitor.accept).toBe('application/json; version=2.0');
    const token = operation('requestToken');
    expect(token.body?.mediaType).toBe('application/x-www-form-urlencoded');
    expect(token.body?.examples[0]?.value).toMatch(/^client_id=.*&grant_type=authorization_code$/);
    expect(token.account).toBeUndefined();
  });

  it('puts a 1002, a 400 with its violation and a 403 for an account that may not one click away', () => {
    // A parameter's example that an error answer of the operation is named after: MonitorNotFound, a 404.
    expect(operation('getMonitor').scenarios[0]).toEqual({
      label: 'A monitor that does not exist',
      status: 404,
      parameter: { name: 'monitor_id', value: '1' },
    });
    const withoutName = operation('createMonitorGroup').scenarios.find((scenario) => scenario.status === 400)!;
    expect(withoutName.label).toBe('Without display_name');
    const example = JSON.parse(operation('createMonitorGroup').body!.examples[0]!.value);
    const { display_name: _name, ...rest } = example;
    expect(JSON.parse(withoutName.body!)).toEqual(rest);
    // A call on a stranger's account is refused; so is a list of accounts sent with a zaaid, which it does not take.
    expect(operation('listMonitors').account).toBe('acts');
    expect(operation('listMonitors').scenarios).toEqual([{ label: 'On an account that is not yours', status: 403, account: 'stranger' }]);
    for (const list of ['listMspCustomers', 'listBusinessUnits']) {
      expect(operation(list).account, list).toBe('lists');
      expect(operation(list).scenarios).toEqual([
        { label: "With a customer's zaaid, which it does not take", status: 403, account: 'managed' },
      ]);
    }
    expect(operation('requestToken').scenarios).toEqual([]);
  });
});

describe('the addresses the console sends to', () => {
  it('takes a mock on this machine as the mock prints it, and keeps its origin', () => {
    expect(mockOrigin('127.0.0.1:4010')).toEqual({ origin: 'http://127.0.0.1:4010' });
    expect(mockOrigin(' http://localhost:4010/ ')).toEqual({ origin: 'http://localhost:4010' });
    expect(mockOrigin('http://127.0.0.1:4010/api')).toEqual({ origin: 'http://127.0.0.1:4010' });
  });

  it('refuses any other host, https, an address the page policy cannot name, and a user in the address', () => {
    for (const address of [
      'http://example.com:4010',
      'https://127.0.0.1:4010',
      'http://10.0.0.1:4010',
      'http://[::1]:4010',
      'http://127.0.0.2:4010',
    ])
      expect(mockOrigin(address), address).toEqual({ fault: expect.stringMatching(/only to a mock on this machine/) });
    expect(mockOrigin('http://user:secret@127.0.0.1:4010')).toEqual({ fault: expect.stringMatching(/without a user or password/) });
    expect(mockOrigin('127.0.0.1:99999')).toEqual({ fault: expect.stringMatching(/is not an address/) });
  });

  it('knows a page the mock serves by its origin on this machine, and a file by its scheme', () => {
    expect(servingOrigin({ protocol: 'http:', host: '127.0.0.1:4010', origin: 'http://127.0.0.1:4010' })).toBe('http://127.0.0.1:4010');
    expect(servingOrigin({ protocol: 'file:', host: '', origin: 'null' })).toBeUndefined();
    expect(servingOrigin({ protocol: 'http:', host: 'docs.example.com', origin: 'http://docs.example.com' })).toBeUndefined();
  });
});

describe('a request of the console', () => {
  const input = { origin: 'http://127.0.0.1:4010', token: 'any-token', zaaid: '', parameters: {}, body: '' };

  it('addresses the API under /api and the identity provider at the root, each value encoded', () => {
    const built = buildRequest(operation('getMonitor'), { ...input, parameters: { monitor_id: 'a/b c' } });
    expect(built).toEqual({
      method: 'GET',
      url: 'http://127.0.0.1:4010/api/monitors/a%2Fb%20c',
      headers: [
        ['Authorization', 'Service-oauthtoken any-token'],
        ['Accept', 'application/json; version=2.0'],
      ],
    });
    const revoke = buildRequest(operation('revokeToken'), { ...input, parameters: { token: '1000.x' } });
    expect(revoke).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:4010/oauth/v2/token/revoke?token=1000.x', headers: [] });
  });

  it('names the field to fill in, sends a body with its media type, and the account as the zaaid', () => {
    expect(buildRequest(operation('getMonitor'), input)).toEqual({ fault: 'fill in monitor_id: the operation requires it' });
    expect(buildRequest(operation('createMonitorGroup'), input)).toEqual({ fault: 'fill in the body: the operation requires one' });
    const group = buildRequest(operation('createMonitorGroup'), { ...input, body: '{"display_name":"P"}', zaaid: '700000123' });
    expect(group).toMatchObject({ body: '{"display_name":"P"}', zaaid: '700000123' });
    expect((group as { headers: string[][] }).headers).toContainEqual(['Content-Type', 'application/json;charset=UTF-8']);
    // An operation that acts on no account sends none.
    expect(buildRequest(operation('requestToken'), { ...input, zaaid: '700000123' })).not.toHaveProperty('zaaid');
  });

  it('shows as a curl command that the shell takes word for word', () => {
    const built = buildRequest(operation('createMonitorGroup'), { ...input, body: `{"display_name":"Bob's"}`, zaaid: '700000123' });
    expect(curlCommand(built as Exclude<typeof built, { fault: string }>)).toBe(
      [
        "curl -X POST 'http://127.0.0.1:4010/api/monitor_groups'",
        "-H 'Authorization: Service-oauthtoken any-token'",
        "-H 'Accept: application/json; version=2.0'",
        "-H 'Content-Type: application/json;charset=UTF-8'",
        "-H 'Cookie: zaaid=700000123'",
        `--data-raw '{"display_name":"Bob'\\''s"}'`,
      ].join(' \\\n  '),
    );
    expect(shellWord('$HOME `x` "y"')).toBe(`'$HOME \`x\` "y"'`);
  });
});

describe('an answer as the console shows it', () => {
  it('indents JSON, keeps text, and cuts a long body saying so', () => {
    expect(shownBody('{"code":1002,"message":"Monitor does not exist."}')).toEqual({
      body: '{\n  "code": 1002,\n  "message": "Monitor does not exist."\n}',
      json: { code: 1002, message: 'Monitor does not exist.' },
    });
    expect(shownBody('not json')).toEqual({ body: 'not json' });
    const long = shownBody('x'.repeat(shownBodyLimit + 5)).body;
    expect(long).toMatch(new RegExp(`\\n\\[cut: the body has ${shownBodyLimit + 5} characters; the console shows ${shownBodyLimit}\\]$`));
  });

  it("reads the mock's sl-violations header as lines", () => {
    const header = JSON.stringify([
      { location: ['request', 'body'], severity: 'Error', message: "must have required property 'display_name'" },
    ]);
    expect(headerViolations(header)).toEqual(["request.body: must have required property 'display_name'"]);
    expect(headerViolations(null)).toEqual([]);
    expect(headerViolations('garbled')).toEqual(['garbled']);
  });

  it("says what the journal's entry says: the operation or the nearest one, the account, a fault, each violation", () => {
    const entry = {
      operation: null,
      near_miss: { operation: 'getMonitor', method: 'GET', path: '/api/monitors/{monitor_id}', differs: ['path'] },
      account: '700000123',
      client_id: null,
      fault: { status: 503, delay_ms: 20 },
      violations: [{ location: 'request.path', message: 'no path matches /api/monitor/1' }],
    } as unknown as JournalEntry;
    expect(journalLines(entry)).toEqual([
      'Reached no operation; nearest: GET /api/monitors/{monitor_id} (getMonitor), which differs by its path',
      'Acted on the account 700000123 (Cookie: zaaid=700000123)',
      'The mock injected a fault: status 503, 20 ms late',
      'Violation at request.path: no path matches /api/monitor/1',
    ]);
  });
});

describe('the page as built (generated/docs/index.html)', () => {
  const page = readFileSync(outputs().docs, 'utf8');
  const block = (id: string) => {
    const match = page.match(new RegExp(`<script type="[^"]+" id="${id}"[^>]*>([^<]*)</script>`));
    expect(match, `the block ${id}`).not.toBeNull();
    return match![1]!;
  };

  it('lets the page reach this machine and nothing else, and run only its own code', () => {
    const policy = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)![1]!;
    const directives = new Map(
      policy
        .split(';')
        .map((directive) => directive.trim().split(/\s+/) as [string, ...string[]])
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(['http://127.0.0.1:*', 'http://localhost:*']);
    expect(directives.get('script-src')).toEqual(["'unsafe-inline'", 'blob:']);
    expect(directives.get('form-action')).toEqual(["'none'"]);
  });

  it("holds the console's data, made from the description", () => {
    expect(JSON.parse(block(consoleDataId))).toEqual(data);
  });

  it("holds Redoc's code compressed, the description as the page shows it, and one loader", () => {
    const library = inflateRawSync(Buffer.from(block(loadingBlocks.library), 'base64')).toString('utf8');
    expect(library).toMatch(/export\{[^}]*\bhydrate\b[^}]*\};\s*$/);
    expect(JSON.parse(block(loadingBlocks.definition))).toEqual(JSON.parse(JSON.stringify(docsDocument(bundle as never))));
    expect(JSON.parse(block(loadingBlocks.options))).toMatchObject({ schemaDefinitionsTagName: 'Schemas' });
    expect(page.match(/<script type="module">/g)).toHaveLength(1);
    expect(page.length).toBeLessThan(2_000_000);
  });
});

describe("the page's quick start, on Redocly's layout", () => {
  const made = (script: string) => `<html><body><div id="redoc"></div><script type="module">${script}</script></body></html>`;
  const layout = `var lib = 1;export{hydrate};\n const __redoc_definition = {"a":"\\u003c/script><b>"};\n const __redoc_options = {"x":1};\n hydrate(__redoc_definition, __redoc_options, document.getElementById('redoc'));\n`;

  it('reads the library, the description and the options of the inline module script', () => {
    const parts = redocParts(made(layout));
    expect(parts.library.trim()).toBe('var lib = 1;export{hydrate};');
    expect(parts.definition).toEqual({ a: '</script><b>' });
    expect(parts.start).toBe(made(layout).indexOf('<script type="module">'));
    expect(made(layout).slice(parts.end)).toBe('</body></html>');
    expect(parts.options).toEqual({ x: 1 });
  });

  it('writes JSON that no "</script>" in it can end', () => {
    const page = quickLoadingPage(made(layout));
    expect(page).not.toContain('</script><b>');
    expect(scriptJson({ a: '</script><!--' })).toBe('{"a":"\\u003c/script>\\u003c!--"}');
    expect(JSON.parse(scriptJson({ a: '</script><!--' }))).toEqual({ a: '</script><!--' });
  });

  it('names what it needs when a release of Redocly changes the layout', () => {
    expect(() => redocParts(made('hydrate(definition)'))).toThrow(
      /scripts\/lib\/docs-loading\.ts must follow the new layout of redocly build-docs/,
    );
  });
});
