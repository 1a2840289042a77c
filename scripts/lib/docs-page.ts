// The rendered docs (generated/docs/index.html): Redoc's options, the page template, and the one change the page
// needs to open without any network. The browser test (test/docs.test.ts) checks the result in Chromium.
import path from 'node:path';
import { root } from './paths.js';

/** The page around Redoc: title, description, the offline content policy and the service's colour. */
export const docsTemplate = path.join(root, 'scripts', 'docs-template.hbs');

/** Redoc options, passed as `redocly build-docs --openapi <json>` (redocly.yaml has no `openapi:` section). */
export const redocOptions = {
  // Every named schema gets a page under this menu entry, so that every enumeration's table of values is on the page.
  schemaDefinitionsTagName: 'Schemas',
  // Only the samples written for each operation (x-codeSamples), in this order: no generated samples in other
  // languages, which would show a generic Authorization header instead of Service-oauthtoken.
  codeSamples: {
    languages: [
      { lang: 'curl', label: 'curl' },
      { lang: 'TypeScript', label: 'TypeScript' },
    ],
  },
} as const;

function svgDataUri(svg: string): string {
  return `data:image/svg+xml,${svg.replace(/%/g, '%25').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/#/g, '%23').replace(/"/g, '%22')}`;
}

const wordmark = (width: number, text: string) =>
  `<svg xmlns='http://www.w3.org/2000/svg' width='${width}' height='16' viewBox='0 0 ${width} 16'>` +
  `<text x='0' y='12.5' font-family='system-ui,Segoe UI,Roboto,Helvetica,Arial,sans-serif' font-size='12' font-weight='600' fill='#6e6f7a'>${text}</text></svg>`;

/**
 * Redoc's sidebar footer ("API docs by" and Redocly's logo) loads the logo from Redocly's CDN as soon as the page
 * opens, whatever the options: the only request the page would make. The inline bundle holds the two addresses as
 * literals; they become inline images of the word "Redocly" (the attribution stays, the request goes). When a
 * Redocly release drops these literals this is a no-op, and the browser test tells whether the page still stays
 * offline.
 */
const remoteImages: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svgDataUri(wordmark(52, 'Redocly')),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svgDataUri(wordmark(10, 'R')),
};

/** The built page with its remote images inlined. */
export function withoutRemoteImages(html: string): string {
  let page = html;
  for (const [url, inline] of Object.entries(remoteImages)) page = page.replaceAll(url, inline);
  return page;
}
