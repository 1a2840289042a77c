// Bad requests for the mock, generated from the operations of the bundled description: each valid sample request
// (scripts/lib/sample-requests.ts) broken one way at a time, plus requests that are not valid HTTP at all.
// Each case says which status it expects (or any 4xx) and what the answer's message must name.
import { gzipSync } from 'node:zlib';
import { type SampleRequest, sampleRequests, serializeBody } from '../../scripts/lib/sample-requests.js';
import { mockDocument } from '../../src/description/mock-document.js';
import {
  deref,
  isParameter,
  isRecord,
  listOf,
  type OpenApiDocument,
  type SchemaNode,
  schemaEntries,
  schemaList,
} from '../../src/description/openapi.js';
import { compileRoutes, matchRoute } from '../../src/description/routes.js';

export interface BadCase {
  category: string;
  name: string;
  method?: string;
  target?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Raw bytes, for requests that are not valid HTTP. */
  raw?: string | Buffer;
  /** The expected status; any 4xx when absent. */
  status?: number;
  /** What the answer's message (or, for HEAD, its sl-violations header) must name. */
  names: RegExp;
}

/** Strings that must never pass as an identifier of digits: traversal, injection, odd characters. */
export const hostileStrings = [
  '../../../../etc/passwd',
  '..',
  '.',
  '..%2F..%2Fetc%2Fpasswd',
  '..\\..\\windows\\win.ini',
  "' OR '1'='1",
  '1 OR 1=1',
  '1; DROP TABLE monitors; --',
  '"><script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '$(id)',
  '`id`',
  '| id',
  '1\u0000',
  '1\r\nX-Injected: 1',
  'null',
  'undefined',
  '-1',
  '1.5',
  '1e9',
  '0x1F',
  ' 1',
  '1 ',
  '１２３',
  '١٢٣',
  '😀',
  'a'.repeat(2000),
  `${'1'.repeat(3000)}a`,
  '%',
  '%ZZ',
  '%00',
  '{monitor_id}',
  '[]',
  '*',
];

const wrongValues: unknown[] = [42, -1, 1.5, true, false, null, [], {}, ['x']];
const constBreakers = (value: string) => [
  '',
  ' ',
  `${value} `,
  ` ${value}`,
  value.toUpperCase(),
  'password',
  'client_credentials',
  `${value}x`,
];

const methods = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
  'SEARCH',
  'PURGE',
  'REPORT',
  'MKACTIVITY',
  'CHECKOUT',
  'MERGE',
  'NOTIFY',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'LINK',
  'UNLINK',
  'BIND',
  'ACL',
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Percent-encodes everything that is not unreserved, dots included (so `..` is not a dot segment). */
const encodeSegment = (text: string) =>
  encodeURIComponent(text)
    .replace(/\./g, '%2E')
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

