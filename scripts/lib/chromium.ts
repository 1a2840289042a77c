// Chromium (Debian's package, driven by playwright-core) as the docs page's browser test and its bench launch it:
// headless, quiet, and without the features that cost CPU for nothing (the switches are checked against the installed
// playwright-core by test/unit/chromium-switches.test.ts). playwright-core loads only when a browser is launched.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/**
 * The features Chromium starts without. Playwright turns off a list of its own with one --disable-features switch,
 * and Chromium reads only the last such switch: its list (playwright-core's chromiumSwitches.ts; a unit test holds
 * them equal) is repeated here, and ours added: the omnibox popups that Chromium preloads even headless, a renderer
 * each (about a second of CPU per launch for a window no test opens).
 */
export const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider',
  'GlobalMediaControls',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'BlockOriginHeaderModificationOnRedirect',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'Translate',
  'AutoDeElevate',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
export const disabledFeatures = [...playwrightDisabledFeatures, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** The desktop window of the tests and the bench, and a phone's (390 px wide, as an iPhone 12 to 15). */
export const desktop = { width: 1400, height: 1000 } as const;
export const phone = { width: 390, height: 844 } as const;

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
  `--disable-features=${disabledFeatures.join(',')}`,
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: the docs test needs it. Run \`npm test\` (its pretest hook installs ` +
        "Debian's chromium), or `apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary.",
    );
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}
