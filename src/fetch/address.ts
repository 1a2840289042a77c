// The addresses that credentials go to, checked before anything is sent: which host names never leave this machine
// (plain http is safe only there), and the checks of an API root or an identity provider's address.
import { OptionError, option, wording } from '../options.js';

/** A host name without the brackets of an IPv6 literal (`[::1]` is `::1`). */
export const unbracket = (host: string): string => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

const isOctet = (part: string) =>
  part.length > 0 && part.length <= 3 && [...part].every((digit) => digit >= '0' && digit <= '9') && Number(part) <= 255;

/**
 * Host names that never leave this machine: no resolver is asked, so neither DNS nor a hosts file can send them
 * elsewhere (`localhost`, 127.0.0.0/8, `::1`). A `*.localhost` name is not one: a resolver may pass it to DNS.
 */
export function isLoopbackName(hostname: string): boolean {
  const host = unbracket(hostname).toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  const parts = host.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every(isOctet);
}

/** A URL without its trailing slashes (removed one by one: no expression that backtracks on a run of them). */
export function stripSlash(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

/** The address of the page (or worker) the code runs in, if any: a browser app's same-origin paths are relative to it. */
const pageAddress = (): string | undefined => (globalThis as { location?: { href?: unknown } }).location?.href as string | undefined;

/**
 * An address that credentials will be sent to (an API root, an identity provider), checked: an http(s) URL without
 * a user name or password in it, and https unless it is this machine or the caller opted out (`insecure`), since
 * plain http shows every token and secret to the network. In a page, a path (`/api`, served by the page's own
 * origin through a proxy) is taken relative to the page. Gives it absolute, without trailing slashes; throws an
 * OptionError naming the option `name`.
 */
export function credentialAddress(name: string, value: string, insecure = false): string {
  const page = typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? pageAddress() : undefined;
  let url: URL;
  try {
    url = new URL(value, page);
  } catch {
    const path =
      typeof value === 'string' && value.startsWith('/') ? ' (a path such as /api is taken relative to the page in a browser only)' : '';
    throw new OptionError(wording`${option(name)} must be a URL such as https://host/api, not ${JSON.stringify(value)}${path}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OptionError(wording`${option(name)} must be an http(s) URL, not ${JSON.stringify(value)}`);
  if (url.username || url.password)
    throw new OptionError(wording`${option(name)} must not carry a user name or password: credentials never travel in a URL.`);
  if (url.protocol === 'http:' && !insecure && !isLoopbackName(url.hostname)) {
    throw new OptionError(
      wording`${option(name)} ${url.origin} is plain http: tokens and secrets would cross the network unencrypted. Use https, or opt out with ${option('insecure', true)} (plain http is allowed without it only to this machine: localhost, 127.0.0.1, ::1).`,
    );
  }
  return stripSlash(page === undefined ? value : url.href);
}

/** The host name of a URL, or '' for text that is none. (URL.canParse is newer than the browsers the client supports.) */
function hostnameOf(address: string): string {
  try {
    return new URL(address).hostname;
  } catch {
    return '';
  }
}

/**
 * `<host> is a placeholder host of the description` when an address is on one of its placeholder hosts (`.invalid`,
 * which no resolver answers: the documents do not give the data centers' hosts); undefined otherwise.
 */
export function placeholderHost(address: string): string | undefined {
  const host = hostnameOf(address);
  return host.endsWith('.invalid') ? `${host} is a placeholder host of the description` : undefined;
}
