// The console of the docs page, as a reader uses it in Chromium: on the page the mock serves (GET /docs/, in a
// desktop window) and on the file pointed at a mock on another port (on a phone). From each it sends a list, an
// unknown monitor, a group without its name and a customer's list from an account that may not, and gets a token;
// the keyboard alone works it, axe finds nothing serious, it fits the phone; and every request the pages make is
// recorded: none goes anywhere but the page and the mocks, whatever the reader types.
//
// One browser, one page of each kind, loaded once: the tests take turns on them and move inside them by route.
// Every wait is for a state of the page (an answer shown), never for a time. What the console knows without a
// browser (its data, requests, curl) is test/unit/docs-console.test.ts; the mock's /docs is
// test/integration/mock-docs.test.ts.
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputs } from '../../scripts/lib/paths.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { loadBundle, operationsOf } from '../support/bundle.js';
import {
  axeViolations,
  desktop,
  expectBroughtIntoView,
  expectVisible,
  launchChromium,
  type OfflinePage,
  openRecorded,
  phone,
} from '../support/docs-browser.js';

const bundle = loadBundle();

/** The route of an operation on the page: its tag's menu link, then its id in lower case (Redoc's section id). */
async function routeOf(reader: OfflinePage, operationId: string): Promise<string> {
  const entry = operationsOf(bundle).find(({ operation }) => operation.operationId === operationId)!;
  const tag = String(entry.operation.tags?.[0]);
  const href = await reader.page
    .locator(`[data-component-name="Menu/MenuItem"] > a:has([data-text="${tag}"])`)
    .first()
    .getAttribute('href');
  return `#/${String(href).replace(/^#?\/?/, '')}/${operationId.toLowerCase()}`;
}

/**
 * Goes to an operation and opens its console, as a reader does: to its route (unless the page shows its console
 * already), in view, then a click on its summary.
 */
async function openConsole(reader: OfflinePage, operationId: string): Promise<Locator> {
  const console = reader.page.locator(`.docs-console[data-operation="${operationId}"]`);
  if ((await console.count()) === 0) await reader.visit(await routeOf(reader, operationId));
  const summary = console.locator('summary').first();
  await expectBroughtIntoView(summary, `the console of ${operationId}`);
  if (!(await console.evaluate((element) => (element as HTMLDetailsElement).open))) await summary.click();
  await expectVisible(console.getByRole('button', { name: /^Send / }), `the Send button of ${operationId}`);
  return console;
}

/** Waits in the page, frame by frame, until the console's status line reads as the pattern says. */
async function statusReads(console: Locator, pattern: RegExp, what: string): Promise<string> {
  try {
    return await console.getByRole('status').evaluate(
      (element, [source, flags]) =>
        new Promise<string>((resolve, reject) => {
          const until = performance.now() + 15_000;
          const check = () => {
            const text = element.textContent ?? '';
            if (new RegExp(source!, flags).test(text)) return resolve(text);
            if (performance.now() > until) return reject(new Error(text));
            requestAnimationFrame(check);
          };
          check();
        }),
      [pattern.source, pattern.flags],
    );
  } catch (error) {
    throw new Error(`The console did not show ${what}: its status reads "${(error as Error).message}"`);
  }
}

