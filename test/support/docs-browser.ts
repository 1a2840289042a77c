// Chromium (Debian's package, driven by playwright-core) opening the docs page with every network request recorded,
// and every request refused that is not the page itself (or a mock the test allows): what a reader without a
// network gets.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

import { desktop } from '../../scripts/lib/chromium.js';

export { chromiumArgs, chromiumPath, desktop, launchChromium, phone } from '../../scripts/lib/chromium.js';

export interface RecordedRequest {
  url: string;
  resourceType: string;
  /** The page itself (any #fragment), an in-page data:, blob: or about: URL, or an origin the test allowed (a mock). */
  local: boolean;
}

/** A violation of the page's Content-Security-Policy, as the page saw it. */
export interface PolicyViolation {
  directive: string;
  /** A URL for a blocked load; `eval` or `inline` for blocked code, which is no request. */
  blockedURI: string;
}

export interface OfflinePage {
  context: BrowserContext;
  page: Page;
  url: string;
  /** Every request the page made, in order, the refused ones included. */
  requests: RecordedRequest[];
  /** Requests to anything but the page and the origins allowed: all of them refused. */
  external(): RecordedRequest[];
  /** Uncaught errors of the page's scripts. */
  errors: string[];
  /** Loads the page's policy blocked before any request was made (they never reach `requests`). */
  blockedLoads(): PolicyViolation[];
  /**
   * Goes to the overview or to a route of the page (`#/monitors/listmonitors`) the way a reader's link does: inside
   * the loaded page, by its location's fragment (the page routes on it).
   */
  visit(hash?: string): Promise<void>;
}

const inPageSchemes = /^(data|blob|about):/i;

/** The docs page from disk, with every request but the file's refused. */
export function openOffline(browser: Browser, file: string, viewport: { width: number; height: number } = desktop): Promise<OfflinePage> {
  return openRecorded(browser, pathToFileURL(file).href, viewport);
}

/**
 * The docs page at a URL (a file, or the page a mock serves), with every request recorded: the page itself, in-page
 * URLs and the origins given (the mocks its console sends to) go on, anything else is refused.
 */
