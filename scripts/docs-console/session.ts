// The console's link to the mock, shared by every console of the page: the mock's address, the access token (held
// in this page's memory only: never stored, gone with the page), and what the page may do besides the API and the
// identity provider. Only a page the mock serves on its own origin may use the mock's test API (its clients, grant
// tokens, state and journal): the mock refuses every other origin there, a file's included.
import type { JournalEntry } from '../../src/journal/types.js';
import type { MockState } from '../../src/simulator/types.js';
import type { ConsoleRequest } from './request.js';
import { mockOrigin } from './request.js';

/** The token of the lenient mock, which accepts any token unless started with --strict-tokens. */
export const anyToken = 'any-token';

/** The page's own origin when a mock on this machine serves it (`http://127.0.0.1:4010`), else undefined. */
export function servingOrigin(location: Pick<Location, 'protocol' | 'origin' | 'host'>): string | undefined {
  if (location.protocol !== 'http:') return undefined;
  const checked = mockOrigin(location.host);
  return 'origin' in checked ? checked.origin : undefined;
}

type Listener = () => void;

export interface Session {
  /** The address field's text: the page's own origin when a mock serves it, else the mock's default address. */
  address: string;
  token: string;
  /** Where the token came from: typed (or the default), or the token steps of the console. */
  tokenFrom: 'typed' | 'mock';
  /** The page's origin when a mock on this machine serves it. */
  readonly served: string | undefined;
  /** Calls back when the address or the token changes (every console shows them). */
  listen(listener: Listener): void;
  changed(): void;
}

export function createSession(served: string | undefined): Session {
  const listeners: Listener[] = [];
  return {
    address: served ?? 'http://127.0.0.1:4010',
    token: anyToken,
    tokenFrom: 'typed',
    served,
    listen: (listener) => void listeners.push(listener),
    changed: () => {
      for (const listener of listeners) listener();
    },
  };
}

/** Whether the page may use the test API of the mock at this origin: it serves the page, on its own origin. */
export const mayUseTestApi = (session: Session, origin: string) => session.served === origin;

const failure = (address: string) =>
  `No mock answers at ${address}. Start one (it prints its address): npx monitoring-service-api mock --port ${new URL(address).port || '80'} in a project that installed monitoring-service-api, or npm start in a clone of it; then send again.`;

/** A failed fetch, in words: no mock at the address (the usual reason), with how to start one. */
export class NoAnswer extends Error {
  constructor(origin: string) {
    super(failure(origin));
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Sends a request, one at a time. The account of a page on the mock's origin goes as the cookie a browser sends (a
 * script may not set Cookie): set for /api just before, removed just after. Never follows a redirect.
 */
export function send(request: ConsoleRequest, sameOrigin: boolean, origin: string): Promise<Response> {
  const run = async () => {
    let prepared: Request;
    try {
      prepared = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        credentials: sameOrigin ? 'same-origin' : 'omit',
        redirect: 'error',
        cache: 'no-store',
      });
    } catch (error) {
      throw new Error(`it cannot be sent as filled in (${(error as Error).message})`);
    }
    if (sameOrigin) setAccountCookie(request.zaaid);
    try {
      return await fetch(prepared);
    } catch {
      throw new NoAnswer(origin);
    } finally {
      if (sameOrigin) setAccountCookie(undefined);
    }
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

function setAccountCookie(zaaid: string | undefined) {
  // Not the Cookie Store API: not every browser the page reads in has it. The zaaid is a checked cookie value (buildRequest).
  // biome-ignore lint/suspicious/noDocumentCookie: see above
  document.cookie = zaaid === undefined ? 'zaaid=; path=/api; max-age=0; samesite=strict' : `zaaid=${zaaid}; path=/api; samesite=strict`;
}

/** A call of the mock's test API (same origin): its JSON answer, or an error naming the status and the mock's message. */
export async function testApi<T>(origin: string, method: string, path: string, body?: object): Promise<{ status: number; value: T }> {
  let response: Response;
  try {
    response = await fetch(`${origin}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
      credentials: 'omit',
      redirect: 'error',
      cache: 'no-store',
    });
  } catch {
    throw new NoAnswer(origin);
  }
  const text = await response.text();
  const value = text ? (JSON.parse(text) as T) : (undefined as T);
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${(value as { message?: string } | undefined)?.message ?? text}`);
  return { status: response.status, value };
}

/** The accounts the simulator's state lists, for the account picker; undefined when the test API does not answer. */
export async function mockAccounts(origin: string): Promise<Pick<MockState, 'customers' | 'business_units'> | undefined> {
  try {
    const { value } = await testApi<MockState>(origin, 'GET', '/__mock/state');
    return { customers: value.customers, business_units: value.business_units };
  } catch {
    return undefined;
  }
}

/** The id of the newest journal entry seen, so that each lookup reads the entries after it only. */
let journalCursor = 0;

/** The journal's entry of the exchange just made (the newest one with its method and path), if the journal has it. */
export async function journalEntry(origin: string, request: ConsoleRequest): Promise<JournalEntry | undefined> {
  const url = new URL(request.url);
  const filter = new URLSearchParams({ method: request.method, path: url.pathname, since: String(journalCursor) });
  try {
    const { value } = await testApi<{ requests: JournalEntry[] }>(origin, 'GET', `/__mock/requests?${filter}`);
    const entry = value.requests.at(-1);
    if (entry) journalCursor = Math.max(journalCursor, entry.id);
    return entry;
  } catch {
    return undefined;
  }
}
