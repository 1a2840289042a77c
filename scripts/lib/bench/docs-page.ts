// The docs page in Chromium, from disk: when the first heading of the guides shows, and when the page answers (its
// search ready, and the console of an operation in place), each the median of five loads on a desktop window and on
// a phone's, beside the anchor: the same page as `redocly build-docs` writes it (with the console, without the quick
// start of scripts/lib/docs-loading.ts), loaded in turn with it. Also what the console adds to the page, gzipped:
// over its target, the bench exits 1.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { type OpenApiDocument, operationsOf } from '../../../src/description/openapi.js';
import { chromiumPath, desktop, launchChromium, phone } from '../chromium.js';
import { consoleParts, redocPage, withConsole, withoutRemoteImages } from '../docs-page.js';
import { outputs } from '../paths.js';
import { median } from './load.js';
import { type BenchSection, ms } from './section.js';

/** The targets of issue 41: the guides' first heading within 1.0 s, the page answering within 2.0 s; the console at most 30 kB gzipped. */
export const docsPageTargets = { headingMs: 1000, interactiveMs: 2000, consoleGzippedBytes: 30_000 } as const;

const loads = 5;

/**
 * Watches the page from its first frame: the frame in which the first heading of the guides has a box, and the
 * frame in which the search box is ready (not "Loading"), Redoc has taken over the menu, and the section of the
 * route holds its console. Times from the navigation's start.
 */
const watcher = `(() => {
  const marks = {};
  globalThis.__docsLoad = marks;
  const check = () => {
    const now = performance.now();
    const heading = document.querySelector('[data-section-id^="/section/"] h2');
    if (!marks.heading && heading && heading.getBoundingClientRect().height > 0) marks.heading = now;
    const menu = document.querySelector('[data-component-name="Menu/Menu"]');
    const hydrated = menu && Object.keys(menu).some((key) => key.startsWith('__reactFiber'));
    const search = document.querySelector('[data-testid="search-trigger"]');
    const section = document.querySelector('[id="' + decodeURIComponent(location.hash.slice(2)) + '"]');
    if (!marks.interactive && hydrated && search && !/Loading/.test(search.textContent || '') && section && section.querySelector('.docs-console'))
      marks.interactive = now;
    if (!(marks.heading && marks.interactive)) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

interface Load {
  heading: number;
  interactive: number;
}

async function load(browser: Browser, file: string, route: string, viewport: { width: number; height: number }): Promise<Load> {
  const context = await browser.newContext({ viewport, serviceWorkers: 'block' });
  try {
    await context.addInitScript(watcher);
    const page = await context.newPage();
    await page.goto(`${pathToFileURL(file).href}${route}`);
    await page.waitForFunction(() => (globalThis as { __docsLoad?: Partial<Load> }).__docsLoad?.interactive, undefined, {
      timeout: 60_000,
    });
    return await page.evaluate(() => (globalThis as unknown as { __docsLoad: Load }).__docsLoad);
  } finally {
    await context.close();
  }
}

/** The route of the description's first operation (`#/authentication/requesttoken`), from its entry in the page's menu. */
async function firstOperationRoute(browser: Browser, file: string, bundle: OpenApiDocument): Promise<string> {
  const [first] = operationsOf(bundle);
  const page = await browser.newPage();
  try {
    await page.goto(pathToFileURL(file).href);
    // Until Redoc takes over the prerendered menu, a click follows its link out of the page.
    await page.waitForFunction(
      () => {
        const menu = document.querySelector('[data-component-name="Menu/Menu"]');
        return menu !== null && Object.keys(menu).some((key) => key.startsWith('__reactFiber'));
      },
      undefined,
      { timeout: 60_000 },
    );
    const entry = (label: string) => page.locator(`[data-component-name="Menu/MenuItem"] > a:has([data-text="${label}"])`).first();
    // The menu shows a tag's operations once the tag is open.
    await entry(String(first?.operation.tags?.[0])).click({ timeout: 60_000 });
    const href = await entry(String(first?.operation.summary)).getAttribute('href', { timeout: 60_000 });
    return `#/${String(href).replace(/^#?\/?/, '')}`;
  } finally {
    await page.close();
  }
}

const verdict = (value: number, target: number) => `target ${(target / 1000).toFixed(1)} s: ${value <= target ? 'met' : 'not met'}`;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export const docsPage: BenchSection = {
  part: 'docs',
  title: 'the docs page in Chromium, from disk (median of 5 loads), and what its console adds',
  async run({ row }) {
    const out = outputs();
    const bundle: OpenApiDocument = JSON.parse(readFileSync(out.bundleJson, 'utf8'));
    const parts = await consoleParts(bundle);
    const added = parts.style + parts.data + parts.script;
    const gzipped = gzipSync(added).length;
    row(
      'Docs page: what the console adds (style, data and script, gzipped)',
      `${kB(gzipped)} (target at most ${kB(docsPageTargets.consoleGzippedBytes)}: ${gzipped <= docsPageTargets.consoleGzippedBytes ? 'met' : 'not met'})`,
      '',
      `${kB(added.length)} as inlined`,
    );
    if (gzipped > docsPageTargets.consoleGzippedBytes) process.exitCode = 1;
    if (!existsSync(chromiumPath)) {
      row('Docs page load', `not measured: no Chromium at ${chromiumPath}`);
      return;
    }
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-docs-'));
    const browser = await launchChromium();
    try {
      const anchor = path.join(scratch, 'redocly.html');
      await writeFile(anchor, withConsole(withoutRemoteImages(await redocPage(bundle)), parts));
      const pages = { ours: out.docs, anchor };
      row(
        'Docs page: the file',
        `${(readFileSync(out.docs).length / 1e6).toFixed(2)} MB`,
        `as Redocly builds it: ${(readFileSync(anchor).length / 1e6).toFixed(2)} MB`,
      );
      const route = await firstOperationRoute(browser, out.docs, bundle);
      for (const [name, viewport] of [
        ['desktop window', desktop],
        ['phone', phone],
      ] as const) {
        const samples: Record<keyof typeof pages, Load[]> = { ours: [], anchor: [] };
        // One load of each first (the file in the system's cache, the browser's code warm), then in turn.
        for (const file of Object.values(pages)) await load(browser, file, route, viewport);
        for (let index = 0; index < loads; index++)
          for (const which of index % 2 === 0 ? (['ours', 'anchor'] as const) : (['anchor', 'ours'] as const))
            samples[which].push(await load(browser, pages[which], route, viewport));
        const figure = (key: keyof Load) => median(samples.ours.map((sample) => sample[key]));
        const anchorFigure = (key: keyof Load) => `as Redocly builds it: ${ms(median(samples.anchor.map((sample) => sample[key])))}`;
        const where = `${name} (${viewport.width}×${viewport.height}), opened at ${route}`;
        row(
          `Docs page, ${where}: the first heading of the guides shows`,
          `${ms(figure('heading'))} (${verdict(figure('heading'), docsPageTargets.headingMs)})`,
          anchorFigure('heading'),
        );
        row(
          `Docs page, ${where}: search ready and the operation's console in place`,
          `${ms(figure('interactive'))} (${verdict(figure('interactive'), docsPageTargets.interactiveMs)})`,
          anchorFigure('interactive'),
        );
      }
    } finally {
      await browser.close();
      await rm(scratch, { recursive: true, force: true });
    }
  },
};
