// The client where a browser page runs it, without a browser: Request as browsers make it (a Cookie set by a script
// is dropped without a word) and the page's location. Every way of naming an account refuses before anything is sent;
// a path as baseUrl is the page's own origin. Each test puts the globals back (decisions/0010).
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/client/client.js';
import { placeholderHost } from '../../src/fetch/address.js';

const globals = globalThis as { Request: typeof Request; location?: unknown };
const nodeRequest = globals.Request;

/** Request as a browser makes it: `Cookie` is a forbidden request header, dropped from the headers. */
class BrowserRequest extends nodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    this.headers.delete('Cookie');
  }
}

afterEach(() => {
  globals.Request = nodeRequest;
  delete globals.location;
});

function pageClient() {
  const sent: string[] = [];
  const client = createServiceClient({
    baseUrl: 'https://api.example.com/api',
    auth: { accessToken: 'token' },
    fetch: async (request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname} cookie=${request.headers.get('Cookie')}`);
      return Response.json({ message: 'success', data: [] });
    },
  });
  return { client, sent };
}

describe('an account named in a page, where the Cookie header cannot be set', () => {
  it('forAccount, params.cookie.zaaid and a Cookie in headers each refuse before anything is sent', async () => {
    globals.Request = BrowserRequest;
    const { client, sent } = pageClient();
    expect(() => client.forAccount('700000123')).toThrow(/^forAccount needs the Cookie header .*cannot set it/);
    await expect(client.GET('/monitors', { params: { cookie: { zaaid: '700000123' } } })).rejects.toThrow(
      /^params\.cookie\.zaaid needs the Cookie header .*cannot set it/,
    );
    await expect(
      client.POST('/monitor_groups', { params: { cookie: { zaaid: '700000123' } }, body: { display_name: 'Web' } }),
    ).rejects.toThrow(TypeError);
    await expect(client.GET('/monitors', { headers: { cookie: 'zaaid=700000123' } })).rejects.toThrow(/^A Cookie in headers needs/);
    // Headers in any form fetch takes: a Headers, pairs.
    for (const headers of [new Headers({ Cookie: 'zaaid=700000123' }), [['Cookie', 'zaaid=700000123']]])
      await expect(client.GET('/monitors', { headers } as never)).rejects.toThrow(/^A Cookie in headers needs/);
    expect(sent).toEqual([]);
    // The caller's own account is no account named: it is served.
    await client.GET('/monitors');
    expect(sent).toEqual(['GET /api/monitors cookie=null']);
  });

  it('where the runtime sends Cookie (Node), params.cookie.zaaid is sent as forAccount sends it', async () => {
    const { client, sent } = pageClient();
    await client.GET('/monitors', { params: { cookie: { zaaid: '700000123' } } });
    await client.forAccount('700000124').GET('/monitors');
    expect(sent).toEqual(['GET /api/monitors cookie=zaaid=700000123', 'GET /api/monitors cookie=zaaid=700000124']);
  });
});

describe('baseUrl in a page', () => {
  it("a path is the page's own origin (a dev server's proxy, a reverse proxy)", () => {
    globals.location = { href: 'http://localhost:5173/app/index.html' };
    const client = createServiceClient({ baseUrl: '/api/', auth: { accessToken: 'token' } });
    expect(client.baseUrl).toBe('http://localhost:5173/api');
  });

  it('outside a page a path is no address, and the error says where one is', () => {
    expect(() => createServiceClient({ baseUrl: '/api', auth: { accessToken: 'token' } })).toThrow(
      'baseUrl must be a URL such as https://host/api, not "/api" (a path such as /api is taken relative to the page in a browser only)',
    );
  });

  it('a page on plain http elsewhere than this machine is refused as any plain http address', () => {
    globals.location = { href: 'http://intranet.example.com/' };
    expect(() => createServiceClient({ baseUrl: '/api', auth: { accessToken: 'token' } })).toThrow(/plain http/);
  });
});

describe('the network hint in browsers older than URL.canParse (Chrome 111 to 119, Safari 16.4 to 16.6)', () => {
  it('names a placeholder host without URL.canParse', () => {
    const canParse = URL.canParse;
    try {
      delete (URL as any).canParse;
      expect(placeholderHost('https://api.example.invalid/api/monitors')).toBe(
        'api.example.invalid is a placeholder host of the description',
      );
      expect(placeholderHost('not a url')).toBeUndefined();
    } finally {
      URL.canParse = canParse;
    }
  });
});
