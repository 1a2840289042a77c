// Chromium's --disable-features for the tests that launch it (test/support/docs-browser.ts), apart from playwright-core
// so that a unit test reads it without loading the browser driver.
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
