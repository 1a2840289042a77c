// Who may drive a server we ship: the checks that keep a web page (through the developer's browser) and another
// machine away from endpoints that control it or spend its credentials. One home for the mock's test API and the
// MCP server's HTTP transport. Each check is a plain scan of a header (no expression that can backtrack) and
// returns the fault as a sentence, or undefined when the request may pass.
import { timingSafeEqual } from 'node:crypto';
import { isIP, isIPv6 } from 'node:net';
import { isLoopbackName, unbracket } from '../fetch/address.js';
import { OptionError, option, type Wording, wording } from '../options.js';
import { type HeaderValues, headerText } from './exchange.js';

/** Whether listening on this address serves only this machine (a wildcard address such as 0.0.0.0 does not). */
export const listensOnLoopback = (listenHost: string): boolean => isLoopbackName(listenHost);

/** The host name of a Host header (`name`, `name:port`, `[v6]:port`), lower case, or undefined when it has none. */
export function hostHeaderName(value: string): string | undefined {
  if (value.length === 0 || value.length > 255) return undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end > 1 ? value.slice(1, end).toLowerCase() : undefined;
  }
  const colon = value.indexOf(':');
  const name = colon === -1 ? value : value.slice(0, colon);
  return name.length > 0 ? name.toLowerCase() : undefined;
}

/** Whether a name an operator allows can match a Host header's name (hostFault): a host name or address, no port. */
export function isHostName(entry: string): boolean {
  const bare = unbracket(entry);
  return bare.length > 0 && bare.length <= 255 && (isIPv6(bare) || /^[A-Za-z0-9.-]+$/.test(bare));
}

/** Whether a Host header's name is an IP address, not a name: no resolver is asked, so no DNS can rebind it. */
export const isAddressLiteral = (name: string): boolean => isIP(unbracket(name)) !== 0;

/**
 * The names an operator allows in Host headers, checked (`option: "x" is not ...` names the first wrong one): a
 * Host header is compared by its name alone (hostFault), so a name with a port or a scheme would refuse every call.
 */
export function allowedHostNames(optionName: string, names: readonly string[] = []): string[] {
  return names.map((name) => {
    if (!isHostName(name))
      throw new OptionError(wording`${option(optionName)}: ${JSON.stringify(name)} is not a host name or address (no port, no scheme)`);
    return name;
  });
}

/**
 * The origins an operator allows to call (`https://app.example.com`), checked and written as a browser sends them in
 * Origin. `null` is no origin to allow: pages of file: URLs and sandboxed frames of any site send it alike.
 */
export function allowedOriginList(optionName: string, origins: readonly string[] = []): string[] {
  return origins.map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin === 'null' || parsed.origin !== origin.toLowerCase().replace(/\/$/, ''))
      throw new OptionError(wording`${option(optionName)}: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path)`);
    return parsed.origin;
  });
}

/**
 * The fault of a Host header that names neither this machine, nor the address the server was told to listen on, nor
 * one of the names its operator allowed (the name a server reached from other machines is known by): a page that
 * rebinds its own DNS name to 127.0.0.1 still sends its own name, and is refused here.
 */
export function hostFault(headers: HeaderValues, listenHost: string, allowedNames: readonly string[] = []): string | undefined {
  const value = headerText(headers.host);
  if (value === undefined) return 'the Host header is missing';
  const name = hostHeaderName(value);
  const allowed = (candidate: string) =>
    candidate === unbracket(listenHost).toLowerCase() || allowedNames.some((entry) => unbracket(entry).toLowerCase() === candidate);
  if (name !== undefined && (isLoopbackName(name) || allowed(name))) return undefined;
  return `the Host header ${JSON.stringify(value.slice(0, 100))} names neither this machine nor the address the server listens on${allowedNames.length > 0 ? ` nor ${allowedNames.join(', ')}` : ''}`;
}

/**
 * The fault of a request sent by a web page of another origin. A request without Origin comes from a program (curl,
 * a test, Node's fetch), not a browser page, and passes; a browser always sends Origin on a cross-origin request.
 */
export function originFault(headers: HeaderValues, allowedOrigins: readonly string[]): string | undefined {
  const origin = headerText(headers.origin);
  if (origin === undefined || allowedOrigins.includes(origin.toLowerCase())) return undefined;
  return `requests from the origin ${JSON.stringify(origin.slice(0, 100))} are refused: only ${allowedOrigins.join(', ') || 'programs (no Origin)'} may call this endpoint`;
}

/** The origins of a server listening at host:port, as a browser page served by it would send them. */
export function ownOrigins(listenHost: string, port: number): string[] {
  const names = isLoopbackName(listenHost) || listenHost === '0.0.0.0' || listenHost === '::' ? ['127.0.0.1', 'localhost', '[::1]'] : [];
  const own = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
  return [...new Set([...names, own.toLowerCase()])].map((name) => `http://${name}:${port}`);
}

/**
 * What is wrong with a bearer token a server is started with (the MCP server's, the mock's test API's), or undefined:
 * 16 to 512 printable ASCII characters without spaces, so that it can be neither guessed nor broken by a header.
 */
export function bearerTokenFault(name: string, token: unknown): Wording | undefined {
  const fits =
    typeof token === 'string' && token.length >= 16 && token.length <= 512 && [...token].every((char) => char > ' ' && char <= '~');
  return fits
    ? undefined
    : wording`${option(name)} must be 16 to 512 printable ASCII characters without spaces (a long random one: openssl rand -hex 32)`;
}

/**
 * The fault of a request without `Authorization: Bearer <token>` for the token the operator gave. The comparison
 * takes the same time whatever the first differing character (timingSafeEqual), so the token cannot be guessed from
 * answer times.
 */
export function bearerFault(headers: HeaderValues, token: string): string | undefined {
  const value = headerText(headers.authorization) ?? '';
  const given = value.startsWith('Bearer ') ? Buffer.from(value.slice(7)) : Buffer.alloc(0);
  const expected = Buffer.from(token);
  if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
  return 'this endpoint needs the header Authorization: Bearer <token>, with the token the server was started with';
}
