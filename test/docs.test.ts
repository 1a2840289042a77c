// The published docs, generated/docs/index.html, opened from disk in Chromium with every request recorded and
// everything but the file itself refused. What must be on the page is read from the bundled description
// (generated/openapi.json), so the test follows the description and its guides.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputs, root } from '../scripts/lib/paths.js';
import { loadBundle, operationsOf, type Json } from './support/bundle.js';
import { codeSamplesOf, typeCheckSamples } from './support/code-samples.js';
import { expectVisible, launchChromium, openOffline, type OfflinePage } from './support/docs-browser.js';

const bundle = loadBundle();
const docsFile = outputs().docs;
const screenshots = path.join(root, 'test-results');
const operations = operationsOf(bundle);

/** The text of the Markdown headings of one level, outside fenced code, without inline Markdown. */
function headings(markdown: string, level: number): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : new RegExp(`^#{${level}}\\s+(.+?)\\s*#*\\s*$`).exec(line);
    if (match?.[1]) found.push(match[1].replace(/[`*_]/g, ''));
  }
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A heading whose text is exactly this (Redoc adds a deep-link anchor to each heading, without text). */
const heading = (scope: Page | Locator, text: string) =>
  scope.locator('h1, h2, h3, h4').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });

/** The link of a menu entry by its own label (an entry of a tag holds its operations' entries too). */
const menuItem = (page: Page, label: string) =>
  page.locator('[data-component-name="Menu/MenuItem"] > a').filter({ has: page.getByText(label, { exact: true }) });

/** Opens a menu entry by its label, as a reader does: a click in the sidebar. */
async function openMenu(page: Page, label: string): Promise<void> {
  const item = menuItem(page, label);
  await expectVisible(item, `the menu entry "${label}"`);
  expect(await item.count(), `menu entries labelled "${label}"`).toBe(1);
  await item.click();
}

/** Opens an operation through its tag's menu entry (expanding it when needed), then its own entry. */
async function openOperation(page: Page, tag: string, summary: string): Promise<void> {
  if (!(await menuItem(page, summary).first().isVisible())) await openMenu(page, tag);
  await openMenu(page, summary);
}

/** Named schemas with enum meanings, as `[name, schema]`. */
const enumSchemas = Object.entries<Json>(bundle.components.schemas).filter(([, schema]) => Array.isArray(schema['x-enum-descriptions']));

describe('docs page (generated/docs/index.html) in Chromium, offline', () => {
  let browser: Browser | undefined;
  let docs: OfflinePage;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(docsFile)) throw new Error(`${docsFile} is missing: run \`npm run build\` first.`);
    await mkdir(screenshots, { recursive: true });
    browser = await launchChromium();
    docs = await openOffline(browser, docsFile);
    page = docs.page;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the description from the file alone: no request leaves the page', async () => {
    await expectVisible(page.locator('h1', { hasText: String(bundle.info.title) }), 'the title of the description');
    // The search box says "Loading..." until its index is built, in the page.
    await expectVisible(page.getByTestId('search-trigger').filter({ hasNotText: 'Loading' }), 'the search box, ready');
    await page.screenshot({ path: path.join(screenshots, 'docs.png') });
    const { operation } = operations[0]!;
    await openOperation(page, String(operation.tags[0]), String(operation.summary));
    await expectVisible(heading(page, String(operation.summary)), `the operation ${operation.operationId}`);
    expect(docs.requests.length).toBeGreaterThan(0);
    expect(docs.external(), 'requests to anything but the file (all refused)').toEqual([]);
    expect(docs.blockedLoads(), 'loads that the page policy blocked').toEqual([]);
    expect(docs.errors, 'script errors').toEqual([]);
  });

  it('is titled and branded for this API', async () => {
    expect(await page.title()).toContain(bundle.info.title);
    const logo = bundle.info['x-logo'] as Json;
    expect(String(logo.url)).toMatch(/^data:image\/svg\+xml[,;]/);
    const image = page.locator(`img[alt="${logo.altText}"]`);
    await expectVisible(image, 'the logo of info.x-logo');
    expect(await image.first().getAttribute('src')).toBe(logo.url);
    expect(await image.first().evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0), 'the logo draws').toBe(true);
    const brand = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-brand-6').trim());
    expect(brand, 'the theme colour of the page template').not.toBe('');
  });

  it("shows every guide of info.description (its ## headings) in the menu and on the page", async () => {
    const guides = headings(String(bundle.info.description), 2);
    expect(guides.length).toBeGreaterThan(0);
    await docs.reload();
    const middle = page.getByTestId('middle-panel');
    for (const title of guides) {
      await expectVisible(menuItem(page, title), `the menu entry of the guide "${title}"`);
      await expectVisible(heading(middle, title), `the heading "${title}" of the guides`);
    }
  });

  it('shows the guides of each tag (their ### headings) on the tag page', async () => {
    const tags = (bundle.tags as Json[]).filter((tag) => headings(String(tag.description ?? ''), 3).length > 0);
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      await docs.reload();
      await openMenu(page, tag.name);
      for (const title of headings(String(tag.description), 3)) {
        await openMenu(page, title);
        await expectVisible(heading(page, title), `the heading "${title}" of the tag ${tag.name}`);
      }
    }
  });

  it('shows every operation of the description, with its curl sample', async () => {
    await docs.reload();
    const inMenu = new Set<string>();
    for (const { path: route, method, operation } of operations) {
      const summary = String(operation.summary);
      await openOperation(page, String(operation.tags[0]), summary);
      const labels = await page.locator('.menu-item-type-operation [data-testid="menu-item-label"] [data-text]').evaluateAll((spans) => spans.map((span) => span.getAttribute('data-text') ?? ''));
      labels.forEach((label) => inMenu.add(label));
      await expectVisible(heading(page, summary), `the operation ${method.toUpperCase()} ${route} ("${summary}")`);
      const curl = (operation['x-codeSamples'] as Json[]).find((sample) => sample.label === 'curl');
      const firstLine = String(curl?.source).split('\n')[0] ?? '';
      await expectVisible(page.locator('.panel-request-samples').filter({ hasText: firstLine }), `the curl sample of ${operation.operationId}`);
    }
    expect([...inMenu].sort(), 'the operations of the menu').toEqual(operations.map(({ operation }) => String(operation.summary)).sort());
    await page.screenshot({ path: path.join(screenshots, 'docs-operation.png') });
  });

  it('shows the TypeScript sample of an operation when the reader picks TypeScript', async () => {
    const { operation } = operations.find(({ operation }) => (operation.security ?? bundle.security)?.length) ?? operations[0]!;
    const typescript = (operation['x-codeSamples'] as Json[]).find((sample) => sample.lang === 'TypeScript');
    const line = String(typescript?.source)
      .split('\n')
      .find((text) => text.includes('client.'));
    expect(line, `a TypeScript sample calling the client in ${operation.operationId}`).toBeTruthy();
    await docs.reload();
    await openOperation(page, String(operation.tags[0]), String(operation.summary));
    const samples = page.locator('.panel-request-samples').first();
    await samples.getByText('curl', { exact: true }).first().click();
    await page.getByText('TypeScript', { exact: true }).last().click();
    await expectVisible(page.locator('.panel-request-samples').filter({ hasText: line!.trim() }), `the TypeScript sample of ${operation.operationId}`);
  });

  it('shows the meaning of enumerated values (x-enum-descriptions), constants included', async () => {
    const pick = (name: string) => {
      const schema = bundle.components.schemas[name] as Json | undefined;
      expect(schema?.['x-enum-descriptions'], `the ${name} schema with value meanings`).toBeDefined();
      return [name, String(schema!['x-enum-descriptions'][0])] as const;
    };
    // A monitor status of the core document that arrives with the constants.
    const withConfigurationError = enumSchemas.filter(([, schema]) => schema['x-enum-descriptions'].includes('Configuration Error'));
    expect(withConfigurationError.length, 'a schema whose values include the monitor status "Configuration Error"').toBeGreaterThan(0);
    const expected = [pick('Scope'), pick('GrantType'), ...withConfigurationError.map(([name]) => [name, 'Configuration Error'] as const)];
    for (const [name, meaning] of expected) {
      await docs.reload();
      await openMenu(page, 'Schemas');
      await openMenu(page, String(bundle.components.schemas[name].title ?? name));
      await expectVisible(page.getByRole('cell', { name: meaning, exact: true }), `the meaning "${meaning}" in the table of ${name}`);
    }
  });

  it("finds every operation with the page's search", async () => {
    await docs.reload();
    for (const { path: route, operation } of operations) {
      const summary = String(operation.summary);
      await page.getByTestId('search-trigger').click();
      const input = page.getByTestId('search-dialog').locator('input');
      await input.fill(summary);
      const result = page.locator('[data-component-name="Search/SearchItem"]').filter({ hasText: summary }).filter({ hasText: route });
      await expectVisible(result, `a search result for "${summary}" (${route})`);
      if (operation === operations[0]?.operation) await page.screenshot({ path: path.join(screenshots, 'docs-search.png') });
      await result.first().click();
      await expectVisible(heading(page, summary), `the operation "${summary}" opened from the search`);
    }
  });

  it('made no request that leaves the machine through all of the above', () => {
    expect(docs.requests.every((request) => request.local)).toBe(true);
    expect(docs.external(), 'requests to anything but the file (all refused)').toEqual([]);
    expect(docs.blockedLoads(), 'loads that the page policy blocked').toEqual([]);
    expect(docs.errors, 'script errors').toEqual([]);
  });
});