export async function openRecorded(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = desktop,
  allowedOrigins: string[] = [],
): Promise<OfflinePage> {
  const isLocal = (address: string) =>
    inPageSchemes.test(address) || address.split('#')[0] === url || allowedOrigins.some((origin) => address.startsWith(`${origin}/`));
  // Reduced motion: the page jumps where a reader's link points instead of scrolling there smoothly (tests wait less).
  const context = await browser.newContext({ viewport, serviceWorkers: 'block', reducedMotion: 'reduce' });
  const requests: RecordedRequest[] = [];
  const errors: string[] = [];
  // Every request the page makes is recorded; the file goes on, anything else is refused.
  context.on('request', (request) => {
    requests.push({ url: request.url(), resourceType: request.resourceType(), local: isLocal(request.url()) });
  });
  await context.route('**/*', (route) => (isLocal(route.request().url()) ? route.continue() : route.abort('internetdisconnected')));
  // The page's policy blocks loads before they become requests: the page reports each violation here.
  const violations: PolicyViolation[] = [];
  await context.exposeBinding('__reportPolicyViolation', (_source, violation: PolicyViolation) => void violations.push(violation));
  await context.addInitScript(() => {
    const report = (globalThis as unknown as { __reportPolicyViolation: (violation: unknown) => void }).__reportPolicyViolation;
    document.addEventListener('securitypolicyviolation', (event) =>
      report({ directive: event.effectiveDirective, blockedURI: event.blockedURI }),
    );
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('websocket', (socket) => requests.push({ url: socket.url(), resourceType: 'websocket', local: false }));

  const load = async () => {
    await page.goto(url, { waitUntil: 'load' });
    // The file holds a prerendered page that Redoc then hydrates: before that, a click on the menu would follow
    // the link out of the page instead of routing inside it. (On a phone the menu is hidden behind a button.)
    await page.locator('[data-component-name="Menu/Menu"]').first().waitFor({ state: 'attached' });
    await page.waitForFunction(() => {
      const menu = document.querySelector('[data-component-name="Menu/Menu"]');
      return menu !== null && Object.keys(menu).some((key) => key.startsWith('__reactFiber'));
    });
  };
  await load();
  // Loading the page again for each visit would cost seconds: a visit moves inside the loaded page instead.
  const visit = async (hash = '') => {
    await page.evaluate(async (fragment) => {
      // To the overview by the history (a fragment set to '' would leave a '#'); to a route by its fragment. A visit to
      // the route already shown goes through the overview, so that the page moves there again. (Each route the page
      // renders costs a few hundred milliseconds of its CPU: no other detour.)
      if (location.hash !== '' && (fragment === '' || location.hash === fragment)) {
        history.pushState(null, '', location.pathname);
        dispatchEvent(new PopStateEvent('popstate'));
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      if (fragment === '') scrollTo(0, 0);
      else location.hash = fragment;
    }, hash);
  };
  return {
    context,
    page,
    url,
    requests,
    external: () => requests.filter((request) => !request.local),
    errors,
    blockedLoads: () =>
      violations.filter((violation) => /^[a-z][a-z0-9+.-]*:/i.test(violation.blockedURI) && !inPageSchemes.test(violation.blockedURI)),
    visit,
  };
}

/** Resolves at the page's next animation frame: the page has rendered what it had to render. */
export const nextFrame = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

/**
 * Waits until the locator shows, failing with what was expected rather than a selector. It looks once per frame of
 * the page: Playwright's own wait looks again after growing pauses (up to half a second), which the page's debounced
 * search and step-by-step rendering would turn into seconds per test.
 */
export async function expectVisible(locator: Locator, what: string, timeout = 10_000): Promise<void> {
  const until = performance.now() + timeout;
  while (!(await locator.first().isVisible())) {
    if (performance.now() > until) throw new Error(`Not visible on the docs page: ${what}`);
    await nextFrame(locator.page());
  }
}

/**
 * Waits, frame by frame, until the element's box is inside the window and where it was one frame before: the page
 * stopped moving it (Redoc scrolls smoothly to what a reader picks). With `bringIntoView`, it is scrolled to the
 * middle of the window first, and again at each frame that finds it outside.
 */
async function settleInViewport(locator: Locator, what: string, bringIntoView: boolean, timeout = 10_000): Promise<void> {
  await expectVisible(locator, what, timeout);
  try {
    await locator.first().evaluate(
      (element, { limit, scroll }) =>
        new Promise<void>((resolve, reject) => {
          const until = performance.now() + limit;
          let last = '';
          if (scroll) element.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
          const check = () => {
            const box = element.getBoundingClientRect();
            const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
            const where = `${box.top},${box.left},${box.bottom},${box.right}`;
            if (inside && where === last) return resolve();
            if (performance.now() > until) return reject(new Error('outside'));
            if (!inside && scroll) element.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
            last = inside ? where : '';
            requestAnimationFrame(check);
          };
          check();
        }),
      { limit: timeout, scroll: bringIntoView },
    );
  } catch {
    throw new Error(`Not inside the window on the docs page: ${what}`);
  }
}

/**
 * Brings the element into the window as a reader scrolling to it does, and waits until it lies there wholly and
 * stays: the page may still be moving from an earlier visit, and a reader scrolls again.
 */
export async function expectBroughtIntoView(locator: Locator, what: string, timeout = 10_000): Promise<void> {
  await settleInViewport(locator, what, true, timeout);
}

/**
 * Clicks as a reader does, on something in sight: brings it to the middle of the window (room around it for what it
 * opens), waits until nothing moves it any more, then clicks. Menus that Redoc opens are placed once, where their
 * button is at the click: a click during a scroll would leave them out of the window.
 */
export async function clickInView(locator: Locator, what: string): Promise<void> {
  await settleInViewport(locator, what, true);
  await locator.first().click();
}

const require = createRequire(import.meta.url);

/** The violations of axe-core's rules (WCAG 2 A and AA, and best practices) on the page as it is. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe-core (from npm, injected into the page) on the whole page, or on the elements a selector picks. */
export async function axeViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async (selector) => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            context: Document | { include: string[] },
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(selector ? { include: [selector] } : document, { resultTypes: ['violations'] });
    return violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  }, within);
}
