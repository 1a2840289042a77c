// The rendered docs (generated/docs/index.html): Redoc's options, the page template, the description as the page
// shows it (its servers' URLs), the one change the page needs to open without any network, the console under each
// operation (docs-console.ts) and the page's quick start (docs-loading.ts). The browser tests (test/e2e/docs.test.ts,
// test/e2e/docs-console.test.ts) check the result in Chromium, on a desktop window and on a phone's.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { OpenApiDocument, Server } from '../../src/description/openapi.js';
import { consoleDataId } from '../docs-console/data.js';
import { consoleAssets, consoleData } from './docs-console.js';
import { quickLoadingPage, scriptJson } from './docs-loading.js';
import { root } from './paths.js';
import { run } from './run.js';

/** The page around Redoc: title, description, the offline content policy and the service's colour. */
const docsTemplate = path.join(root, 'scripts', 'docs-template.hbs');

/** Redoc options, passed as `redocly build-docs --openapi <json>` (redocly.yaml has no `openapi:` section). */
const redocOptions = {
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

/** The template's places for the console: its style in the head, its data and script at the end of the body. */
const consoleMarkers = { style: '<!-- docs-console-style -->', script: '<!-- docs-console -->' } as const;

/** What the console adds to the page: its style, data and script, as inlined. */
export interface ConsoleParts {
  style: string;
  data: string;
  script: string;
}

/** The console of a description, as the page inlines it. */
export async function consoleParts(bundle: OpenApiDocument): Promise<ConsoleParts> {
  const { script, style } = await consoleAssets();
  // Inline, a script or a style ends at the first `</script` or `</style` in it, whatever the code means there.
  if (/<\/script/i.test(script) || /<\/style/i.test(style))
    throw new Error("The console's code or style holds an end tag: the page cannot inline it");
  return {
    style: `<style>${style}</style>`,
    data: `<script type="application/json" id="${consoleDataId}">${scriptJson(consoleData(bundle))}</script>`,
    script: `<script>${script}</script>`,
  };
}

/** Puts the console in the page, at the template's places; an Error when the template lost one. */
export function withConsole(html: string, parts: ConsoleParts): string {
  for (const marker of Object.values(consoleMarkers))
    if (html.split(marker).length !== 2) throw new Error(`The page must hold ${marker} once (scripts/docs-template.hbs)`);
  return html.replace(consoleMarkers.style, () => parts.style).replace(consoleMarkers.script, () => `${parts.data}\n${parts.script}`);
}

/** The page as published: Redocly's output with its remote images inlined, the console, and the quick start. */
export async function finishedPage(html: string, bundle: OpenApiDocument): Promise<string> {
  return quickLoadingPage(withConsole(withoutRemoteImages(html), await consoleParts(bundle)));
}

/**
 * The page as `redocly build-docs --inlineBundle` writes it (one self-contained page: Redoc and the description
 * inline, no network needed), rendering the description as docsDocument shapes it (the servers' URLs with their
 * hosts), in the template.
 */
export async function redocPage(bundle: OpenApiDocument): Promise<string> {
  const { title, version, summary } = bundle.info ?? {};
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'docs-'));
  try {
    const page = path.join(scratch, 'index.html');
    const described = path.join(scratch, 'openapi.json');
    await writeFile(described, JSON.stringify(docsDocument(bundle)));
    await run('redocly', [
      'build-docs',
      described,
      '-o',
      page,
      '--inlineBundle',
      '--template',
      docsTemplate,
      '--title',
      `${title} (${version})`,
      `--templateOptions.description=${summary ?? title}`,
      '--openapi',
      JSON.stringify(redocOptions),
    ]);
    return await readFile(page, 'utf8');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
