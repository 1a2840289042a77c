// Chromium (Debian's package, driven by playwright-core) opening a file with every network request recorded, and
// every request refused that is not the file itself: what a reader without a network gets.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, and quiet: without the networking flags Chromium looks up outside hosts of its own. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: the docs test needs it. Run \`npm test\` (its pretest hook installs ` +
        "Debian's chromium), or `apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary.",
    );
  }
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

export interface RecordedRequest {
  url: string;
  resourceType: string;
  /** The file itself (any #fragment), or an in-page data:, blob: or about: URL. */
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
  /** Requests to anything but the file: all of them refused. */
  external(): RecordedRequest[];
  /** Uncaught errors of the page's scripts. */
  errors: string[];
  /** Loads the page's policy blocked before any request was made (they never reach `requests`). */
  blockedLoads(): PolicyViolation[];
  /** Opens the file afresh (the page's hash routes start at the overview). */
  reload(): Promise<void>;
}

const inPageSchemes = /^(data|blob|about):/i;

export async function openOffline(browser: Browser, file: string): Promise<OfflinePage> {
  const url = pathToFileURL(file).href;
  const isLocal = (address: string) => inPageSchemes.test(address) || address.split('#')[0] === url;
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
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
    document.addEventListener('securitypolicyviolation', (event) => report({ directive: event.effectiveDirective, blockedURI: event.blockedURI }));
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('websocket', (socket) => requests.push({ url: socket.url(), resourceType: 'websocket', local: false }));

  const reload = async () => {
    await page.goto(url, { waitUntil: 'load' });
    // The file holds a prerendered page that Redoc then hydrates: before that, a click on the menu would follow
    // the link out of the page instead of routing inside it.
    await page.locator('[data-component-name="Menu/Menu"]').first().waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const menu = document.querySelector('[data-component-name="Menu/Menu"]');
      return menu !== null && Object.keys(menu).some((key) => key.startsWith('__reactFiber'));
    });
  };
  await reload();
  return {
    context,
    page,
    url,
    requests,
    external: () => requests.filter((request) => !request.local),
    errors,
    blockedLoads: () => violations.filter((violation) => /^[a-z][a-z0-9+.-]*:/i.test(violation.blockedURI) && !inPageSchemes.test(violation.blockedURI)),
    reload,
  };
}

/** Waits until the locator shows, failing with what was expected rather than a selector. */
export async function expectVisible(locator: Locator, what: string, timeout = 10_000): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch {
    throw new Error(`Not visible on the docs page: ${what}`);
  }
}
