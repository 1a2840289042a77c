// The published docs, generated/docs/index.html, opened from disk in Chromium with every request recorded and
// everything but the file itself refused, on a desktop window and on a phone's. What must be on the page is read from
// the bundled description (generated/openapi.json), so the test follows the description and its guides. Besides the
// page itself, it does the tasks of a reader new to the service: the addresses of a data center, a token from start
// to end, a call on a customer account, the meaning of a status and of a period, the units of time of a period.
//
// Every wait is for a state of the page (shown, in the window, stable), never for a time; every click is on something
// brought into the window first. The page (1.5 MB) is loaded once per window size and the tests take turns on the two
// pages; a task of a reader on both sizes runs on both at once, so that each test's time limit covers its own work
// only. What every operation and link shows is read from the rendered page as data (the menu once, the samples of
// each operation, the links of each page); the reader's tasks are driven by hand once each (decisions/0010). What the
// page's text says, without a browser, is test/unit/docs-content.test.ts.
import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputs, root } from '../../scripts/lib/paths.js';
import { type Json, loadBundle, operationsOf } from '../support/bundle.js';
import { codeSamplesOf } from '../support/code-samples.js';
import {
  axeViolations,
  clickInView,
  desktop,
  expectBroughtIntoView,
  expectVisible,
  launchChromium,
  type OfflinePage,
  openOffline,
  phone,
} from '../support/docs-browser.js';
import { codeBlocks, expandedUrl, guideSection, headings } from '../support/guide.js';

const bundle = loadBundle();
const docsFile = outputs().docs;
const screenshots = path.join(root, 'test-results');
const operations = operationsOf(bundle);
const samples = codeSamplesOf(bundle);
const guide = String(bundle.info.description);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A heading whose text is exactly this (Redoc adds a deep-link anchor to each heading, without text). */
const heading = (scope: Page | Locator, text: string) =>
  scope.locator('h1, h2, h3, h4').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) });

/** The link of a menu entry by its own label (an entry of a tag holds its operations' entries too). */
const menuItem = (page: Page, label: string) =>
  page.locator('[data-component-name="Menu/MenuItem"] > a').filter({ has: page.getByText(label, { exact: true }) });

/** Opens a menu entry by its label, as a reader does: a click in the sidebar, then the page goes there. */
async function openMenu(page: Page, label: string): Promise<void> {
  const item = menuItem(page, label);
  await expectVisible(item, `the menu entry "${label}"`);
  expect(await item.count(), `menu entries labelled "${label}"`).toBe(1);
  const route = await routeOf(page, label);
  await clickInView(item, `the menu entry "${label}"`);
  await expectSettledAt(page, route, `the page of the menu entry "${label}"`);
}

/**
 * Opens an operation through its tag's menu entry, then its own. (The tag's entry every time: the page folds the
 * entries of a tag it left a moment after it left it, so an entry seen open may be folded by the time of the click.)
 */
async function openOperation(page: Page, tag: string, summary: string): Promise<void> {
  await openMenu(page, tag);
  await openMenu(page, summary);
}

/** A route of the page (`#/monitors/listmonitors`) from the link of a menu entry (`/monitors/listmonitors`). */
const routeFromHref = (href: string) => `#/${href.replace(/^#?\/?/, '')}`;

/** The page's route of a menu entry, as its link gives it. */
async function routeOf(page: Page, label: string): Promise<string> {
  const href = await menuItem(page, label).first().getAttribute('href');
  expect(href, `the link of the menu entry "${label}"`).toBeTruthy();
  return routeFromHref(href!);
}

/** What the menu holds: the route of every entry (tags, operations, schemas) by label, and the operations' labels. */
interface Menu {
  routes: Map<string, string>;
  operations: Set<string>;
}

