// What lets a web page of another origin call a server we ship and read its answers (CORS), for the mock's API and
// identity provider and for the proxy: the page's origin reflected with credentials allowed, on every answer the
// server gives, its own errors included, and the preflight a browser sends before a call that needs one.
// A wildcard origin would do for calls without credentials only: a page that sends cookies (`credentials:
// 'include'`) gets "Failed to fetch" for any answer without its own origin, and can read no header but the
// safelisted ones unless each is named (`Access-Control-Expose-Headers: *` means a header named `*` to such a call).
// Which origins may call is the server's rule (src/mock/api-access.ts for the mock).
import { type Answer, type Call, type HeaderValues, headerText } from './exchange.js';

/** The headers a page reads without their being exposed (the CORS-safelisted response headers). */
const safelisted = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/** Headers that are no answer's own data for a page: CORS's own, those a browser never shows, and Vary. */
const notExposed = (name: string) => name.startsWith('access-control-') || name === 'set-cookie' || name === 'vary' || safelisted.has(name);

/** The Origin header of a call, or undefined for a program (curl, Node's fetch), which sends none. */
export const originOf = (headers: HeaderValues): string | undefined => headerText(headers.origin);

/** Whether a call is a browser's CORS preflight: OPTIONS with the method the page is about to send. */
export const isPreflight = (call: Call): boolean =>
  call.method === 'OPTIONS' && call.headers.origin !== undefined && call.headers['access-control-request-method'] !== undefined;

/** The answer's headers with one more value of Vary (an answer that depends on a request header must say so). */
function withVary(headers: Answer['headers'], ...names: string[]): Answer['headers'] {
  const key = Object.keys(headers).find((name) => name.toLowerCase() === 'vary');
  const given = key === undefined ? [] : [headers[key]!].flat().flatMap((value) => value.split(','));
  const values = [...new Set([...given.map((value) => value.trim()).filter(Boolean), ...names])];
  const { [key ?? '']: _, ...rest } = headers;
  return { ...rest, Vary: values.join(', ') };
}

/**
 * The answer as a page of `origin` may read it: its origin allowed with credentials, and each header of the answer
 * exposed by name. Without an origin (a program's call) only `Vary: Origin` is added: caches keep the answers of
 * pages and programs apart.
 */
export function withCors(answer: Answer, origin: string | undefined): Answer {
  const headers = withVary(answer.headers, 'Origin');
  if (origin === undefined) return { ...answer, headers };
  const exposed = Object.keys(answer.headers).filter((name) => !notExposed(name.toLowerCase()));
  headers['Access-Control-Allow-Origin'] = origin;
  headers['Access-Control-Allow-Credentials'] = 'true';
  if (exposed.length > 0) headers['Access-Control-Expose-Headers'] = exposed.join(', ');
  return { ...answer, headers };
}

/** How long a browser may keep a preflight's answer, in seconds (Chromium keeps it at most 2 hours). */
const preflightMaxAgeS = 600;

/**
 * The answer to a preflight from an allowed origin: the method and the headers the page asked for are allowed (the
 * call itself then gets the answer the server gives it, an error included, which the page can read).
 */
export function preflightAnswer(call: Call): Answer {
  const method = headerText(call.headers['access-control-request-method']) ?? '';
  const requested = headerText(call.headers['access-control-request-headers']);
  const headers: Answer['headers'] = {
    'Access-Control-Allow-Methods': method,
    ...(requested ? { 'Access-Control-Allow-Headers': requested } : {}),
    'Access-Control-Max-Age': String(preflightMaxAgeS),
  };
  const answer = withCors({ status: 204, headers, body: Buffer.alloc(0) }, originOf(call.headers));
  return { ...answer, headers: withVary(answer.headers, 'Access-Control-Request-Method', 'Access-Control-Request-Headers') };
}