export function generateBadRequests(
  bundle: OpenApiDocument,
  validate: (schema: string | SchemaNode, value: unknown) => string[],
): BadCase[] {
  const document = mockDocument(bundle);
  const routes = compileRoutes(document);
  const samples = sampleRequests(bundle);
  const cases: BadCase[] = [];
  const add = (request: SampleRequest, category: string, name: string, changes: Partial<BadCase> & { names: RegExp }) =>
    cases.push({
      category,
      name: `${request.method} ${request.template}: ${name}`,
      method: request.method,
      target: request.path,
      headers: { ...request.headers },
      body: request.body,
      ...changes,
    });
  const withoutHeader = (headers: Record<string, string>, name: string) =>
    Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name.toLowerCase()));
  const isRoute = (path: string, method: string) => {
    const segments = path
      .split('?')[0]!
      .split('/')
      .slice(1)
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      });
    return matchRoute(routes, segments, method)?.operation !== undefined;
  };

  for (const request of samples) {
    const parameters = (request.operation.parameters ?? []).map((parameter) => deref(document, parameter) ?? {}).filter(isParameter);

    // Path parameters: hostile strings, percent-encoded and as raw as HTTP allows.
    for (const parameter of parameters.filter((entry) => entry.in === 'path')) {
      for (const hostile of hostileStrings) {
        const target = request.template.replace(`{${parameter.name}}`, encodeSegment(hostile));
        add(request, 'path parameter: traversal and injection', `${parameter.name}=${JSON.stringify(hostile.slice(0, 30))} (encoded)`, {
          target,
          names: new RegExp(`${parameter.name}|is not an operation|dot segment`),
        });
        if (/^[\x21-\x7e]+$/.test(hostile)) {
          add(request, 'path parameter: traversal and injection', `${parameter.name}=${JSON.stringify(hostile.slice(0, 30))} (raw)`, {
            target: request.template.replace(`{${parameter.name}}`, hostile.replace(/[#?]/g, encodeURIComponent)),
            names: new RegExp(`${parameter.name}|is not an operation|percent-encoding|dot segment|backslash`),
          });
        }
      }
    }

    // Query parameters: values their schema refuses; malformed percent-encoding on every operation.
    const queryParameters = parameters.filter((entry) => entry.in === 'query');
    if (queryParameters.length > 0) {
      const base = new URLSearchParams();
      for (const parameter of queryParameters) {
        const schema = deref(document, parameter.schema) ?? {};
        base.set(parameter.name, String(schema.const ?? listOf(schema.enum)[0] ?? 'x'));
      }
      for (const parameter of queryParameters) {
        const schema = deref(document, parameter.schema) ?? {};
        const bad = [
          ...(schema.enum || schema.const ? constBreakers(String(schema.const ?? listOf(schema.enum)[0])) : []),
          ...(schema.minLength ? [''] : []),
        ];
        for (const value of new Set(bad)) {
          const query = new URLSearchParams(base);
          query.set(parameter.name, value);
          add(request, 'query parameter: refused value', `${parameter.name}=${JSON.stringify(value)}`, {
            target: `${request.template}?${query}`,
            headers: withoutHeader(request.headers, 'content-type'),
            body: undefined,
            names: new RegExp(parameter.name),
          });
        }
      }
    }
    for (const query of ['x=%ZZ', '%=1', 'a=%E0%A4', 'q=%C0%AF', '%FF']) {
      add(request, 'query: malformed percent-encoding', `?${query}`, {
        target: `${request.path}${request.path.includes('?') ? '&' : '?'}${query}`,
        status: 400,
        names: /percent-encoding/,
      });
    }

    // Authorization out of shape, on every secured operation.
    if (request.headers.Authorization) {
      add(request, 'header: Authorization', 'missing', {
        headers: withoutHeader(request.headers, 'authorization'),
        status: 401,
        names: /Authorization/,
      });
      for (const value of [
        '',
        ' ',
        'Bearer 1000.abc',
        'Basic dXNlcjpwYXNz',
        'Service-oauthtoken',
        'Service-oauthtoken ',
        'Service-oauthtoken\t1000.abc',
        'Service-oauthtoken a b',
        '1000.abc',
        'Service-oauthtoken1000.abc',
        'OAuth 1000.abc',
        'Service-oauthtoken 1000.a, Service-oauthtoken 1000.b',
      ]) {
        add(request, 'header: Authorization', JSON.stringify(value), {
          headers: { ...request.headers, Authorization: value },
          status: 401,
          names: /Authorization/,
        });
      }
    }

    // Prefer and its query forms, asking for what the operation does not document.
    const success = String(request.status);
    for (const prefer of [
      'code=abc',
      'code=',
      'code=99',
      'code=600',
      'code=1000',
      'code=409',
      'code=418',
      'code=302',
      'example=NoSuchExample',
      `code=${success}, example=NoSuchExample`,
      'code=404, example=Nope',
      'dynamic=maybe',
    ]) {
      add(request, 'header: Prefer', prefer, { headers: { ...request.headers, Prefer: prefer }, status: 400, names: /Prefer/ });
    }
    // Shapes that make a backtracking parser explode: runs of spaces between `=`, quotes and separators.
    for (const prefer of [
      `code=${' '.repeat(1000)}"x"y`,
      `code ${'= '.repeat(400)}x`,
      `${';'.repeat(1000)}code=x`,
      `code="${'\\"'.repeat(300)}`,
    ]) {
      add(request, 'header: Prefer', `crafted ${JSON.stringify(prefer.slice(0, 12))}…`, {
        headers: { ...request.headers, Prefer: prefer },
        status: 400,
        names: /Prefer/,
      });
    }
    add(request, 'header: Prefer', 'over 1,024 characters', {
      headers: { ...request.headers, Prefer: `code=${' '.repeat(8000)}"x"y` },
      status: 431,
      names: /Prefer/,
    });
    for (const query of ['__code=abc', '__code=409', '__example=Nope', '__dynamic=1']) {
      add(request, 'header: Prefer', `?${query}`, {
        target: `${request.path}${request.path.includes('?') ? '&' : '?'}${query}`,
        status: 400,
        names: /Prefer/,
      });
    }

    // Accept that excludes JSON.
    for (const accept of ['text/html', 'application/xml', 'image/png', 'text/plain']) {
      add(request, 'header: Accept', accept, { headers: { ...request.headers, Accept: accept }, status: 406, names: /Accept/ });
    }

    // A Content-Type that is not a media type.
    for (const contentType of [';;;', 'application/', '/json', 'application/json;', 'application/json; charset']) {
      add(request, 'header: Content-Type out of shape', contentType, {
        headers: { ...request.headers, 'Content-Type': contentType },
        status: 400,
        names: /Content-Type/,
      });
    }

    // A body on an operation that takes none.
    if (!request.mediaType) {
      for (const [contentType, body] of [
        ['application/json', '{}'],
        ['application/json', '{"display_name":"x"}'],
        ['application/json', '[]'],
        ['application/x-www-form-urlencoded', 'a=1'],
        ['text/plain', 'hello'],
      ] as const) {
        add(request, 'body: on an operation that takes none', `${contentType} ${body}`, {
          headers: { ...request.headers, 'Content-Type': contentType },
          body,
          status: 400,
          names: /takes no request body/,
        });
      }
    }
  }

  // Unknown paths and methods, from each documented path.
  const seen = new Set<string>();
  for (const request of samples) {
    if (seen.has(request.template)) continue;
    seen.add(request.template);
    const path = request.path.split('?')[0]!;
    const onApi = path.startsWith('/api/');
    const last = path.split('/').at(-1)!;
    const variants = [
      onApi ? path.slice('/api'.length) : `/api${path}`,
      `/api${path}`,
      `${path}/`,
      path.replace(/\/([^/]*)$/, '//$1'),
      path.toUpperCase(),
      /^\d+$/.test(last) ? `${path}x` : path.slice(0, -1),
      `${path}x`,
      `${path}/extra`,
      `${path}.json`,
      `/${path.slice(1).replace(/\//g, '%2F')}`,
      path.replace(/^\/([^/]+)\//, '/$1/./'),
      path.replace(/^\/([^/]+)\//, '/$1/x/../'),
      `${path};jsessionid=1`,
      `${path}%00`,
      `${path}/%2e%2e/%2e%2e/etc/passwd`,
    ];
    for (const variant of new Set(variants)) {
      if (isRoute(variant, request.method)) continue;
      const dots = variant.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
      cases.push({
        category: dots ? 'path: dot segments (traversal)' : 'unknown path',
        name: `${request.method} ${variant}`,
        method: request.method,
        target: variant,
        headers: { ...request.headers },
        body: request.body,
        status: dots ? 400 : 404,
        names: dots ? /dot segment/ : /is not an operation of the API/,
      });
    }
    const route = routes.find((entry) => entry.template === request.template)!;
    for (const method of methods) {
      if (route.operations.has(method.toLowerCase())) continue;
      cases.push({
        category: 'method not allowed',
        name: `${method} ${request.template}`,
        method,
        target: path,
        headers: withoutHeader(request.headers, 'content-type'),
        status: 405,
        names: method === 'HEAD' ? /HEAD is not supported/ : new RegExp(`${method} is not supported for ${escapeRegExp(request.template)}`),
      });
    }
  }
  for (const path of [
    '/',
    '/api',
    '/api/',
    '/.env',
    '/admin',
    '/oauth',
    '/oauth/v2',
    '/favicon.ico',
    '/robots.txt',
    '/api/v2/monitors',
    '/graphql',
    '/wp-login.php',
    '/api/monitors%2F1',
    '/api/%5C..%5Cdevice_key',
  ]) {
    cases.push({
      category: 'unknown path',
      name: `GET ${path}`,
      method: 'GET',
      target: path,
      headers: { Authorization: 'Service-oauthtoken 1000.x' },
      status: 404,
      names: /is not an operation of the API/,
    });
  }
  for (const path of [
    '/%2e%2e/%2e%2e/etc/passwd',
    '/api/%2e%2e/oauth/v2/token',
    '/api/monitors/1/../../../etc/passwd',
    '/api/monitors/%2E%2E/%2E%2E/device_key',
    '/api/./monitors',
    '/api/monitors/%2e',
    '/api\\device_key',
    '/api/monitors/..\\..\\device_key',
  ]) {
    cases.push({
      category: 'path: dot segments (traversal)',
      name: `GET ${path}`,
      method: 'GET',
      target: path,
      headers: { Authorization: 'Service-oauthtoken 1000.x' },
      status: 400,
      names: /dot segment|backslash/,
    });
  }

  // Bodies that break the operation's schema, its media type, its encoding or the size the mock accepts.
  for (const request of samples.filter((entry) => entry.mediaType && entry.bodySchema)) {
    const mediaType = request.mediaType!;
    const baseType = mediaType.split(';')[0]!.trim();
    const json = baseType === 'application/json';
    const bodySchema = request.bodySchema!;
    const branches = (Array.isArray(bodySchema.oneOf) ? schemaList(bodySchema.oneOf) : [bodySchema]).map(
      (branch) => deref(document, branch)!,
    );
    const requestBody = request.operation.requestBody!;
    const schemaRef = requestBody.content![mediaType]!.schema!;
    const invalid = (value: unknown) => validate(schemaRef, value).length > 0;
    const optional = requestBody.required !== true;
    const bodyCase = (category: string, name: string, value: Record<string, unknown>, names: RegExp) => {
      if (!invalid(value)) return; // a change the schema allows (e.g. an extra field) is not a bad request
      if (optional && serializeBody(mediaType, value) === '') return; // no body at all, where the body is optional
      add(request, category, name, { body: serializeBody(mediaType, value), status: 400, names });
    };
    for (const [index, branch] of branches.entries()) {
      const properties = schemaEntries(branch.properties);
      const valid: Record<string, unknown> = {};
      for (const [name, property] of properties) {
        const resolved = deref(document, property) ?? {};
        valid[name] =
          resolved.const ??
          listOf(resolved.enum)[0] ??
          listOf(resolved.examples)[0] ??
          (index === 0 && isRecord(request.bodyValue) ? request.bodyValue[name] : undefined) ??
          `${name}-value`;
      }
      const label = branches.length > 1 ? ` (${branch.title ?? `branch ${index + 1}`})` : '';
      for (const name of listOf(branch.required).map(String)) {
        const { [name]: _, ...rest } = valid;
        bodyCase('body: missing field', `without ${name}${label}`, rest, new RegExp(`'${name}'`));
        bodyCase(
          'body: missing field, extra field',
          `without ${name}, with an unknown field${label}`,
          { ...rest, unexpected_field: 'x' },
          new RegExp(`'${name}'`),
        );
      }
      for (const [name, property] of properties) {
        const resolved = deref(document, property) ?? {};
        if (json) {
          for (const wrong of wrongValues)
            bodyCase('body: wrong type', `${name}=${JSON.stringify(wrong)}${label}`, { ...valid, [name]: wrong }, new RegExp(name));
        }
        if (resolved.const !== undefined || resolved.enum) {
          for (const wrong of constBreakers(String(resolved.const ?? listOf(resolved.enum)[0])))
            bodyCase('body: refused value', `${name}=${JSON.stringify(wrong)}${label}`, { ...valid, [name]: wrong }, new RegExp(name));
        }
        if (resolved.minLength)
          bodyCase('body: refused value', `${name}="" (minLength)${label}`, { ...valid, [name]: '' }, new RegExp(name));
      }
    }
    if (json) {
      for (const root of [[], 'x', 1, true, [{}], [request.bodyValue]]) {
        add(request, 'body: wrong type', `root ${JSON.stringify(root).slice(0, 20)}`, {
          body: JSON.stringify(root),
          status: 400,
          names: /body/i,
        });
      }
    }
    // Truncated: cut the valid body at evenly spread lengths (every byte of a short body).
    const whole = request.body!;
    const lengths = new Set<number>();
    const step = Math.max(1, Math.floor(whole.length / 60));
    for (let length = 0; length < whole.length; length += step) lengths.add(length);
    for (let length = Math.max(0, whole.length - 5); length < whole.length; length++) lengths.add(length);
    for (const length of [...lengths].sort((a, b) => a - b)) {
      const prefix = whole.slice(0, length);
      if (optional && prefix === '') continue;
      if (!json) {
        const fields = Object.fromEntries(new URLSearchParams(prefix));
        if (!invalid(fields)) continue; // a form cut after a whole field can still be valid
      }
      add(request, json ? 'body: truncated JSON' : 'body: truncated form', `first ${length} of ${whole.length} bytes`, {
        body: prefix,
        status: 400,
        names: json ? /not valid JSON|body parameter is required/ : /body|required|must/,
      });
    }
    if (json) {
      const malformed = [
        '{bad',
        '{"display_name":}',
        "{'display_name':'x'}",
        '{"display_name":"x",}',
        '{"display_name":"x"}}',
        '{"display_name":"x"} trailing',
        '{"display_name": NaN}',
        '{"display_name": undefined}',
        '{"display_name": "x" /* comment */}',
        '{"display_name":"\u0001"}',
        '{"display_name":"\\u12"}',
        '[',
        ']',
        '{',
        '}',
        'nul',
        'tru',
        '{"a":1}{"b":2}',
        '{"display_name":"x"',
        '{"display_name":"x\n"}',
        '{"display_name":0x10}',
        '{"display_name":01}',
        '{"display_name":.5}',
        '{"display_name":"x" "description":"y"}',
      ];
      for (const body of malformed)
        add(request, 'body: malformed JSON', JSON.stringify(body).slice(0, 40), { body, status: 400, names: /not valid JSON/ });
    } else {
      for (const body of ['%', 'a=%', '%zz=1', 'client_id=%E0%A4%A', 'client_id=%FF', 'token=%C0%AF', '%%%']) {
        add(request, 'body: malformed form', body, { body, status: 400, names: /percent-encoding/ });
      }
    }
    // Media types the operation does not take, and media types that are not one.
    const otherTypes = [
      'text/plain',
      'application/xml',
      'text/html',
      'multipart/form-data',
      'multipart/form-data; boundary=xyz',
      'application/octet-stream',
      'image/png',
      json ? 'application/x-www-form-urlencoded' : 'application/json',
    ];
    for (const contentType of otherTypes)
      add(request, 'body: wrong content type', contentType, {
        headers: { ...request.headers, 'Content-Type': contentType },
        status: 400,
        names: /Content-Type|JSON/,
      });
    add(request, 'body: wrong content type', 'no Content-Type', {
      headers: withoutHeader(request.headers, 'content-type'),
      status: 400,
      names: /Content-Type/,
    });
    add(request, 'body: wrong content type', 'a JSON body of the right shape, as another type', {
      headers: { ...request.headers, 'Content-Type': json ? 'text/plain' : 'application/json' },
      body: JSON.stringify(request.bodyValue),
      status: 400,
      names: /Content-Type/,
    });
    // Odd encodings.
    const text = request.body!;
    const encodings: [string, Record<string, string>, Buffer, RegExp?][] = [
      [
        'charset=latin1 with Latin-1 bytes',
        { 'Content-Type': `${baseType}; charset=latin1` },
        Buffer.from(text.replace(/[a-z]$|"$/, 'é$&'), 'latin1'),
      ],
      ['charset=utf-16 with UTF-16 bytes', { 'Content-Type': `${baseType}; charset=utf-16` }, Buffer.from(`\uFEFF${text}`, 'utf16le')],
      // UTF-16 of ASCII text is valid UTF-8 with NUL bytes: the fault shows as a body that does not parse.
      [
        'UTF-16 bytes declared UTF-8',
        { 'Content-Type': `${baseType};charset=UTF-8` },
        Buffer.from(text, 'utf16le'),
        /not valid JSON|required property/,
      ],
      [
        'an invalid UTF-8 sequence',
        {},
        Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xc3, 0x28]), Buffer.from(text.slice(-2))]),
      ],
      [
        'an overlong UTF-8 encoding',
        {},
        Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xc0, 0xaf]), Buffer.from(text.slice(-2))]),
      ],
      ['a lone continuation byte', {}, Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0x80]), Buffer.from(text.slice(-2))])],
      [
        'a code point above U+10FFFF',
        {},
        Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xf4, 0x90, 0x80, 0x80]), Buffer.from(text.slice(-2))]),
      ],
      [
        'an encoded surrogate',
        {},
        Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(text.slice(-2))]),
      ],
      ['Content-Encoding: gzip of a plain body', { 'Content-Encoding': 'gzip' }, Buffer.from(text)],
      ['Content-Encoding: gzip of a gzipped body', { 'Content-Encoding': 'gzip' }, gzipSync(text)],
      ['Content-Encoding: br', { 'Content-Encoding': 'br' }, Buffer.from(text)],
      ['Content-Encoding: identity, gzip', { 'Content-Encoding': 'identity, gzip' }, Buffer.from(text)],
    ];
    for (const [name, headers, body, names] of encodings)
      add(request, 'body: odd encoding', name, {
        headers: { ...request.headers, ...headers },
        body,
        status: 400,
        names: names ?? /UTF-8|charset|Content-Encoding/,
      });
    // Huge bodies (1.5 to 5 MB), over the mock's 1 MiB.
    const huge: [string, string | Buffer][] = json
      ? [
          ['1.5 MB of a valid shape', JSON.stringify({ display_name: 'x'.repeat(1.5 * 1024 * 1024) })],
          ['5 MB of a valid shape', JSON.stringify({ display_name: 'x'.repeat(5 * 1024 * 1024) })],
          ['2 MB of garbage', '{'.repeat(2 * 1024 * 1024)],
          ['3 MB of nested arrays', `{"display_name":${'['.repeat(1.5 * 1024 * 1024)}${']'.repeat(1.5 * 1024 * 1024)}}`],
        ]
      : [
          ['2 MB form', `${text}&padding=${'x'.repeat(2 * 1024 * 1024)}`],
          ['4 MB form field', `${text.replace(/=([^&]*)/, `=${'y'.repeat(4 * 1024 * 1024)}`)}`],
        ];
    for (const [name, body] of huge) add(request, 'body: huge', name, { body, status: 413, names: /Payload Too Large/ });
  }
  const getSample = samples.find((entry) => entry.method === 'GET')!;
  add(getSample, 'body: huge', '2 MB on an operation that takes no body', {
    headers: { ...getSample.headers, 'Content-Type': 'application/json' },
    body: `[${'0,'.repeat(1024 * 1024)}0]`,
    status: 413,
    names: /Payload Too Large/,
  });

  // Requests that are not valid HTTP/1.1, as raw bytes.
  const get = (extra: string, target = '/api/monitors', method = 'GET') =>
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Service-oauthtoken 1000.x\r\n${extra}\r\n`;
  const raw: [string, string | Buffer, RegExp, number?][] = [
    ['a space in a header name', get('Bad Header: 1\r\n'), /not valid HTTP/],
    ['a header name with parentheses', get('X(y): 1\r\n'), /not valid HTTP/],
    ['a NUL in a header value', get('X-A: a\u0000b\r\n'), /not valid HTTP/],
    ['an obsolete folded header', get('X-A: 1\r\n  folded\r\n'), /not valid HTTP/],
    ['no Host header', 'GET /api/monitors HTTP/1.1\r\nAuthorization: Service-oauthtoken 1000.x\r\n\r\n', /not valid HTTP/],
    [
      'Content-Length and Transfer-Encoding together',
      `${get('Content-Length: 2\r\nTransfer-Encoding: chunked\r\n', '/api/monitor_groups', 'POST')}0\r\n\r\n`,
      /not valid HTTP/,
    ],
    ['Content-Length: abc', get('Content-Length: abc\r\n', '/api/monitor_groups', 'POST'), /not valid HTTP/],
    ['Content-Length: -1', get('Content-Length: -1\r\n', '/api/monitor_groups', 'POST'), /not valid HTTP/],
    [
      'two different Content-Length',
      `${get('Content-Length: 1\r\nContent-Length: 2\r\n', '/api/monitor_groups', 'POST')}ab`,
      /not valid HTTP/,
    ],
    [
      'a bad chunk size',
      `${get('Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n', '/api/monitor_groups', 'POST')}zz\r\n{}\r\n0\r\n\r\n`,
      /not valid HTTP/,
    ],
    ['Transfer-Encoding: gzip', get('Transfer-Encoding: gzip\r\n', '/api/monitor_groups', 'POST'), /not valid HTTP/],
    ['an unknown method', get('', '/api/monitors', 'FOO'), /not valid HTTP/],
    ['a lower-case method', get('', '/api/monitors', 'get'), /not valid HTTP/],
    ['a space inside the path', 'GET /api/mon itors HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /not valid HTTP/],
    ['HTTP/2.0 in the request line', 'GET /api/monitors HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n', /not valid HTTP|HTTP/],
    ['HTTP/1.9 in the request line', 'GET /api/monitors HTTP/1.9\r\nHost: 127.0.0.1\r\n\r\n', /not valid HTTP|HTTP/],
    ['a target without a leading slash', 'GET api/monitors HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /not valid HTTP|not a path/],
    ['the asterisk form on GET', 'GET * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /not valid HTTP|not a path/],
    ['CONNECT', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n', /CONNECT is not supported/, 405],
    [
      'a WebSocket upgrade',
      get('Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'),
      /upgrade/,
    ],
    ['a 20 kB header', get(`X-Big: ${'x'.repeat(20_000)}\r\n`), /exceed/, 431],
    ['a 20 kB path', get('', `/api/monitors/${'1'.repeat(20_000)}`), /exceed/, 431],
    ['Expect: something-else', get('Expect: something-else\r\n'), /expectation/, 417],
    ['a bare LF line end', 'GET /api/monitors HTTP/1.1\nHost: 127.0.0.1\n\n', /not valid HTTP/],
    ['a header without a colon', get('NoColonHere\r\n'), /not valid HTTP/],
  ];
  for (const [name, bytes, names, status] of raw) cases.push({ category: 'not valid HTTP', name, raw: bytes, names, status });
  return cases;
}