/** What the console shows of the answer once it shows a status: the status line, the body, what the mock says. */
async function answerOf(console: Locator, status: number): Promise<{ status: string; body: string; said: string[] }> {
  return {
    status: await statusReads(console, new RegExp(`^Answer: ${status}\\b`), `the answer ${status}`),
    body: await console.getByLabel('The answer’s body').innerText(),
    said: await console.locator('.dc-journal li').allInnerTexts(),
  };
}

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The serious and critical violations of axe-core in the consoles on the page (the rest of it is test/e2e/docs.test.ts's). */
async function serious(reader: OfflinePage): Promise<string[]> {
  return (await axeViolations(reader.page, '.docs-console'))
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.targets.slice(0, 3).join(', ')}`);
}

describe('the console of the docs page, against the mock', () => {
  let browser: Browser | undefined;
  /** The mock that serves the page, as `npx monitoring-service-api mock` does (its own account an MSP and a BU portal). */
  let served: RunningMock;
  /** The mock the file is pointed at: its own account a BU portal account, which may not list customers. */
  let other: RunningMock;
  let onMock: OfflinePage;
  let fromDisk: OfflinePage;
  /** An address on this machine where no mock answers. */
  let nowhere: string;

  beforeAll(async () => {
    const monitors = [{ monitor_id: '169863000000025001' }];
    [served, other, browser, nowhere] = await Promise.all([
      startMock(),
      startMock({ seed: { account: { type: 'bu_portal', monitors } } }),
      launchChromium(),
      closedPort().then((port) => `http://127.0.0.1:${port}`),
    ]);
    [onMock, fromDisk] = await Promise.all([
      openRecorded(browser, served.docsUrl, desktop, [served.authUrl]),
      openRecorded(browser, pathToFileURL(outputs().docs).href, phone, [other.authUrl, nowhere]),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([served?.stop(), other?.stop()]);
  });

  describe('on the page the mock serves (GET /docs/), in a desktop window', () => {
    it("sends a list (200), an unknown monitor (404, 1002), a group without its name (400) and the list of customers sent with a customer's zaaid (403), each with what the journal says", async () => {
      served.control.clearRequests();
      const monitors = served.control.state().account.monitors.map((monitor) => String(monitor.monitor_id));
      const list = await openConsole(onMock, 'listMonitors');
      await list.getByRole('button', { name: /^Send / }).click();
      const listed = await answerOf(list, 200);
      for (const id of monitors) expect(listed.body).toContain(id);
      expect(listed.said).toEqual(['Reached listMonitors', 'Acted on your own account', 'No violation of the contract']);

      const unknown = await openConsole(onMock, 'getMonitor');
      await unknown.getByRole('button', { name: 'A monitor that does not exist: 404' }).click();
      const missing = await answerOf(unknown, 404);
      expect(JSON.parse(missing.body)).toEqual({ code: 1002, message: 'Monitor does not exist.' });

      const group = await openConsole(onMock, 'createMonitorGroup');
      await group.getByRole('button', { name: 'Without display_name: 400' }).click();
      const refused = await answerOf(group, 400);
      expect(JSON.parse(refused.body).message).toMatch(/display_name/);
      expect(refused.said).toContainEqual(expect.stringMatching(/^Violation at request\.body: .*required property 'display_name'/));
      expect(served.control.state().account.groups).toEqual([]);

      const customers = await openConsole(onMock, 'listMspCustomers');
      await customers.getByRole('button', { name: "With a customer's zaaid, which it does not take: 403" }).click();
      const forbidden = await answerOf(customers, 403);
      const [customer] = served.control.state().customers;
      expect(JSON.parse(forbidden.body)).toEqual({ code: 403, message: 'You are not authorized to perform this operation.' });
      expect(forbidden.said).toContain(`Acted on the account ${customer!.zaaid} (Cookie: zaaid=${customer!.zaaid})`);
      // The mock's own record: the four calls, from the page's own origin, the last one with the customer's cookie.
      const journal = served.control.requests().requests;
      expect(journal.map((entry) => [entry.operation, entry.status, entry.account])).toEqual([
        ['listMonitors', 200, null],
        ['getMonitor', 404, null],
        ['createMonitorGroup', 400, null],
        ['listMspCustomers', 403, customer!.zaaid],
      ]);
      // The account's cookie is gone once the call is made.
      expect(await onMock.page.evaluate(() => document.cookie)).not.toMatch(/zaaid=/);
    });

    it('gets a token in one step (a client, a grant token, the exchange, each shown), which lives in the page only', async () => {
      const list = await openConsole(onMock, 'listMonitors');
      await list.getByRole('button', { name: 'Get a token from the mock' }).click();
      const steps = list.locator('.dc-steps > li');
      await steps.nth(2).locator('pre', { hasText: '→ 200' }).waitFor({ timeout: 15_000 });
      const shown = await steps.allInnerTexts();
      expect(shown.map((step) => step.split('\n')[0])).toEqual([
        '1. Register a client (the developer console: the mock’s test API)',
        `2. Generate a grant token for ${[...new Set(operationsOf(bundle).flatMap(({ operation }) => (operation.security ?? []).flatMap((requirement: object) => Object.values(requirement).flat())))].join(',')}, valid 10 minutes (the developer console)`,
        '3. Exchange it for an access token and a refresh token (the identity provider)',
      ]);
      const [client, , tokens] = await steps.locator('pre').allInnerTexts();
      const clientId = JSON.parse(client!.slice(client!.indexOf('{'))).client_id as string;
      const accessToken = JSON.parse(tokens!.slice(tokens!.indexOf('{'))).access_token as string;
      await expect.poll(() => list.getByLabel('Access token (Service-oauthtoken)').inputValue()).toBe(accessToken);
      // The next call carries it: the journal names its client (by the last four characters of its ID, a secret).
      await list.getByRole('button', { name: /^Send / }).click();
      expect((await answerOf(list, 200)).said).toContain(`Token of the client ...${clientId.slice(-4)}`);
      // Every console of the page uses it; nothing keeps it beyond the page's memory.
      const other = await openConsole(onMock, 'getMonitor');
      expect(await other.getByLabel('Access token (Service-oauthtoken)').inputValue()).toBe(accessToken);
      const kept = await onMock.page.evaluate(() => JSON.stringify([document.cookie, { ...localStorage }, { ...sessionStorage }]));
      expect(kept).not.toContain(accessToken);
    });

    it('is worked by the keyboard alone: into the console, through its controls in reading order, a request sent', async () => {
      const console = await openConsole(onMock, 'getMonitor');
      await console.locator('summary').click(); // closed again: the reader opens it from the keyboard
      const { page } = onMock;
      await onMock.page.locator('[id$="getmonitor"] .panel-request-samples button').last().focus();
      const focused = () =>
        page.evaluate(() => document.activeElement?.closest('.docs-console') !== null && document.activeElement?.tagName);
      for (let presses = 0; (await focused()) !== 'SUMMARY'; presses++) {
        expect(presses, 'Tab presses from the samples to the console').toBeLessThan(10);
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      // Tab goes through every control of the console, in the order they read.
      const controls = await console.evaluate((element) =>
        Array.from(element.querySelectorAll('button:not([hidden]):not(:disabled), input, select, textarea, pre[tabindex], summary'))
          .filter((control) => (control as HTMLElement).offsetParent !== null)
          .map((control) => control.outerHTML.slice(0, 80)),
      );
      const visited: string[] = [];
      for (let index = 1; index < controls.length; index++) {
        await page.keyboard.press('Tab');
        visited.push(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? ''));
      }
      expect(visited).toEqual(controls.slice(1));
      // Back to the request one click away, and Enter sends it.
      await console.getByRole('button', { name: 'A monitor that does not exist: 404' }).focus();
      await page.keyboard.press('Enter');
      expect(JSON.parse((await answerOf(console, 404)).body).code).toBe(1002);
    });

    it('has no serious accessibility violation (axe-core) with a console open and answered', async () => {
      await openConsole(onMock, 'getMonitor');
      expect(await serious(onMock)).toEqual([]);
    });
  });

  describe('on the file, pointed at a mock on another port, on a phone', () => {
    it("sends the same four with the lenient mock's any token: a list, an unknown monitor, a group without its name, and a customer's list on an account that may not", async () => {
      other.control.clearRequests();
      const list = await openConsole(fromDisk, 'listMonitors');
      await list.getByLabel('Mock address').fill(other.authUrl);
      expect(await list.getByLabel('Access token (Service-oauthtoken)').inputValue()).toBe('any-token');
      await list.getByRole('button', { name: /^Send / }).click();
      expect((await answerOf(list, 200)).body).toContain(String(other.control.state().account.monitors[0]?.monitor_id));

      const unknown = await openConsole(fromDisk, 'getMonitor');
      expect(await unknown.getByLabel('Mock address').inputValue()).toBe(other.authUrl);
      await unknown.getByRole('button', { name: 'A monitor that does not exist: 404' }).click();
      expect(JSON.parse((await answerOf(unknown, 404)).body)).toEqual({ code: 1002, message: 'Monitor does not exist.' });

      // The violation as the mock names it in its sl-violations header, which a page of any origin may read.
      const group = await openConsole(fromDisk, 'createMonitorGroup');
      await group.getByRole('button', { name: 'Without display_name: 400' }).click();
      const refused = await answerOf(group, 400);
      expect(refused.said).toContainEqual(expect.stringMatching(/^Violation at request\.body: .*required property 'display_name'/));

      // A page of another origin may not set the account's cookie: the console says so, and the account that may not
      // list customers is the mock's own (a BU portal account).
      const customers = await openConsole(fromDisk, 'listMspCustomers');
      expect(await customers.getByRole('button', { name: "With a customer's zaaid, which it does not take: 403" }).isDisabled()).toBe(true);
      await expect
        .poll(() => customers.locator('[id$="-account-hint"]').innerText())
        .toMatch(/a page may not set for another origin: open the page the mock serves/);
      await customers.getByRole('button', { name: /^Send / }).click();
      expect(JSON.parse((await answerOf(customers, 403)).body)).toEqual({
        code: 403,
        message: 'You are not authorized to perform this operation.',
      });
      expect(other.control.requests().requests.map((entry) => [entry.operation, entry.status, entry.headers.origin])).toEqual([
        ['listMonitors', 200, 'null'],
        ['getMonitor', 404, 'null'],
        ['createMonitorGroup', 400, 'null'],
        ['listMspCustomers', 403, 'null'],
      ]);
    });

    it('says how to start a mock when none answers at the address', async () => {
      const port = new URL(nowhere).port;
      const list = await openConsole(fromDisk, 'listMonitors');
      await list.getByLabel('Mock address').fill(`127.0.0.1:${port}`);
      await list.getByRole('button', { name: /^Send / }).click();
      const said = await statusReads(list, new RegExp(`^No mock answers at http://127\\.0\\.0\\.1:${port}\\.`), 'that no mock answers');
      expect(said).toContain(`npx monitoring-service-api mock --port ${port}`);
      await list.getByLabel('Mock address').fill(other.authUrl);
    });

    it('sends nothing off this machine, whatever the reader types: the console refuses, and the page policy blocks', async () => {
      const list = await openConsole(fromDisk, 'listMonitors');
      const before = fromDisk.requests.length;
      for (const address of ['http://example.com:4010', 'https://127.0.0.1:4010', 'http://10.0.0.1:4010']) {
        await list.getByLabel('Mock address').fill(address);
        await list.getByRole('button', { name: /^Send / }).click();
        await statusReads(list, /the console sends only to a mock on this machine/, `the refusal of ${address}`);
      }
      expect(fromDisk.requests.slice(before)).toEqual([]);
      await list.getByLabel('Mock address').fill(other.authUrl);
      // Past the console, the page's policy: a script that tries another host is blocked before any request is made.
      const blocked = await fromDisk.page.evaluate(() =>
        fetch('http://192.0.2.1:4010/api/monitors').then(
          () => 'sent',
          (error: Error) => error.name,
        ),
      );
      expect(blocked).toBe('TypeError');
      await expect.poll(() => fromDisk.blockedLoads().map((violation) => violation.directive)).toEqual(['connect-src']);
      expect(fromDisk.requests.slice(before)).toEqual([]);
    });

    it('fits a 390 px phone: nothing wider than the window, nothing scrolls sideways', async () => {
      const console = await openConsole(fromDisk, 'createMonitorGroup');
      const overflow = await console.evaluate((element) => {
        const wide = Array.from(element.querySelectorAll('*'))
          .filter((child) => child.getBoundingClientRect().right > innerWidth + 0.5 || child.scrollWidth > child.clientWidth + 1)
          .filter((child) => getComputedStyle(child).overflowX !== 'auto' || child.scrollWidth > child.clientWidth + 1)
          .map((child) => child.outerHTML.slice(0, 60));
        return { wide, page: document.documentElement.scrollWidth - innerWidth };
      });
      expect(overflow).toEqual({ wide: [], page: 0 });
      expect(await serious(fromDisk)).toEqual([]);
    });
  });

  it('made no request but to the pages and the mocks (and the address where none answers), no blocked load but the one a test made, no script error', () => {
    for (const reader of [onMock, fromDisk]) {
      expect(reader.external(), 'requests to anything but the page and the mocks (all refused)').toEqual([]);
      expect(reader.errors, 'script errors').toEqual([]);
    }
    expect(onMock.blockedLoads()).toEqual([]);
    expect(fromDisk.blockedLoads().map((violation) => violation.blockedURI)).toEqual(['http://192.0.2.1:4010/api/monitors']);
  });
});