/** The rows of the first Markdown table whose header row starts with these cells, inline code unwrapped. */
function markdownTable(markdown: string, ...header: string[]): string[][] {
  const lines = markdown.split('\n');
  const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim().replace(/`/g, ''));
  const start = lines.findIndex((line) => line.startsWith('|') && header.every((title, i) => cells(line)[i] === title));
  expect(start, `a table with the columns ${header.join(', ')}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

describe('guides agree with the rest of the description', () => {
  const authentication = String((bundle.tags as Json[]).find((tag) => tag.name === 'Authentication')?.description);

  it('the data-center table pairs each API root with its identity provider as the servers do', () => {
    const rows = markdownTable(String(bundle.info.description), 'Data center (key)', 'API root host', 'Identity-provider host');
    const servers = (bundle.servers as Json[]).map((server) => [
      `${String(server.description).replace(/ data center.*$/, '')} (${server['x-data-center']})`,
      String(server.variables.api_host.default),
      new URL(String(server['x-auth-url'])).host,
    ]);
    expect(rows).toEqual(servers);
    for (const [, api, auth] of rows) expect(`${api} ${auth}`).toMatch(/^\S+\.invalid \S+\.invalid$/);
  });

  it('the scope table names exactly the values of the Scope schema', () => {
    const rows = markdownTable(authentication, 'Area', 'Covers', 'Actions');
    const scopes = rows.flatMap(([area, , actions]) => String(actions).split(', ').map((action) => `Service.${area}.${action}`));
    expect(scopes.sort()).toEqual([...bundle.components.schemas.Scope.enum].sort());
  });

  it('the role table gives the role IDs and permissions of the constants', () => {
    const rows = markdownTable(authentication, 'Role', 'Role ID', 'Permission');
    const roles = Object.values<Json>(bundle.components.schemas).find((schema) => schema['x-role-permissions']);
    expect(roles, 'the schema of the service roles (x-role-permissions)').toBeDefined();
    expect(rows.map(([, id]) => Number(id)).sort((a, b) => a - b)).toEqual([...roles!.enum].sort((a: number, b: number) => a - b));
    for (const [role, id, permission] of rows) expect(roles!['x-role-permissions'][String(id)], `${role} (${id})`).toBe(permission);
  });
});

describe('code samples (x-codeSamples)', () => {
  const samples = codeSamplesOf(bundle);

  it('every operation has a curl and a TypeScript sample', () => {
    for (const { operation } of operations) {
      const labels = samples.filter((sample) => sample.operationId === operation.operationId).map((sample) => sample.label);
      expect(labels, String(operation.operationId)).toEqual(['curl', 'TypeScript']);
    }
  });

  it('curl samples work in any data center: addresses from $API_ROOT and $AUTH_URL, set once in the Quick start', () => {
    const quickStart = String(bundle.info.description).split('\n## ')[1] ?? '';
    expect(quickStart).toMatch(/^Quick start/);
    expect(quickStart).toMatch(/export API_ROOT=\S+\/api\n/);
    expect(quickStart).toMatch(/export AUTH_URL=\S+\n/);
    for (const sample of samples.filter((candidate) => candidate.label === 'curl')) {
      const where = `${sample.operationId}: ${sample.source}`;
      const { operation } = operations.find((entry) => entry.operation.operationId === sample.operationId)!;
      const secured = (operation.security ?? bundle.security).length > 0;
      expect(sample.source, where).not.toMatch(/https?:\/\//);
      if (secured) {
        expect(sample.source, where).toContain(`"$API_ROOT${sample.path.replace('{monitor_id}', '')}`);
        expect(sample.source, where).toContain('Authorization: Service-oauthtoken $ACCESS_TOKEN');
        expect(sample.source, where).toContain('Accept: application/json; version=2.0');
      } else {
        expect(sample.source, where).toContain(`"$AUTH_URL${sample.path}"`);
        expect(sample.source, where).toMatch(/ -d \w+=/);
        expect(sample.source, where).not.toContain('Authorization');
      }
    }
  });

  it('one curl sample acts on an MSP customer with the zaaid cookie', () => {
    const withCookie = samples.filter((sample) => sample.label === 'curl' && /-H 'Cookie: zaaid=\d+'/.test(sample.source));
    expect(withCookie.map((sample) => sample.operationId)).toContain('listMonitors');
  });

  it('TypeScript samples take the addresses from API_ROOT and AUTH_URL, never a data-center default', () => {
    for (const sample of samples.filter((candidate) => candidate.lang === 'TypeScript')) {
      expect(sample.source, sample.operationId).not.toMatch(/dataCenter|https?:\/\//);
      expect(sample.source, sample.operationId).toMatch(/authUrl: process\.env\.AUTH_URL!/);
      if (sample.source.includes('createServiceClient(')) expect(sample.source, sample.operationId).toContain('baseUrl: process.env.API_ROOT!');
    }
  });

  it('every line of a sample, and of the code of the guides, fits a 390 px phone (56 characters)', () => {
    const long: string[] = [];
    for (const sample of samples) {
      sample.source.split('\n').forEach((line, index) => {
        if (line.length > 56) long.push(`${sample.operationId} ${sample.label}:${index + 1} (${line.length}) ${line}`);
      });
    }
    const guides = [String(bundle.info.description), ...(bundle.tags as Json[]).map((tag) => String(tag.description ?? ''))];
    for (const guide of guides) {
      for (const block of guide.matchAll(/^( *)```\w*\n([\s\S]*?)^\1```/gm)) {
        for (const line of block[2]!.split('\n')) {
          const text = line.slice(block[1]!.length);
          if (text.length > 56) long.push(`guide (${text.length}) ${text}`);
        }
      }
    }
    expect(long).toEqual([]);
  });

  it("TypeScript samples compile against the project's client (src/)", () => {
    const typescript = samples.filter((sample) => sample.lang === 'TypeScript');
    expect(typescript.length).toBe(operations.length);
    expect(typeCheckSamples(typescript)).toEqual([]);
  }, 60_000);
});
