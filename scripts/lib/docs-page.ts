// The rendered docs (generated/docs/index.html): Redoc's options, the page template, the description as the page
// shows it (its servers' URLs), and the one change the page needs to open without any network. The browser test
// (test/e2e/docs.test.ts) checks the result in Chromium, on a desktop window and on a phone's.
import path from 'node:path';
import type { OpenApiDocument, Server } from '../../src/description/openapi.js';
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

/** A server's URL with each variable at its default. */
function expandedUrl(server: Server): string {
  return String(server.url).replace(/\{(\w+)\}/g, (whole, name: string) => String(server.variables?.[name]?.default ?? whole));
}

/** A server as the page shows it: its URL with the variables' defaults, and no variables. */
function shownServer(server: Server): Server {
  const { variables: _variables, ...rest } = server;
  return { ...rest, url: expandedUrl(server) };
}

/**
 * The description as the page renders it. Redoc's Servers panel prints a server's URL template as it is, so the ten
 * API roots all read `https://{api_host}/api`, each behind a "Show 1 variable" button; the page has no console in which
 * a reader could set a variable. The page gets every server (the API roots and the identity providers of the token
 * paths) with its variables' defaults in the URL, which are the placeholder hosts the guides list. The description in
 * generated/ keeps the variables, for tools that let their users set them.
 */
export function docsDocument(bundle: OpenApiDocument): OpenApiDocument {
  const document = structuredClone(bundle);
  if (Array.isArray(document.servers)) document.servers = document.servers.map(shownServer);
  for (const item of Object.values(document.paths ?? {})) {
    if (Array.isArray(item.servers)) item.servers = item.servers.map(shownServer);
  }
  // The Markdown forms sit beside the page (generated/docs/): Redoc shows the root's externalDocs under the title.
  document.externalDocs = {
    url: 'reference.md',
    description: 'The whole reference as Markdown (`reference.md`), and `llms.txt` (its index for AI assistants), beside this page.',
  };
  return document;
}

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