/** Reads the menu, each tag opened in turn (the page shows a tag's entries only while it is open). */
async function readMenu(reader: OfflinePage): Promise<Menu> {
  const menu: Menu = { routes: new Map(), operations: new Set() };
  await reader.visit();
  // The entries shown from the start: the guides (## headings of info.description), the tags and Schemas.
  const topLevel = await reader.page.locator('[data-component-name="Menu/MenuItem"] > a').evaluateAll((anchors) =>
    anchors.map((anchor) => ({
      label: anchor.querySelector('[data-testid="menu-item-label"] [data-text]')?.getAttribute('data-text') ?? '',
      href: anchor.getAttribute('href') ?? '',
    })),
  );
  for (const { label, href } of topLevel) if (label && href) menu.routes.set(label, routeFromHref(href));
  for (const tag of [...(bundle.tags as Json[]).map((entry) => String(entry.name)), 'Schemas']) {
    await openMenu(reader.page, tag);
    // The entries under the tag's own: another group may be open too (Schemas, after a visit to a schema).
    const entries = await reader.page.locator('[data-component-name="Menu/MenuItem"] > a').evaluateAll((anchors, group) => {
      const labelOf = (anchor: Element) =>
        anchor.querySelector('[data-testid="menu-item-label"] [data-text]')?.getAttribute('data-text') ?? '';
      const tagItem = anchors.find((anchor) => labelOf(anchor) === group)?.parentElement;
      return anchors
        .filter((anchor) => tagItem?.contains(anchor))
        .map((anchor) => ({
          label: labelOf(anchor),
          href: anchor.getAttribute('href') ?? '',
          operation: anchor.parentElement?.classList.contains('menu-item-type-operation') === true,
        }));
    }, tag);
    for (const { label, href, operation } of entries) {
      if (!label || !href) continue;
      if (!menu.routes.has(label)) menu.routes.set(label, routeFromHref(href));
      // The page gives schemas' entries the look of operations: operations are what the tags (not Schemas) hold.
      if (operation && tag !== 'Schemas') menu.operations.add(label);
    }
  }
  return menu;
}

/** The rendered section of a route (`#/monitors/listmonitors` is the element with the id `monitors/listmonitors`). */
const sectionOf = (page: Page, route: string) => page.locator(`[id="${decodeURIComponent(route.replace(/^#\//, ''))}"]`);

/**
 * Waits until the section of a route starts inside the window and stays there: the page went there, and its smooth
 * scroll is over (two frames in a row at the same place).
 */
async function expectSettledAt(page: Page, route: string, what: string): Promise<void> {
  const section = sectionOf(page, route);
  await expectVisible(section, what);
  try {
    await section.first().evaluate(
      (element) =>
        new Promise<void>((resolve, reject) => {
          const until = performance.now() + 10_000;
          let last = Number.NaN;
          const check = () => {
            const { top } = element.getBoundingClientRect();
            const there = top >= -5 && top < innerHeight - 40;
            if (there && top === last) return resolve();
            if (performance.now() > until) return reject(new Error('elsewhere'));
            last = there ? top : Number.NaN;
            requestAnimationFrame(check);
          };
          check();
        }),
    );
  } catch {
    throw new Error(`The page did not go to ${route}: ${what}`);
  }
}

/** The samples panel of an operation's section, and its language picker (curl or TypeScript). */
const samplesPanel = (section: Locator) => section.locator('.panel-request-samples').first();
const languagePicker = (panel: Locator) =>
  panel.locator('[data-component-name="Panel/PanelHeader"] button[aria-haspopup="menu"]').filter({ hasText: /^\s*(curl|TypeScript)\s*$/ });

/** Whether the element's box lies wholly inside the window, at the next frame. */
const insideWindow = (locator: Locator) =>
  locator.first().evaluate(
    (element) =>
      new Promise<boolean>((resolve) =>
        requestAnimationFrame(() => {
          const box = element.getBoundingClientRect();
          resolve(box.height > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth);
        }),
      ),
  );

/**
 * Shows the sample of a language in a samples panel, picking it in the panel's menu when another one shows. Redoc
 * places that menu once, under its button, when it opens: if the page moved the button meanwhile (it renders a page
 * in steps), the menu is out of the window, and the picker closes it and opens it again.
 */
