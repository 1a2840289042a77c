// Chromium reads only the last --disable-features switch it is given: the list of the tests and the bench
// (scripts/lib/chromium.ts) repeats the features Playwright turns off, which must stay those of the installed version.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { disabledFeatures, playwrightDisabledFeatures } from '../../scripts/lib/chromium.js';
import { root } from '../../scripts/lib/paths.js';

it('repeats the features the installed playwright-core turns off, and adds the omnibox popups', () => {
  const bundle = readFileSync(path.join(root, 'node_modules', 'playwright-core', 'lib', 'coreBundle.js'), 'utf8');
  const start = bundle.indexOf('disabledFeatures = [');
  const end = bundle.indexOf('].filter(Boolean)', start);
  expect(start, "playwright-core's list of the features it turns off").toBeGreaterThan(-1);
  const names = [...bundle.slice(start, end).matchAll(/^\s*"([^"\n]+)",?$/gm)].map((match) => match[1]);
  expect(playwrightDisabledFeatures).toEqual(names);
  expect(disabledFeatures).toEqual([...names, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup']);
});
