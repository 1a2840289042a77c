// The Postman collection and environments (generated/docs/postman/): newman, Postman's runner, sends every request
// of the collection to the mock with the mock's environment, and each answers with a status its operation
// documents; the token requests keep the tokens for the requests after them.
import { readFileSync } from 'node:fs';
import newman from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputs } from '../../scripts/lib/paths.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { loadBundle, operationsOf, type Json } from '../support/bundle.js';

const files = outputs();
const collection = JSON.parse(readFileSync(files.postmanCollection, 'utf8'));
const mockEnvironment = JSON.parse(readFileSync(files.postmanEnvironment('mock'), 'utf8'));
const bundle = loadBundle();

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock?.stop());

interface Run {
  run: {
    executions: {
      item: { name: string };
      request: { url: { toString(): string }; headers: { get(name: string): string | undefined } };
      response?: { code: number };
      assertions?: { assertion: string; error?: { message: string } }[];
    }[];
    failures: { error: { message: string } }[];
  };
}

/** Runs the collection with the mock's environment (its addresses pointed at the mock of this test). */
function runAgainstMock(): Promise<Run> {
  // What a user types into the environment: the mock's addresses of this test, and credentials (the mock takes any).
  const filled: Record<string, string> = {
    api_root: mock.baseUrl,
    auth_url: mock.authUrl,
    client_id: '1000.CLIENT',
    client_secret: 'secret',
    grant_code: '1000.grant',
  };
  const environment = {
    ...mockEnvironment,
    values: mockEnvironment.values.map((value: Json) => ({ ...value, value: filled[value.key] ?? value.value })),
  };
  return new Promise((resolve, reject) => {
    newman.run({ collection, environment, reporters: [] }, (error, summary) =>
      error ? reject(error) : resolve(summary as unknown as Run),
    );
  });
}

describe('the Postman collection (v2.1)', () => {
  it('has a request for every operation, Service-oauthtoken on the resource requests, both token grants', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    const requests = collection.item.flatMap((folder: Json) => folder.item);
    for (const { operation } of operationsOf(bundle))
      expect(requests.some((item: Json) => item.name.startsWith(String(operation.summary)))).toBe(true);
    expect(collection.auth.apikey).toContainEqual({ key: 'value', value: 'Service-oauthtoken {{access_token}}', type: 'string' });
    const grants = requests
      .flatMap((item: Json) => item.request.body?.urlencoded ?? [])
      .filter((field: Json) => field.key === 'grant_type')
      .map((field: Json) => field.value);
    expect(grants).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(JSON.stringify(collection)).toContain('zaaid={{zaaid}}');
  });

  it('has an environment per data center and one for the mock', () => {
    for (const server of bundle.servers as Json[]) {
      if (!server['x-data-center']) continue;
      const environment = JSON.parse(readFileSync(files.postmanEnvironment(server['x-data-center']), 'utf8'));
      expect(environment.values.find((value: Json) => value.key === 'auth_url').value).toBe(server['x-auth-url']);
    }
    expect(mockEnvironment.values.find((value: Json) => value.key === 'api_root').value).toBe('http://127.0.0.1:4010/api');
  });

  it('newman runs it against the mock: every request answers with a documented status, tokens kept', async () => {
    const summary = await runAgainstMock();
    const executions = summary.run.executions;
    expect(executions.length).toBe(collection.item.flatMap((folder: Json) => folder.item).length);
    expect(summary.run.failures.map((failure) => failure.error.message)).toEqual([]);
    for (const execution of executions) {
      expect(execution.response?.code, execution.item.name).toBeGreaterThanOrEqual(200);
      expect(
        execution.assertions?.map((assertion) => assertion.assertion),
        execution.item.name,
      ).toEqual(['answers with a documented status']);
    }
    // After the grant exchange, resource requests carry the token the mock gave.
    const listed = executions.find((execution) => execution.item.name === 'List monitors')!;
    expect(listed.request.headers.get('Authorization')).toMatch(/^Service-oauthtoken \S+$/);
  });
});