async function showSample(page: Page, panel: Locator, label: string, marker: string, what: string): Promise<Locator> {
  const code = panel.locator('pre').filter({ hasText: marker });
  const picker = languagePicker(panel);
  await expectVisible(picker, `the language picker of ${what}`);
  if ((await picker.first().innerText()).trim() !== label) {
    const choice = page.locator('[data-component-name="Dropdown/DropdownMenu"]').getByRole('menuitem', { name: label, exact: true });
    for (let attempt = 1; ; attempt++) {
      await clickInView(picker, `the language picker of ${what}`);
      await expectVisible(choice, `"${label}" in the language menu of ${what}`);
      if (await insideWindow(choice)) break;
      if (attempt === 5)
        throw new Error(
          `"${label}" in the language menu of ${what} opens out of the window: ${await choice.first().evaluate((e) => JSON.stringify({ box: e.getBoundingClientRect(), w: innerWidth, h: innerHeight, n: document.querySelectorAll('[data-component-name="Dropdown/DropdownMenu"]').length }))}`,
        );
      await clickInView(picker, `the language picker of ${what}, to close its menu`);
      await choice.first().waitFor({ state: 'hidden' });
    }
    await choice.first().click();
  }
  await expectVisible(code, `the ${label} sample of ${what}`);
  return code.first();
}

/** Named schemas with enum meanings, as `[name, schema]`. */
const enumSchemas = Object.entries<Json>(bundle.components.schemas).filter(([, schema]) => Array.isArray(schema['x-enum-descriptions']));

/** Where a code block's lines do not fit: each line must be one line of text, inside its block and the window. */
interface FitReport {
  viewport: number;
  overflow: number;
  lines: { text: string; boxes: number; right: number }[];
  blockRight: number;
  copyButton: { left: number; right: number; top: number; bottom: number } | null;
  covered: string[];
}

/** Measures a code block of the page: its lines (Redoc's `.th-line` spans, or the text lines of a guide's block). */
async function measureCode(pre: Locator): Promise<FitReport> {
  return pre.evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    const blockRight = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth) + 0.5;
    const rectsOf = (node: Node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
    };
    const spans = Array.from(element.querySelectorAll('.th-line'));
    const lines = (spans.length > 0 ? spans : [element]).map((line) => {
      const rects = rectsOf(line);
      const tops = new Set(rects.map((rect) => Math.round(rect.top)));
      const text = (line.textContent ?? '').replace(/\n$/, '');
      // A guide's block is one text: its line boxes must be as many as its lines.
      const expected = spans.length > 0 ? 1 : text.split('\n').filter((part: string) => part.trim() !== '').length;
      return { text: text.split('\n')[0] ?? '', boxes: tops.size - expected + 1, right: Math.max(0, ...rects.map((rect) => rect.right)) };
    });
    const button = element.parentElement?.querySelector('[data-testid="copy-button"]')?.getBoundingClientRect();
    const copyButton = button ? { left: button.left, right: button.right, top: button.top, bottom: button.bottom } : null;
    const covered = !button
      ? []
      : spans
          .filter((line) =>
            rectsOf(line).some(
              (rect) => rect.left < button.right && rect.right > button.left && rect.top < button.bottom && rect.bottom > button.top,
            ),
          )
          .map((line) => line.textContent ?? '');
    return { viewport: innerWidth, overflow: element.scrollWidth - element.clientWidth, lines, blockRight, copyButton, covered };
  });
}

/** The faults of a measured code block, as readable lines. */
function fitFaults(where: string, report: FitReport): string[] {
  const faults: string[] = [];
  if (report.overflow > 0) faults.push(`${where}: the block scrolls sideways by ${report.overflow} px`);
  for (const line of report.lines) {
    if (line.boxes > 1) faults.push(`${where}: "${line.text}" wraps`);
    if (line.right > Math.min(report.viewport, report.blockRight) + 0.5)
      faults.push(
        `${where}: "${line.text}" ends at ${Math.round(line.right)} px, past ${Math.round(Math.min(report.viewport, report.blockRight))} px`,
      );
  }
  for (const line of report.covered) faults.push(`${where}: the copy button covers "${line}"`);
  return faults;
}

