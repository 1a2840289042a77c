// What a browser app's bundle of the client holds (esbuild, from dist/ through the package's exports map): the
// default client builds without zod installed and carries neither zod nor the generated schemas; an app that
// checks answers gets them because it imports them. Sizes are figures of `npm run bench`, not asserted here.
import { describe, expect, it } from 'vitest';
import { newerFeaturesIn } from '../../scripts/lib/browser-support.js';
import { holdsZod, measureBundles } from '../../scripts/lib/bundle-size.js';

describe('the client in a browser bundle', () => {
  it('builds without zod installed, and holds neither zod nor the generated schemas', async () => {
    const [client] = await measureBundles(['client']);
    expect(client!.inputs).toContain('dist/src/client/client.js');
    expect(client!.inputs.some((input) => input.includes('openapi-fetch'))).toBe(true);
    expect(holdsZod(client!)).toBe(false);
  });

  it("takes the browser form of validate: true (the `browser` condition of package.json's imports): no run-time import of the schemas", async () => {
    const [client] = await measureBundles(['client']);
    expect(client!.inputs).toContain('dist/src/client/packaged-schemas.browser.js');
    expect(client!.inputs).not.toContain('dist/src/client/packaged-schemas.js');
  });

  it("names no API that a supported browser lacks (Chrome and Edge 111, Firefox 114, Safari 16.4: Vite 8's default targets)", async () => {
    const [client] = await measureBundles(['client']);
    expect(newerFeaturesIn(client!.code)).toEqual([]);
    // The check finds what it looks for: URL.canParse (Chrome 120, Safari 17) and Request.body (not in Firefox).
    expect(newerFeaturesIn('URL.canParse(a); AbortSignal.any([a]); headers.getSetCookie()')).toEqual([
      'Headers.prototype.getSetCookie',
      'URL.canParse',
      'AbortSignal.any',
    ]);
  });

  it('with validate: answerSchema, holds the schemas the app imports', async () => {
    const [validating] = await measureBundles(['validating']);
    expect(validating!.inputs).toContain('dist/generated/zod.js');
    expect(holdsZod(validating!)).toBe(true);
  });
});
