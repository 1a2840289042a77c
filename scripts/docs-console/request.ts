// A console's request, from what the reader filled in: its address on the mock, headers and body, the zaaid of the
// account it acts on, and the same request as a curl command. Pure functions (test/unit/docs-console.test.ts).
import { isZaaid } from '../../src/client/request-values.js';
import { stripSlash } from '../../src/fetch/address.js';
import type { ConsoleOperation } from './data.js';

/**
 * The names of this machine the page may reach: its content policy allows these and nothing else (a policy cannot
 * name an IPv6 address, and the mock prints 127.0.0.1).
 */
const loopbackNames = new Set(['127.0.0.1', 'localhost']);

/**
 * The mock's origin of an address the reader typed (`127.0.0.1:4010`, `http://localhost:4010/api` as the mock prints
 * its API root), or why it is not one.
 */
export function mockOrigin(text: string): { origin: string } | { fault: string } {
  const trimmed = stripSlash(text.trim());
  const given = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return { fault: `"${text.slice(0, 80)}" is not an address: give the mock's, as it printed it (http://127.0.0.1:4010)` };
  }
  if (url.protocol !== 'http:' || !loopbackNames.has(url.hostname))
    return {
      fault: `the console sends only to a mock on this machine (http://127.0.0.1:PORT or http://localhost:PORT), not to ${url.protocol}//${url.host}`,
    };
  if (url.username || url.password) return { fault: `give the mock's address without a user or password (http://${url.host})` };
  return { origin: url.origin };
}

/** What the reader filled in for one request. */
export interface RequestInput {
  /** The mock's origin (checked by mockOrigin). */
  origin: string;
  /** The access token sent in `Authorization: Service-oauthtoken {token}` (secured operations). */
  token: string;
  /** The zaaid of the account to act on, or '' for the own account. */
  zaaid: string;
  /** Each parameter's field, by name. */
  parameters: Record<string, string>;
  /** The body's field ('' for none). */
  body: string;
}

export interface ConsoleRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
  /** The account's cookie value, which a page sends as a cookie (a script may not set the Cookie header). */
  zaaid?: string;
}

/** The mock's prefix of a server: the API root is /api, the identity provider its root. */
const serverPrefix = { api: '/api', identity: '' } as const;

/** The request of an operation for the reader's input; a fault names the field to fill in. */
export function buildRequest(operation: ConsoleOperation, input: RequestInput): ConsoleRequest | { fault: string } {
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: [string, string][] = [];
  for (const parameter of operation.parameters) {
    const value = input.parameters[parameter.name] ?? '';
    if (value === '') {
      if (parameter.required) return { fault: `fill in ${parameter.name}: the operation requires it` };
      continue;
    }
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (parameter.in === 'query') query.append(parameter.name, value);
    else headers.push([parameter.name, value]);
  }
  const zaaid = operation.account === undefined ? '' : input.zaaid;
  if (zaaid !== '' && !isZaaid(zaaid))
    return {
      fault: `${JSON.stringify(input.zaaid.slice(0, 40))} is not a zaaid: a cookie value, without spaces, quotes, commas or semicolons`,
    };
  if (operation.secured) headers.push(['Authorization', `Service-oauthtoken ${input.token}`]);
  if (operation.accept) headers.push(['Accept', operation.accept]);
  const body = operation.body && input.body.trim() !== '' ? input.body : undefined;
  if (operation.body?.required && body === undefined) return { fault: 'fill in the body: the operation requires one' };
  if (body !== undefined && operation.body) headers.push(['Content-Type', operation.body.mediaType]);
  const search = query.toString() ? `?${query}` : '';
  return {
    method: operation.method,
    url: `${input.origin}${serverPrefix[operation.server]}${path}${search}`,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(zaaid === '' ? {} : { zaaid }),
  };
}

/** A shell word in single quotes: nothing in it is expanded. */
export const shellWord = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The request as a curl command, one option a line (the account's cookie as the header curl sends). */
export function curlCommand(request: ConsoleRequest): string {
  const lines = [`curl${request.method === 'GET' ? '' : ` -X ${request.method}`} ${shellWord(request.url)}`];
  for (const [name, value] of request.headers) lines.push(`-H ${shellWord(`${name}: ${value}`)}`);
  if (request.zaaid !== undefined) lines.push(`-H ${shellWord(`Cookie: zaaid=${request.zaaid}`)}`);
  if (request.body !== undefined) lines.push(`--data-raw ${shellWord(request.body)}`);
  return lines.join(' \\\n  ');
}
