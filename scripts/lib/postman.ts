// A Postman collection (v2.1) of the API and its environments, made from the bundle: one request per operation, in
// a folder per tag, with the documented example values; `Authorization: Service-oauthtoken {{access_token}}` on
// every resource request (the collection's auth); the token requests with the grant and the refresh form, which
// keep the tokens they get in the environment, as secrets; `{{zaaid}}` to act on a customer or business unit (the
// Cookie header of each resource request, off until the user turns it on). Each request checks that its status is
// one the operation documents. One environment per data center (the description's placeholder hosts until the user
// sets the real ones) and one for the local mock.
import { exampleOf, serializeBody } from '../../src/description/examples.js';
import {
  deref,
  isParameter,
  type JsonObject,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type Parameter,
} from '../../src/description/openapi.js';

export const collectionSchema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/**
 * An environment's variables besides the addresses: what the user sets (the credentials and the account to act on),
 * and the tokens the token requests set. Every credential and token is a secret (Postman masks it), and the tokens
 * live in the environment, never in the collection: a collection's variables travel with it when it is shared or
 * synced, and the refresh token is permanent.
 */
const environmentVariables: { key: string; type: 'default' | 'secret' }[] = [
  { key: 'client_id', type: 'default' },
  { key: 'client_secret', type: 'secret' },
  { key: 'grant_code', type: 'secret' },
  { key: 'zaaid', type: 'default' },
  { key: 'access_token', type: 'secret' },
  { key: 'refresh_token', type: 'secret' },
];

/** A path of the description in Postman's form: `/monitors/{monitor_id}` is `/monitors/:monitor_id`. */
const postmanPath = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') && segment.endsWith('}') ? `:${segment.slice(1, -1)}` : segment));

/** A test script: the status is one the operation documents. */
function statusTest(statuses: string[]): JsonObject {
  return {
    listen: 'test',
    script: {
      type: 'text/javascript',
      exec: [`pm.test('answers with a documented status', () => pm.expect(pm.response.code).to.be.oneOf([${statuses.join(', ')}]));`],
    },
  };
}

/** Keeps the tokens a token answer gives in the environment, for the requests that follow. */
const keepTokens: JsonObject = {
  listen: 'test',
  script: {
    type: 'text/javascript',
    exec: [
      'if (pm.response.code === 200) {',
      '  const body = pm.response.json();',
      "  if (body.access_token) pm.environment.set('access_token', body.access_token);",
      "  if (body.refresh_token) pm.environment.set('refresh_token', body.refresh_token);",
      '}',
    ],
  },
};

/** The form of a token request, as Postman's urlencoded body, with `{{variables}}` for the credentials. */
function tokenForm(fields: Record<string, string>): JsonObject {
  return { mode: 'urlencoded', urlencoded: Object.entries(fields).map(([key, value]) => ({ key, value, type: 'text' })) };
}

function tokenRequests(path: string, operation: Operation, statuses: string[]): JsonObject[] {
  const request = (name: string, form: Record<string, string>) => ({
    name,
    event: [statusTest(statuses), ...(path.endsWith('/revoke') ? [] : [keepTokens])],
    request: {
      auth: { type: 'noauth' },
      method: 'POST',
      header: [{ key: 'Accept', value: 'application/json' }],
      url: { raw: `{{auth_url}}${path}`, host: ['{{auth_url}}'], path: postmanPath(path) },
      body: tokenForm(form),
      description: String(operation.description ?? ''),
    },
  });
  if (path.endsWith('/revoke')) return [request(String(operation.summary), { token: '{{refresh_token}}' })];
  return [
    request(`${operation.summary}: exchange the grant token`, {
      client_id: '{{client_id}}',
      client_secret: '{{client_secret}}',
      code: '{{grant_code}}',
      grant_type: 'authorization_code',
    }),
    request(`${operation.summary}: from the refresh token`, {
      client_id: '{{client_id}}',
      client_secret: '{{client_secret}}',
      refresh_token: '{{refresh_token}}',
      grant_type: 'refresh_token',
    }),
  ];
}

function resourceRequest(
  bundle: OpenApiDocument,
  path: string,
  method: string,
  operation: Operation,
  documented: Parameter[],
  statuses: string[],
): JsonObject {
  const parameters = documented.filter(isParameter);
  const header: JsonObject[] = [{ key: 'Accept', value: 'application/json; version=2.0' }];
  if (parameters.some((parameter) => parameter.in === 'cookie' && parameter.name === 'zaaid')) {
    header.push({
      key: 'Cookie',
      value: 'zaaid={{zaaid}}',
      disabled: true,
      description: 'Turn on to act on a customer or business unit (its zaaid).',
    });
  }
  const pathVariables = parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => ({
      key: parameter.name,
      value: String(exampleOf(bundle, parameter) ?? ''),
      description: String(parameter.description ?? ''),
    }));
  const query = parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({
      key: parameter.name,
      value: String(exampleOf(bundle, parameter) ?? ''),
      disabled: parameter.required !== true,
    }));
  const body = requestBody(bundle, operation, header);
  return {
    name: String(operation.summary),
    event: [statusTest(statuses)],
    request: {
      method: method.toUpperCase(),
      header,
      url: {
        raw: `{{api_root}}/${postmanPath(path).join('/')}`,
        host: ['{{api_root}}'],
        path: postmanPath(path),
        ...(query.length > 0 ? { query } : {}),
        ...(pathVariables.length > 0 ? { variable: pathVariables } : {}),
      },
      description: String(operation.description ?? ''),
      ...(body ? { body } : {}),
    },
  };
}

