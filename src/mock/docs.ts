// The docs page, served by the mock's HTTP server beside the API: `GET /docs/` answers this package's page
// (`monitoring-service-api/docs`), whose console then sends to the mock that serves it, on its own origin, where the
// test API lets it get a token, list the accounts and read the journal. `/docs` moves to `/docs/` (308), as static
// servers do, so that the page's relative links (`reference.md`) reach the files beside it: `/docs/reference.md` and
// `/docs/llms.txt`. The page is the package's file as it is, byte for byte; its content policy keeps it on this
// machine. Nothing else is served, and nothing under /docs is journaled (it is no exchange of the API).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Answer, type Call, errorAnswer, quote } from '../http/exchange.js';

export const docsPath = '/docs';

/** The files under /docs/, by name: the package's export that holds each, and its media type. */
const docsFiles: Record<string, { entry: string; type: string }> = {
  '': { entry: 'monitoring-service-api/docs', type: 'text/html; charset=utf-8' },
  'index.html': { entry: 'monitoring-service-api/docs', type: 'text/html; charset=utf-8' },
  'reference.md': { entry: 'monitoring-service-api/reference.md', type: 'text/markdown; charset=utf-8' },
  'llms.txt': { entry: 'monitoring-service-api/llms.txt', type: 'text/plain; charset=utf-8' },
};

/** Whether a path is the docs' (`/docs`, `/docs/...`). */
export const isDocsPath = (path: string): boolean => path === docsPath || path.startsWith(`${docsPath}/`);

const require = createRequire(import.meta.url);
const read = new Map<string, Buffer>();

/** A file of the package, read once (the page is 1.5 MB); undefined when the package was not built. */
function packageFile(entry: string): Buffer | undefined {
  let bytes = read.get(entry);
  if (bytes) return bytes;
  try {
    bytes = readFileSync(require.resolve(entry));
  } catch {
    return undefined;
  }
  read.set(entry, bytes);
  return bytes;
}

/**
 * The headers of a served file: never cached stale (a rebuilt page shows at once), never sniffed as another type,
 * never framed by another page (the console would act for it), and no address of the page sent on.
 */
const fileHeaders = (type: string) => ({
  'Content-Type': type,
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
});

/** The answer to a request under /docs. */
export function docsAnswer(call: Pick<Call, 'method' | 'path'>): Answer {
  if (call.method !== 'GET' && call.method !== 'HEAD')
    return errorAnswer(405, `${call.method} is not supported for ${quote(call.path, 80)}: the docs answer GET and HEAD`, {
      headers: { Allow: 'GET, HEAD' },
    });
  if (call.path === docsPath)
    return { status: 308, headers: { Location: `${docsPath}/`, 'Cache-Control': 'no-cache' }, body: Buffer.alloc(0) };
  const name = call.path.slice(docsPath.length + 1);
  const file = Object.hasOwn(docsFiles, name) ? docsFiles[name] : undefined;
  if (!file)
    return errorAnswer(
      404,
      `${quote(call.path, 80)} is not a file of the docs: the page is /docs/, beside it /docs/reference.md and /docs/llms.txt`,
    );
  const bytes = packageFile(file.entry);
  if (!bytes) return errorAnswer(404, `the docs page of this package is missing (${file.entry}): build it with npm run build`);
  // For HEAD, Node sends the headers of the whole file (its length included) and leaves the body out.
  return { status: 200, headers: fileHeaders(file.type), body: bytes };
}
