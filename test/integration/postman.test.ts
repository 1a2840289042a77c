// The Postman collection and environments (generated/docs/postman/): newman, Postman's runner, sends every request
// of the collection to the mock with the mock's environment, and each answers as its operation documents (a
// documented status, and a body valid against the schema of that status); the token requests keep the tokens for
// the requests after them.
import { readFileSync } from 'node:fs';
import newman from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputs } from '../../scripts/lib/paths.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { deref, type Json, loadBundle, operationsOf } from '../support/bundle.js';
import { schemaValidator } from '../support/validator.js';

const files = outputs();
const collection = JSON.parse(readFileSync(files.postmanCollection, 'utf8'));
const mockEnvironment = JSON.parse(readFileSync(files.postmanEnvironment('mock'), 'utf8'));
const bundle = loadBundle();
const validate = schemaValidator(bundle);

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock?.stop());

interface Run {
  /** The environment as the run left it. */
  environment: { get(key: string): unknown };
  run: {
    executions: {
      item: { name: string };
      request: { method: string; url: { toString(): string }; headers: { get(name: string): string | undefined } };
      response?: { code: number; stream?: Buffer; headers: { get(name: string): string | undefined } };
      assertions?: { assertion: string; error?: { message: string } }[];
    }[];
    failures: { error: { message: string } }[];
  };
}

/** Runs the collection with the mock's environment (its addresses pointed at the mock of this test). */
function runAgainstMock(): Promise<Run> {
  // What a user types into the environment: the mock's addresses of this test, and the credentials of a client that
  // the mock's test API registered, with a grant token for it (the simulator exchanges only those, once).
  const client = mock.control.registerClient();
  const { code } = mock.control.grantCode({ client_id: client.client_id, scope: 'Service.Admin.Read,Service.Admin.All' });
  const filled: Record<string, string> = {
    api_root: mock.baseUrl,
    auth_url: mock.authUrl,
    client_id: client.client_id,
    client_secret: client.client_secret,
    grant_code: code,
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

/** The operation of the description that a request went to (the mock serves the API under /api, tokens at the root). */
function operationOf(method: string, url: string) {
  const segments = new URL(url).pathname.replace(/^\/api(?=\/)/, '').split('/');
  return operationsOf(bundle).find((entry) => {
    const template = entry.path.split('/');
    return (
      entry.method.toUpperCase() === method &&
      template.length === segments.length &&
      template.every((segment, index) => segment.startsWith('{') || segment === segments[index])
    );
  });
}

/** What is wrong with an answer against its operation's description: its status, its media type, its body. */
function faultsOf(method: string, url: string, status: number, contentType: string, body: string): string[] {
  const entry = operationOf(method, url);
  if (!entry) return [`no operation of the description answers ${method} ${url}`];
  const response = deref(bundle, entry.operation.responses?.[String(status)]);
  if (!response) return [`${entry.operation.operationId}: status ${status} is not documented`];
  const media = Object.entries<Json>(response.content ?? {}).find(([type]) => type.startsWith('application/json'));
  if (!media) return body === '' ? [] : [`${entry.operation.operationId} ${status}: a body where none is documented`];
  if (!contentType.startsWith('application/json')) return [`${entry.operation.operationId} ${status}: Content-Type ${contentType}`];
  return validate(media[1].schema, JSON.parse(body)).map((fault) => `${entry.operation.operationId} ${status}: ${fault}`);
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
    // The tokens stay out of the collection (its variables travel with it when it is shared): no variable, no script
    // that sets one.
    expect(collection.variable).toBeUndefined();
    expect(JSON.stringify(collection)).not.toContain('collectionVariables');
    // Only the identity provider's requests go without the token; every resource request inherits it.
    const resources = requests.filter((item: Json) => !String(item.request.url.raw).startsWith('{{auth_url}}'));
    expect(resources.length).toBe(operationsOf(bundle).filter(({ path }) => !path.startsWith('/oauth/')).length);
    for (const item of requests) expect(item.request.auth === undefined, item.name).toBe(resources.includes(item));
  });

  it('has an environment per data center and one for the mock', () => {
    for (const server of bundle.servers as Json[]) {
      if (!server['x-data-center']) continue;
      const environment = JSON.parse(readFileSync(files.postmanEnvironment(server['x-data-center']), 'utf8'));
      expect(environment.values.find((value: Json) => value.key === 'auth_url').value).toBe(server['x-auth-url']);
    }
    expect(mockEnvironment.values.find((value: Json) => value.key === 'api_root').value).toBe('http://127.0.0.1:4010/api');
  });

  it('keeps the credentials and tokens in the environment, typed secret and empty', () => {
    const secrets = ['client_secret', 'grant_code', 'access_token', 'refresh_token'];
    for (const value of mockEnvironment.values as Json[])
      expect([value.key, value.type], value.key).toEqual([value.key, secrets.includes(value.key) ? 'secret' : 'default']);
    for (const key of secrets) expect(mockEnvironment.values.find((value: Json) => value.key === key)?.value).toBe('');
  });

  it('newman runs it against the mock: every request answers as its operation documents, tokens kept', async () => {
    const summary = await runAgainstMock();
    const executions = summary.run.executions;
    expect(executions.length).toBe(collection.item.flatMap((folder: Json) => folder.item).length);
    expect(summary.run.failures.map((failure) => failure.error.message)).toEqual([]);
    for (const execution of executions) {
      const { method, url, headers } = execution.request;
      const response = execution.response!;
      expect(
        faultsOf(
          method,
          url.toString(),
          response.code,
          response.headers.get('Content-Type') ?? '',
          response.stream?.toString('utf8') ?? '',
        ),
        execution.item.name,
      ).toEqual([]);
      expect(response.code, execution.item.name).toBeLessThan(300);
      expect(
        execution.assertions?.map((assertion) => assertion.assertion),
        execution.item.name,
      ).toEqual(['answers with a documented status']);
      // Every resource request carries the token the grant exchange got; the identity provider's carry none.
      const authorization = headers.get('Authorization');
      if (url.toString().startsWith(mock.baseUrl)) expect(authorization, execution.item.name).toMatch(/^Service-oauthtoken \S+$/);
      else expect(authorization, execution.item.name).toBeUndefined();
    }
    const tokens = executions.filter((execution) => execution.request.url.toString().startsWith(`${mock.authUrl}/oauth/`));
    expect(tokens.length).toBe(3);
    // The token requests kept what they got in the environment (the collection has no variable to keep it in).
    expect(summary.environment.get('access_token')).toMatch(/^\S+$/);
    expect(summary.environment.get('refresh_token')).toMatch(/^\S+$/);
  });
});
