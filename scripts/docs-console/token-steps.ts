// A token in one step, on a page the mock serves: the steps of the guides' "Get a token", each shown as it is made.
// The developer console's two steps (register a client, generate a grant token) are the mock's test API; the
// exchange is the identity provider's own call. The tokens stay in this page's memory (the session), nowhere else.
import { testApi } from './session.js';

export interface TokenStep {
  title: string;
  /** The request, as a line: method, path and what it sends. */
  request: string;
  status?: number;
  /** The answer's body, JSON indented. */
  answer?: string;
}

/** Runs the three steps, calling back after each; resolves with the access token. Throws naming the step that failed. */
export async function getToken(origin: string, scopes: string[], shown: (steps: TokenStep[]) => void): Promise<string> {
  const steps: TokenStep[] = [];
  const step = <T>(title: string, request: string, call: () => Promise<{ status: number; value: T }>) => {
    const entry: TokenStep = { title, request };
    steps.push(entry);
    shown(steps);
    return call().then(({ status, value }) => {
      entry.status = status;
      entry.answer = JSON.stringify(value, null, 2);
      shown(steps);
      return value;
    });
  };
  const client = await step('1. Register a client (the developer console: the mock’s test API)', 'POST /__mock/clients', () =>
    testApi<{ client_id: string; client_secret: string }>(origin, 'POST', '/__mock/clients'),
  );
  const scope = scopes.join(',');
  const grant = { client_id: client.client_id, scope, validity_minutes: 10 };
  const { code } = await step(
    `2. Generate a grant token for ${scope}, valid 10 minutes (the developer console)`,
    `POST /__mock/grant-codes ${JSON.stringify(grant)}`,
    () => testApi<{ code: string }>(origin, 'POST', '/__mock/grant-codes', grant),
  );
  const form = new URLSearchParams({
    client_id: client.client_id,
    client_secret: client.client_secret,
    grant_type: 'authorization_code',
    code,
  });
  const tokens = await step(
    '3. Exchange it for an access token and a refresh token (the identity provider)',
    `POST /oauth/v2/token ${form}`,
    () => exchange(origin, form),
  );
  return tokens.access_token;
}

async function exchange(origin: string, form: URLSearchParams): Promise<{ status: number; value: { access_token: string } }> {
  const response = await fetch(`${origin}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    credentials: 'omit',
    redirect: 'error',
    cache: 'no-store',
  });
  const value = (await response.json()) as { access_token: string; message?: string };
  if (!response.ok || typeof value.access_token !== 'string')
    throw new Error(`POST /oauth/v2/token: ${response.status} ${value.message ?? JSON.stringify(value)}`);
  return { status: response.status, value };
}
