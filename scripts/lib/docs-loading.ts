// The docs page up in a second: what `redocly build-docs --inlineBundle` writes, changed so that the browser shows
// the prerendered page before it reads Redoc (decision 0024). As built, the page holds Redoc (2.3 MB of JavaScript)
// and the description in one inline module script: the browser decodes and tokenizes all of it as HTML, compiles it on
// the page's one thread, and runs it before anything else, so the guides show late and the page answers later still.
// Here Redoc's code travels compressed (raw DEFLATE, base64) in a data block the HTML parser skips over; a small
// module script inflates it (DecompressionStream) and imports it from a blob: URL, which the browser compiles on
// another thread while the prerendered page paints; the description is a JSON block (JSON.parse reads it faster
// than a script's object literal). The compression is fflate's, pinned in package-lock.json, so that the build gives
// the same bytes on every Node.
import { deflateSync, strToU8 } from 'fflate';

/** The ids of the page's data blocks. */
export const loadingBlocks = { library: 'redoc-library', definition: 'redoc-definition', options: 'redoc-options' } as const;

const definitionStart = 'const __redoc_definition = ';
const optionsStart = 'const __redoc_options = ';
const hydrateCall = "hydrate(__redoc_definition, __redoc_options, document.getElementById('redoc'));";

/** The parts of Redoc's inline module script, as Redocly writes it; an Error names what is no longer there. */
export function redocParts(html: string): { start: number; end: number; library: string; definition: unknown; options: unknown } {
  const open = '<script type="module">';
  const start = html.indexOf(open);
  const end = start === -1 ? -1 : html.indexOf('</script>', start);
  const script = end === -1 ? '' : html.slice(start + open.length, end);
  const definitionAt = script.indexOf(definitionStart);
  const optionsAt = script.indexOf(optionsStart);
  const hydrateAt = script.indexOf(hydrateCall);
  if (definitionAt === -1 || optionsAt < definitionAt || hydrateAt < optionsAt)
    throw new Error(
      `Redoc's page has no inline module script "${definitionStart}...; ${optionsStart}...; ${hydrateCall}": scripts/lib/docs-loading.ts must follow the new layout of redocly build-docs`,
    );
  const literal = (from: number, text: string, to: number) =>
    JSON.parse(
      script
        .slice(from + text.length, to)
        .trim()
        .replace(/;$/, ''),
    ) as unknown;
  return {
    start,
    end: end + '</script>'.length,
    library: script.slice(0, definitionAt),
    definition: literal(definitionAt, definitionStart, optionsAt),
    options: literal(optionsAt, optionsStart, hydrateAt),
  };
}

/** JSON inside a script element: `<` written as `\u003c`, so that no `</script>` or `<!--` ends or changes it. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

/**
 * The loader. On any failure (a browser without DecompressionStream or module scripts from blob: URLs) the page
 * stays as prerendered, and says why in an alert.
 */
const loader = `
const block = (id) => document.getElementById(id).textContent;
try {
  const binary = atob(block('${loadingBlocks.library}'));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  const code = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const library = await new Response(code, { headers: { 'Content-Type': 'text/javascript' } }).blob();
  const { hydrate } = await import(URL.createObjectURL(library));
  hydrate(JSON.parse(block('${loadingBlocks.definition}')), JSON.parse(block('${loadingBlocks.options}')), document.getElementById('redoc'));
} catch (error) {
  const alert = document.createElement('p');
  alert.setAttribute('role', 'alert');
  alert.style.cssText = 'font-family: sans-serif; padding: 1em; margin: 0; background: #fff4e5; color: #5c3200;';
  alert.textContent = 'This browser could not start the page\\'s scripts (' + error + '): search and the menu do not work here.';
  document.body.prepend(alert);
}`;

/** The built page with Redoc's code compressed in a data block, the description a JSON block, and the loader. */
export function quickLoadingPage(html: string): string {
  const parts = redocParts(html);
  const compressed = Buffer.from(deflateSync(strToU8(parts.library), { level: 9, mem: 12 })).toString('base64');
  const blocks = [
    `<script type="text/plain" id="${loadingBlocks.library}" data-encoding="deflate-raw, base64">${compressed}</script>`,
    `<script type="application/json" id="${loadingBlocks.definition}">${scriptJson(parts.definition)}</script>`,
    `<script type="application/json" id="${loadingBlocks.options}">${scriptJson(parts.options)}</script>`,
    `<script type="module">${loader}\n</script>`,
  ];
  return html.slice(0, parts.start) + blocks.join('\n') + html.slice(parts.end);
}