/** The body of a request: the first media type's example (its Content-Type joins the headers); none without a body. */
function requestBody(bundle: OpenApiDocument, operation: Operation, header: JsonObject[]): JsonObject | undefined {
  const body = deref(bundle, operation.requestBody);
  const [mediaType, media] = Object.entries(body?.content ?? {})[0] ?? [];
  if (!mediaType || !media) return undefined;
  const example = exampleOf(bundle, media);
  header.push({ key: 'Content-Type', value: mediaType });
  return {
    mode: 'raw',
    raw: example === undefined ? '{}' : serializeBody(mediaType, example),
    options: { raw: { language: 'json' } },
  };
}

/** The collection (Postman v2.1). */
export function postmanCollection(bundle: OpenApiDocument): JsonObject {
  const folders = new Map<string, JsonObject[]>();
  // The identity provider's folder first: a run from the top gets a token before the requests that need it.
  const operations = operationsOf(bundle).sort((a, b) => Number(!a.path.startsWith('/oauth/')) - Number(!b.path.startsWith('/oauth/')));
  for (const { path, method, operation, parameters } of operations) {
    const statuses = Object.keys(operation.responses ?? {}).filter((status) => /^\d{3}$/.test(status));
    // Revoking ends the refresh token and the access tokens it gave: its folder comes last, after every call.
    const tag = path.endsWith('/revoke') ? 'End of the session' : String(operation.tags?.[0] ?? 'Other');
    const items = folders.get(tag) ?? [];
    if (path.startsWith('/oauth/')) items.push(...tokenRequests(path, operation, statuses));
    else items.push(resourceRequest(bundle, path, method, operation, parameters, statuses));
    folders.set(tag, items);
  }
  const tagDescriptions = new Map<string, string>((bundle.tags ?? []).map((tag) => [String(tag.name), String(tag.description ?? '')]));
  return {
    info: {
      name: `${bundle.info?.title} ${bundle.info?.version}`,
      description: `${bundle.info?.summary ?? ''}\n\nPick an environment (a data center, with your real hosts, or the local mock), set client_id, client_secret and grant_code, send "exchange the grant token" once (it keeps the tokens in the environment, as secrets; a refresh token you already hold goes into the environment's refresh_token), then any request. Set zaaid and turn on the Cookie header of a request to act on a customer or business unit.`,
      schema: collectionSchema,
    },
    auth: {
      type: 'apikey',
      apikey: [
        { key: 'key', value: 'Authorization', type: 'string' },
        { key: 'value', value: 'Service-oauthtoken {{access_token}}', type: 'string' },
        { key: 'in', value: 'header', type: 'string' },
      ],
    },
    item: [...folders]
      .sort(([a], [b]) => Number(a === 'End of the session') - Number(b === 'End of the session'))
      .map(([name, item]) => ({
        name,
        description: tagDescriptions.get(name) ?? (name === 'End of the session' ? 'Revoke the refresh token when you are done.' : ''),
        item,
      })),
  };
}

/** The environments: one per data center of the description, and one for the mock at `mockOrigin`. */
export function postmanEnvironments(bundle: OpenApiDocument, mockOrigin = 'http://127.0.0.1:4010'): Record<string, JsonObject> {
  const environment = (name: string, apiRoot: string, authUrl: string) => ({
    name,
    values: [
      { key: 'api_root', value: apiRoot, type: 'default', enabled: true },
      { key: 'auth_url', value: authUrl, type: 'default', enabled: true },
      ...environmentVariables.map(({ key, type }) => ({ key, value: '', type, enabled: true })),
    ],
  });
  const found: Record<string, JsonObject> = {};
  for (const server of bundle.servers ?? []) {
    const id = server['x-data-center'];
    if (typeof id !== 'string' || !id) continue;
    const url = String(server.url).replaceAll(/\{([^}]+)\}/g, (_match: string, name: string) =>
      String(server.variables?.[name]?.default ?? name),
    );
    found[id] = environment(`${String(server.description).split('.')[0]} (${id}): set your hosts`, url, String(server['x-auth-url']));
  }
  found.mock = environment('Local mock (npx monitoring-service-api mock)', `${mockOrigin}/api`, mockOrigin);
  return found;
}