/** The serious and critical violations of axe-core on the page as it is. */
async function seriousViolations(page: Page): Promise<string[]> {
  const violations = await axeViolations(page);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.help}): ${violation.targets.slice(0, 3).join(', ')}`);
}

describe('docs page (generated/docs/index.html) in Chromium, offline', () => {
  let browser: Browser | undefined;
  /** One desktop window and one phone, each loaded once: the tests below take turns on them. */
  let desktopReader: OfflinePage;
  let phoneReader: OfflinePage;
  /** The menu, read once from the desktop window. */
  let menu: Menu | undefined;

  /** The route a menu entry leads to, by its label. */
  function menuRoute(label: string): string {
    const found = menu?.routes.get(label);
    expect(found, `a menu entry labelled "${label}"`).toBeDefined();
    return found!;
  }

  /** Runs a task on the desktop window and on the phone at once, each told which it is on. */
  async function onDesktopAndPhone(task: (reader: OfflinePage, where: 'desktop' | 'phone') => Promise<void>): Promise<void> {
    await Promise.all([task(desktopReader, 'desktop'), task(phoneReader, 'phone')]);
  }

  beforeAll(async () => {
    if (!existsSync(docsFile)) throw new Error(`${docsFile} is missing: run \`npm run build\` first.`);
    await mkdir(screenshots, { recursive: true });
    browser = await launchChromium();
    [desktopReader, phoneReader] = await Promise.all([openOffline(browser, docsFile, desktop), openOffline(browser, docsFile, phone)]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  // First, while both pages are as the file opens them: what later visits highlight is no part of what is judged.
  it('has no serious accessibility violation (axe-core) on the overview, an operation and a schema, on a desktop and a phone', async () => {
    // An operation and a schema that the description links to, by those links (the cross-reference test follows each).
    const linked = (route: string) => {
      expect(JSON.stringify(bundle), `a link of the description to ${route}`).toContain(`](${route})`);
      return route;
    };
    const views = [
      ['the overview', ''],
      ['the operation getMonitor', linked('#/monitors/getmonitor')],
      ['the schema Period', linked('#/schemas/period')],
    ] as const;
    const found: string[] = [];
    await onDesktopAndPhone(async (reader, where) => {
      for (const [view, target] of views) {
        await reader.visit(target);
        if (target) await expectSettledAt(reader.page, target, `${view} (${where})`);
        else await expectVisible(reader.page.locator('h1', { hasText: String(bundle.info.title) }), `${view} (${where})`);
        found.push(...(await seriousViolations(reader.page)).map((violation) => `${view} (${where}): ${violation}`));
      }
      // The sidebar is the page's navigation landmark (on a phone, hidden behind the menu button until opened).
      expect(await reader.page.locator('[role="navigation"], nav').count(), `a navigation landmark (${where})`).toBeGreaterThan(0);
    });
    expect(found).toEqual([]);
  });

  describe('what a reader sees and does', () => {
    // Read once, from the desktop window, before the tasks that go where its entries lead.
    beforeAll(async () => {
      menu = await readMenu(desktopReader);
    });

    it('renders the description from the file alone: no request leaves the page', async () => {
      const { page } = desktopReader;
      await desktopReader.visit();
      await expectVisible(page.locator('h1', { hasText: String(bundle.info.title) }), 'the title of the description');
      // The search box says "Loading..." until its index is built, in the page.
      await expectVisible(page.getByTestId('search-trigger').filter({ hasNotText: 'Loading' }), 'the search box, ready');
      await page.screenshot({ path: path.join(screenshots, 'docs.png') });
      const { operation } = operations[0]!;
      await openOperation(page, String(operation.tags?.[0]), String(operation.summary));
      await expectVisible(heading(page, String(operation.summary)), `the operation ${operation.operationId}`);
      expect(desktopReader.requests.length).toBeGreaterThan(0);
      expect(desktopReader.external(), 'requests to anything but the file (all refused)').toEqual([]);
      expect(desktopReader.blockedLoads(), 'loads that the page policy blocked').toEqual([]);
      expect(desktopReader.errors, 'script errors').toEqual([]);
    });

    it('is one file under 3 MB', () => {
      expect(statSync(docsFile).size).toBeLessThan(3_000_000);
    });

    it('is titled and branded for this API', async () => {
      const { page } = desktopReader;
      expect(await page.title()).toContain(bundle.info.title);
      const logo = bundle.info['x-logo'] as Json;
      expect(String(logo.url)).toMatch(/^data:image\/svg\+xml[,;]/);
      const image = page.locator(`img[alt="${logo.altText}"]`);
      await expectVisible(image, 'the logo of info.x-logo');
      expect(await image.first().getAttribute('src')).toBe(logo.url);
      expect(
        await image.first().evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0),
        'the logo draws',
      ).toBe(true);
      const brand = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-brand-6').trim());
      expect(brand, 'the theme colour of the page template').not.toBe('');
    });

    it('shows every guide of info.description (its ## headings) in the menu and on the page', async () => {
      const { page } = desktopReader;
      const guides = headings(guide, 2);
      expect(guides.length).toBeGreaterThan(0);
      await desktopReader.visit();
      const middle = page.getByTestId('middle-panel');
      for (const title of guides) {
        await expectVisible(menuItem(page, title), `the menu entry of the guide "${title}"`);
        await expectVisible(heading(middle, title), `the heading "${title}" of the guides`);
      }
    });

    it('shows every operation of the description in the menu, and no other', () => {
      expect([...menu!.operations].sort(), 'the operations of the menu').toEqual(
        operations.map(({ operation }) => String(operation.summary)).sort(),
      );
    });

    /** The curl and TypeScript samples of an operation, and a line of each that the other does not show. */
    const samplesOf = (operationId: string) =>
      (['curl', 'TypeScript'] as const).map((label) => {
        const sample = samples.find((entry) => entry.operationId === operationId && entry.label === label)!;
        // curl: its first line; TypeScript: its first line past the imports.
        const marker = sample.source
          .split('\n')
          .find((line) => /\S/.test(line) && (label === 'curl' || !line.startsWith('import')))!
          .trim();
        return { ...sample, marker };
      });

    // A reader's task, by hand, once: the search (the page builds its index from the same description as the menu,
    // whose entries for every operation the test above reads), the operation it leads to, both of its samples.
    it("finds an operation with the page's search, which leads where its menu entry leads, to its curl sample and, when the reader picks TypeScript, its TypeScript sample", async () => {
      const { page } = desktopReader;
      const { path: route, operation, method } = operations[0]!;
      const summary = String(operation.summary);
      const where = String(operation.operationId);
      const target = menuRoute(summary);
      await desktopReader.visit();
      await clickInView(page.getByTestId('search-trigger'), 'the search box');
      await page.getByTestId('search-dialog').locator('input').fill(summary);
      const result = page.locator('[data-component-name="Search/SearchItem"]').filter({ hasText: summary }).filter({ hasText: route });
      await expectVisible(result, `a search result for "${summary}" (${route})`);
      await page.screenshot({ path: path.join(screenshots, 'docs-search.png') });
      await clickInView(result, `the search result for "${summary}"`);
      await expectSettledAt(page, target, `the operation ${where}, opened from the search`);
      const section = sectionOf(page, target);
      await expectVisible(heading(section, summary), `the operation ${method.toUpperCase()} ${route} ("${summary}")`);
      for (const sample of samplesOf(where)) await showSample(page, samplesPanel(section), sample.label, sample.marker, where);
      await page.screenshot({ path: path.join(screenshots, 'docs-operation.png') });
    });

    // Every operation, read as data from the rendered page: the page shows the language picked last in every panel,
    // so each operation is visited once with curl showing and once with TypeScript, and the language picked once.
    it('shows every line of the curl and the TypeScript sample of every operation whole on a 390 px phone: no wrap, no sideways scroll, no copy button over it', async () => {
      const { page } = phoneReader;
      const faults: string[] = [];
      for (const label of ['curl', 'TypeScript'] as const) {
        for (const { operation } of operations) {
          const where = String(operation.operationId);
          const target = menuRoute(String(operation.summary));
          await phoneReader.visit(target);
          await expectSettledAt(page, target, `the operation ${where} on a phone`);
          const sample = samplesOf(where).find((entry) => entry.label === label)!;
          const what = `${where} ${label}`;
          const code = await showSample(page, samplesPanel(sectionOf(page, target)), label, sample.marker, what);
          const report = await measureCode(code);
          expect(report.lines.length, `the lines of ${what}`).toBe(sample.source.replace(/\n$/, '').split('\n').length);
          expect(report.copyButton, `the copy button of ${what}`).not.toBeNull();
          faults.push(...fitFaults(what, report));
        }
      }
      await page.screenshot({ path: path.join(screenshots, 'docs-phone-sample.png') });
      expect(faults).toEqual([]);
    });

    it('shows the meaning of enumerated values in a table of the schema, constants included', async () => {
      const { page } = desktopReader;
      const pick = (name: string) => {
        const schema = bundle.components.schemas[name] as Json | undefined;
        expect(schema?.['x-enum-descriptions'], `the ${name} schema with value meanings`).toBeDefined();
        return [name, String(schema!['x-enum-descriptions'][0])] as const;
      };
      // A monitor status of the core document that arrives with the constants.
      const withConfigurationError = enumSchemas.filter(([, schema]) => schema['x-enum-descriptions'].includes('Configuration Error'));
      expect(withConfigurationError.length, 'a schema whose values include the monitor status "Configuration Error"').toBeGreaterThan(0);
      const expected = [
        pick('Scope'),
        pick('GrantType'),
        ...withConfigurationError.map(([name]) => [name, 'Configuration Error'] as const),
      ];
      for (const [name, meaning] of expected) {
        const target = menuRoute(String(bundle.components.schemas[name].title ?? name));
        await desktopReader.visit(target);
        await expectSettledAt(page, target, `the schema ${name}`);
        await expectVisible(
          sectionOf(page, target).getByRole('cell', { name: meaning, exact: true }),
          `the meaning "${meaning}" in the table of ${name}`,
        );
      }
    });

    it('finds the Europe API root and its identity provider under Data centers', async () => {
      const europe = (bundle.servers as Json[]).find((server) => server['x-data-center'] === 'eu');
      expect(europe, 'the Europe server (x-data-center: eu)').toBeDefined();
      const [apiRoot, authUrl] = [expandedUrl(europe!), String(europe!['x-auth-url'])];
      await onDesktopAndPhone(async (reader) => {
        await reader.visit();
        const entry = reader.page
          .locator('[data-component-name="Markdown/Markdown"] li')
          .filter({ hasText: 'Europe' })
          .filter({ hasText: apiRoot })
          .filter({ hasText: authUrl });
        await expectBroughtIntoView(entry, `Europe's API root ${apiRoot} and identity provider ${authUrl}, under Data centers`);
        // Each address reads on one line, whole, inside the window.
        const addresses = await entry
          .first()
          .locator('code')
          .evaluateAll((codes) =>
            codes.map((code) => {
              const rects = Array.from(code.getClientRects());
              return {
                text: code.textContent ?? '',
                lines: new Set(rects.map((rect) => Math.round(rect.top))).size,
                right: Math.max(...rects.map((rect) => rect.right)),
                width: innerWidth,
              };
            }),
          );
        for (const address of addresses.filter((code) => code.text.includes('://'))) {
          expect(address.lines, `${address.text} on one line`).toBe(1);
          expect(address.right, `${address.text} inside the window`).toBeLessThanOrEqual(address.width);
        }
      });
      // The page's Servers panel names the API root and the identity provider of each data center.
      await desktopReader.visit();
      const server = desktopReader.page.locator('[data-testid="server-panel-item-name"]').filter({ hasText: authUrl });
      await expectVisible(server, `the identity provider ${authUrl} in the Servers panel`);
      await expectVisible(desktopReader.page.getByText(apiRoot, { exact: true }), `the API root ${apiRoot} in the Servers panel`);
    });

    it('reads the token steps, from registering a client to revoking a refresh token, without a click', async () => {
      const section = guideSection(guide, 'Get a token');
      const steps = [...section.matchAll(/^\d+\.\s+\*\*(.+?)\*\*/gm)].map((match) => match[1]!.replace(/\.$/, ''));
      expect(steps.length, 'the numbered steps of Get a token').toBeGreaterThanOrEqual(6);
      const revoke = codeBlocks(section).find((block) => block.includes('/oauth/v2/token/revoke'));
      expect(revoke, 'the revoke command in Get a token').toBeDefined();
      await onDesktopAndPhone(async (reader, where) => {
        await reader.visit();
        const middle = reader.page.locator('[data-component-name="Markdown/Markdown"]');
        for (const step of steps) {
          const label = middle.locator('li > p > strong, li > strong').filter({ hasText: new RegExp(`^${escapeRegExp(step)}\\.?$`) });
          await label.first().scrollIntoViewIfNeeded();
          expect(await label.first().isVisible(), `the step "${step}", shown without a click (${where})`).toBe(true);
        }
        const command = middle.locator('pre').filter({ hasText: revoke!.split('\n')[0]! });
        await command.first().scrollIntoViewIfNeeded();
        expect(await command.first().isVisible(), `the revoke command, shown without a click (${where})`).toBe(true);
      });
    });

    it('finds the range of period 51 and the units of time of period 7 in the rows of the Period table', async () => {
      const period = bundle.components.schemas.Period as Json;
      const units = bundle.components.schemas.UnitOfTime as Json;
      const unitName = (id: number) => String(units['x-enum-descriptions'][units.enum.indexOf(id)]);
      const sevenUnits = (period['x-supported-granularities']['7'] as number[]).map(unitName);
      const target = menuRoute(String(period.title));
      await onDesktopAndPhone(async (reader, where) => {
        // On a desktop through the menu, on a phone at the schema's address.
        if (where === 'desktop') {
          await reader.visit();
          await openMenu(reader.page, 'Schemas');
          await openMenu(reader.page, String(period.title));
        } else {
          await reader.visit(target);
        }
        const table = sectionOf(reader.page, target).locator('table').first();
        const row = (value: number) =>
          table.locator('tr').filter({ has: reader.page.locator('td:first-child', { hasText: new RegExp(`^\\s*${value}\\s*$`) }) });
        const seven = row(7);
        await expectBroughtIntoView(seven, `the row of period 7 (${where})`);
        const cells = await seven.first().locator('td').allInnerTexts();
        const unitCell = cells.find((cell) => sevenUnits.every((unit) => cell.includes(unit)));
        expect(unitCell, `a cell of period 7 naming ${sevenUnits.join(', ')} (${where})`).toBeDefined();
        for (const other of units['x-enum-descriptions'] as string[])
          if (!sevenUnits.includes(other)) expect(unitCell).not.toContain(other);
        const fiftyOne = row(51).filter({ hasText: String(period['x-period-ranges']['51']) });
        await expectBroughtIntoView(fiftyOne, `the range of period 51 in its row (${where})`);
        await reader.page.screenshot({ path: path.join(screenshots, `docs-period-${where}.png`) });
      });
    });

    it('finds what status 10 means in the Monitor status table', async () => {
      const status = bundle.components.schemas.MonitorStatus as Json;
      const meaning = String(status['x-enum-descriptions'][status.enum.indexOf(10)]);
      const target = menuRoute(String(status.title));
      await onDesktopAndPhone(async (reader, where) => {
        await reader.visit(target);
        const row = sectionOf(reader.page, target)
          .locator('tr')
          .filter({ has: reader.page.locator('td:first-child', { hasText: /^\s*10\s*$/ }) })
          .filter({ hasText: meaning });
        await expectBroughtIntoView(row, `status 10, "${meaning}", in its row (${where})`);
      });
    });

    it('lists monitors with the Quick start command', async () => {
      const command = codeBlocks(guideSection(guide, 'Quick start')).find((block) => block.includes('"$API_ROOT/monitors"'));
      expect(command, 'a curl command for /monitors in the Quick start').toBeDefined();
      await onDesktopAndPhone(async (reader, where) => {
        await reader.visit();
        const block = reader.page
          .locator('[data-component-name="Markdown/Markdown"] pre')
          .filter({ hasText: command!.split('\n')[0]! })
          .filter({ hasText: 'Service-oauthtoken $ACCESS_TOKEN' });
        await expectBroughtIntoView(block, `the Quick start's command listing the monitors (${where})`);
      });
    });

    it('acts on an MSP customer from a sample with the zaaid cookie', async () => {
      const withCookie = codeSamplesOf(bundle).filter((sample) => sample.label === 'curl' && /Cookie: zaaid=\d+/.test(sample.source));
      expect(withCookie.map((sample) => sample.operationId)).toContain('listMspCustomers');
      await onDesktopAndPhone(async (reader, view) => {
        for (const sample of withCookie) {
          const { operation } = operations.find((entry) => entry.operation.operationId === sample.operationId)!;
          const where = `the curl sample of ${sample.operationId} (${view})`;
          const target = menuRoute(String(operation.summary));
          await reader.visit(target);
          await expectSettledAt(reader.page, target, where);
          const code = await showSample(reader.page, samplesPanel(sectionOf(reader.page, target)), 'curl', 'Cookie: zaaid=', where);
          const line = code.locator('.th-line').filter({ hasText: /Cookie: zaaid=\d+/ });
          await expectBroughtIntoView(line, `the line with Cookie: zaaid= in ${where}`);
        }
      });
    });

    it('reads a 1002 error: its status and message, under Errors and on Get a monitor', async () => {
      const getMonitor = operations.find(({ operation }) => operation.operationId === 'getMonitor')!.operation;
      const target = menuRoute(String(getMonitor.summary));
      await onDesktopAndPhone(async (reader, where) => {
        await reader.visit();
        const errors = reader.page
          .locator('[data-component-name="Markdown/Markdown"] pre')
          .filter({ hasText: '"code": 1002' })
          .filter({ hasText: 'Monitor does not exist.' });
        await expectBroughtIntoView(errors, `the 1002 answer under Errors (${where})`);
        await reader.visit(target);
        const said = sectionOf(reader.page, target)
          .locator('[data-component-name="Markdown/Markdown"] p')
          .filter({ hasText: '1002' })
          .filter({ hasText: 'Monitor does not exist.' });
        await expectBroughtIntoView(said, `404, 1002 and its message on Get a monitor (${where})`);
      });
    });

    it("shows every line of the guides' code whole on a 390 px phone", async () => {
      const mobile = phoneReader;
      await mobile.visit();
      // The guides' sections only: sections of operations that earlier visits rendered hold code blocks too.
      const blocks = mobile.page.locator('[data-section-id^="/section/"] [data-component-name="Markdown/Markdown"] pre');
      const count = await blocks.count();
      expect(count).toBe(codeBlocks(guide).length);
      const faults: string[] = [];
      for (let index = 0; index < count; index++)
        faults.push(...fitFaults(`guide block ${index + 1}`, await measureCode(blocks.nth(index))));
      await mobile.page.screenshot({ path: path.join(screenshots, 'docs-phone.png') });
      expect(faults).toEqual([]);
    });

    it('resolves every cross-reference of the guides and descriptions to a section of the page', async () => {
      const inMarkdown = new Set<string>();
      for (const match of JSON.stringify(bundle).matchAll(/\]\((#\/[^)\s]+)\)/g)) inMarkdown.add(match[1]!);
      expect(inMarkdown.size).toBeGreaterThan(10);
      // The pages that show them: the overview (the guides), every tag (its description, its operations'), and every
      // schema whose description links.
      const sources = ['', ...(bundle.tags as Json[]).map((tag) => String(tag.name))];
      for (const schema of Object.values<Json>(bundle.components.schemas)) {
        if (/\]\(#\//.test(JSON.stringify(schema))) sources.push(String(schema.title));
      }
      // Read as data: the links each source shows. The two pages share the sources out.
      const shown = new Map<string, string>();
      const queue = [...sources];
      await onDesktopAndPhone(async ({ page, visit }) => {
        for (let source = queue.shift(); source !== undefined; source = queue.shift()) {
          const from = source === '' ? '' : menuRoute(source);
          await visit(from);
          if (from) await expectSettledAt(page, from, `the page of ${source}`);
          // Visible links only: sections visited before may stay rendered, out of sight, with links of their own.
          const links = page.locator('[data-component-name="Markdown/Markdown"] a[href^="#/"]:visible');
          for (const href of await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? '')))
            if (inMarkdown.has(href) && !shown.has(href)) shown.set(href, source || 'the overview');
        }
      });
      expect(
        [...inMarkdown].filter((href) => !shown.has(href)),
        'cross-references of the description not shown on the page',
      ).toEqual([]);
      // Each leads to a route of the menu (read from the page once); a reader follows one of each kind by hand (an
      // operation, a schema, a guide), and any that leads elsewhere: following a link is setting the location's
      // fragment to its href, and the page routes there.
      const routes = new Set(menu!.routes.values());
      const byHand = [...shown.keys()].filter((href) => !routes.has(href));
      for (const kind of ['#/schemas/', '#/section/', '#/monitors/']) byHand.push([...shown.keys()].find((href) => href.startsWith(kind))!);
      for (const href of new Set(byHand)) {
        await desktopReader.visit(href);
        await expectSettledAt(desktopReader.page, href, `the link to ${href} on ${shown.get(href)}`);
      }
    });
  });

  it('made no request that leaves the machine through all of the above', () => {
    for (const reader of [desktopReader, phoneReader]) {
      expect(reader.requests.every((request) => request.local)).toBe(true);
      expect(reader.external(), 'requests to anything but the file (all refused)').toEqual([]);
      expect(reader.blockedLoads(), 'loads that the page policy blocked').toEqual([]);
      expect(reader.errors, 'script errors').toEqual([]);
    }
  });
});
