// The docs page served by the mock beside the API (src/mock/docs.ts): the package's page byte for byte at /docs/,
// the files it links beside it, the answers a static server gives, and nothing of it in the request journal. What
// the page's console does there is test/e2e/docs-console.test.ts.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputs } from '../../scripts/lib/paths.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { send } from '../support/http-client.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

describe('GET /docs on the mock', () => {
  it('moves /docs to /docs/ (308), where the relative links of the page lead beside it', async () => {
    expect(mock.docsUrl).toBe(`${mock.authUrl}/docs/`);
    const moved = await send(mock.authUrl, '/docs');
    expect(moved.status).toBe(308);
    expect(moved.headers.location).toBe('/docs/');
  });

  it("answers the package's page at /docs/, as it is, with headers that keep it from being framed or sniffed", async () => {
    const page = await fetch(mock.docsUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await page.arrayBuffer()).equals(readFileSync(outputs().docs))).toBe(true);
    // HEAD: the same headers, the page's length, no body.
    const head = await fetch(mock.docsUrl, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(readFileSync(outputs().docs).length));
    expect(await head.text()).toBe('');
  });

  it('answers the files the page links beside it: reference.md and llms.txt', async () => {
    for (const [name, file, type] of [
      ['reference.md', outputs().referenceMd, 'text/markdown; charset=utf-8'],
      ['llms.txt', outputs().llmsTxt, 'text/plain; charset=utf-8'],
    ] as const) {
      const reply = await send(mock.authUrl, `/docs/${name}`);
      expect(reply.status, name).toBe(200);
      expect(reply.headers['content-type']).toBe(type);
      expect(reply.text).toBe(readFileSync(file, 'utf8'));
    }
  });

  it('names what it serves for any other file, and the methods it answers for any other method', async () => {
    const missing = await send(mock.authUrl, '/docs/../openapi.json');
    expect(missing.status).toBe(404);
    expect(missing.json.message).toMatch(
      /is not a file of the docs: the page is \/docs\/, beside it \/docs\/reference\.md and \/docs\/llms\.txt/,
    );
    const posted = await send(mock.authUrl, '/docs/', { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } });
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe('GET, HEAD');
  });

  it('keeps the docs out of the request journal, which records the exchanges of the API only', async () => {
    mock.control.clearRequests();
    await send(mock.authUrl, '/docs/');
    await send(mock.authUrl, '/api/monitors', { headers: { Authorization: 'Service-oauthtoken any-token' } });
    expect(mock.control.requests().requests.map((entry) => entry.path)).toEqual(['/api/monitors']);
  });
});
