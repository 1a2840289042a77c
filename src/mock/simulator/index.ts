// The simulator: the mock's answers that depend on state. Prism's engine has already validated the call (and
// made the documented example answer); the simulator decides what the service would answer now:
// 1. a scripted or random fault of the operation, if one is due (a status, a delay, or both);
// 2. on the identity provider: grant tokens, refresh tokens and access tokens with the limits of section 8;
// 3. on the API: the access token (expired, deleted, revoked: 401), the account of the `zaaid` cookie (not one of
//    the caller's customers or business units: 403 with the documented message), the documented scopes, then the
//    account's own data: its device key, its monitors (404 with code 1002 for one it does not have), its groups.
// Each answer is a documented one: the engine's example with the account's data in `data`, or a named example of
// the description (MonitorNotFound, NotAuthorizedForAccount), in the media type the description gives.
import { setTimeout as sleep } from 'node:timers/promises';
import { corsHeaders, errorAnswer, headerText, type Answer, type Call } from '../../http/exchange.js';
import { deref, isRecord, type Json } from '../../description/openapi.js';
import type { RouteOperation } from '../../description/routes.js';
import { authorizationPattern } from '../policy.js';
import { createClock, serviceTime } from './clock.js';
import { controlAnswer, isControlPath } from './control.js';
import type { MockBehaviour, MockControl, MockState } from '../types.js';
import { createFaults, type Fault } from './faults.js';
import { checkSeed, defaultSeed, readSeedFile, type Seed } from './seed.js';
import { createAccounts, zaaidOf, type Account } from './state.js';
import { createTokenAuthority, type TokenRefusal, type TokenResult } from './tokens.js';

export { isControlPath };
export { SeedError, type Seed } from './seed.js';

/** The options of the mock that the simulator takes. */
export type SimulatorOptions = Omit<MockBehaviour, 'mode'>;

export interface Simulator {
  readonly control: MockControl;
  /** The answer of the test API (`/__mock/...`). */
  controlAnswer(call: Call): Answer;
  /**
   * The state-dependent answer to a call the contract accepts. `example` is the engine's answer from the
   * description's examples, which the simulator keeps, changes or replaces.
   */
  answer(call: Call, operation: RouteOperation, example: Answer, signal?: AbortSignal): Promise<Answer>;
}

/** The scopes an operation documents for its token (not those marked `x-scope-inferred`). */
function documentedScopes(node: Json): string[] {
  if (node['x-scope-inferred'] === true) return [];
  return (node.security ?? [])
    .flatMap((requirement: Json) => Object.values(requirement).flat())
    .filter((scope: unknown) => typeof scope === 'string');
}

/** Whether a token's scopes cover a required one: the scope itself, or the `All` action of its area. */
function covers(scopes: ReadonlySet<string> | 'every', required: string): boolean {
  if (scopes === 'every' || scopes.has(required)) return true;
  const area = required.slice(0, required.lastIndexOf('.'));
  return scopes.has(`${area}.All`);
}

/** The parameters of an identity-provider call: its form body's fields, else its query string's. */
function identityParameters(call: Call): (name: string) => string | undefined {
  const form =
    call.mediaType?.type === 'application/x-www-form-urlencoded' && call.body.length > 0
      ? new URLSearchParams(call.body.toString('utf8'))
      : undefined;
  const query = new URLSearchParams(call.url.includes('?') ? call.url.slice(call.url.indexOf('?') + 1) : '');
  return (name) => form?.get(name) ?? query.get(name) ?? undefined;
}

/** The body of the engine's answer, parsed (an answer of the identity provider, whose example depends on the grant). */
const parseBody = (answer: Answer): Json => {
  const value = answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : {};
  return isRecord(value) ? value : {};
};

const withBody = (answer: Answer, body: unknown): Answer => ({ ...answer, body: Buffer.from(JSON.stringify(body)) });

export function createSimulator(document: Json, options: SimulatorOptions = {}): Simulator {
  const seed: Seed =
    options.seed === undefined
      ? defaultSeed(document)
      : typeof options.seed === 'string'
        ? readSeedFile(document, options.seed)
        : checkSeed(document, options.seed, '(the seed option)');
  const strict = options.strictTokens === true;
  const clock = createClock(options.clock);
  const accounts = createAccounts(seed);
  const scopeSchema = deref(document, document.components?.schemas?.Scope);
  const tokens = createTokenAuthority({ clock, strict, scopes: Array.isArray(scopeSchema?.enum) ? scopeSchema.enum : [] });

  const nodes = new Map<string, Json>();
  /** The scopes each operation documents for its token. */
  const requiredScopes = new Map<string, string[]>();
  for (const item of Object.values<Json>(document.paths ?? {}))
    for (const node of Object.values<Json>(item))
      if (isRecord(node) && typeof node.operationId === 'string') {
        nodes.set(node.operationId, node);
        requiredScopes.set(node.operationId, documentedScopes(node));
      }
  const faults = createFaults({ operations: [...nodes.keys()], random: options.randomFaults });
  const apiDomain = String(
    deref(document, document.components?.examples?.AuthorizationCodeTokens)?.value?.api_domain ?? 'https://domain.placeholder.invalid',
  );

  /** A documented answer of an operation: its status's media type, a named example's value or the given body. */
  const documented = (operation: RouteOperation, status: number, example: string, fallback: () => Answer): Answer => {
    const response = deref(document, nodes.get(operation.operationId)?.responses?.[String(status)]);
    const [mediaType, media] = Object.entries<Json>(response?.content ?? {})[0] ?? [];
    const value = deref(document, media?.examples?.[example])?.value;
    if (!mediaType || value === undefined) return fallback();
    return { status, headers: { ...corsHeaders(), 'Content-Type': mediaType }, body: Buffer.from(JSON.stringify(value)) };
  };

  /** The answer of a fault with a status: the operation's documented example of that status, else `{code, message}`. */
  const faultAnswer = (operation: RouteOperation, fault: Fault & { status: number }): Answer => {
    const [name] = Object.keys(operation.examples[String(fault.status)] ?? {});
    const plain = () => errorAnswer(fault.status, '');
    const answer = name ? documented(operation, fault.status, name, plain) : plain();
    const headers: Answer['headers'] = { ...answer.headers, 'X-Mock-Fault': fault.source === 'script' ? 'scripted' : 'random' };
    if (fault.retryAfterS !== undefined) headers['Retry-After'] = String(fault.retryAfterS);
    // The violation header of errorAnswer describes a fault of the request; this one is the mock's own.
    delete headers['sl-violations'];
    return { ...answer, headers };
  };

  // The identity provider's refusals: the documents show neither their status nor their bodies (section 7). The
  // mock answers 400, the core document's status for wrong request information, with its own error shape
  // `{code, message}` and the OAuth 2.0 error code (RFC 6749, section 5.2) in `error`.
  const refusal = (refused: TokenRefusal): Answer => {
    const answer = errorAnswer(400, refused.description, {
      violations: [{ location: ['request'], severity: 'Error', code: refused.error, message: refused.description }],
      ...(refused.retryAfterS === undefined ? {} : { headers: { 'Retry-After': String(refused.retryAfterS) } }),
    });
    // The identity provider's answers are `application/json` in the description (their Content-Type is not shown).
    return {
      ...withBody(answer, { ...parseBody(answer), error: refused.error }),
      headers: { ...answer.headers, 'Content-Type': 'application/json' },
    };
  };

  const tokenAnswer = (result: TokenResult, example: Answer): Answer => {
    if (!result.ok) return refusal(result.refusal);
    const { refresh_token: _example, ...shown } = parseBody(example);
    return withBody(example, { ...shown, ...result.tokens, api_domain: apiDomain, token_type: 'Bearer' });
  };

  const missing = (name: string, grant: string): Answer =>
    refusal({ error: 'invalid_request', description: `${name} is required for ${grant} (as a form field or in the query string)` });

  const identityAnswer = (call: Call, operation: RouteOperation, example: Answer): Answer => {
    const parameter = identityParameters(call);
    if (operation.operationId === 'revokeToken') {
      const token = parameter('token');
      if (!token) return missing('token', 'the revoke endpoint');
      const refused = tokens.revoke(token);
      return refused ? refusal(refused) : example;
    }
    if (operation.operationId !== 'requestToken') return example;
    const grant = parameter('grant_type');
    const client_id = parameter('client_id');
    const client_secret = parameter('client_secret');
    if (grant !== 'authorization_code' && grant !== 'refresh_token')
      return refusal({ error: 'invalid_request', description: 'grant_type must be authorization_code or refresh_token' });
    const what = `grant_type=${grant}`;
    if (!client_id) return missing('client_id', what);
    if (!client_secret) return missing('client_secret', what);
    if (grant === 'authorization_code') {
      const code = parameter('code');
      if (!code) return missing('code', what);
      return tokenAnswer(tokens.exchange({ client_id, client_secret, code }), example);
    }
    const refresh_token = parameter('refresh_token');
    if (!refresh_token) return missing('refresh_token', what);
    return tokenAnswer(tokens.refresh({ client_id, client_secret, refresh_token }), example);
  };

  const notAuthorized = (operation: RouteOperation): Answer =>
    documented(operation, 403, 'NotAuthorizedForAccount', () =>
      withBody(errorAnswer(403, ''), { code: 403, message: 'You are not authorized to perform this operation.' }),
    );

  const resourceAnswer = (call: Call, operation: RouteOperation, example: Answer): Answer => {
    const header = headerText(call.headers.authorization) ?? '';
    const token = authorizationPattern.test(header) ? header.trim().split(/\s+/)[1]! : '';
    const principal = tokens.authenticate(token);
    const unauthorizedCode = Number((Object.values(operation.examples['401'] ?? {})[0] as Json | undefined)?.code ?? 401);
    if (!principal.ok) return errorAnswer(401, principal.reason, { code: unauthorizedCode });
    const account = accounts.actingOn(zaaidOf(call.headers.cookie));
    if (!account) return notAuthorized(operation);
    const lacking = requiredScopes.get(operation.operationId)?.find((scope) => !covers(principal.scopes, scope));
    if (lacking) {
      const held = principal.scopes === 'every' ? [] : [...principal.scopes];
      return errorAnswer(
        403,
        `the access token's scopes (${held.join(', ')}) do not include ${lacking}, which ${operation.method.toUpperCase()} ${operation.template} requires`,
        { code: 403 },
      );
    }
    return accountAnswer(call, operation, example, account);
  };

  const accountAnswer = (call: Call, operation: RouteOperation, example: Answer, account: Account): Answer => {
    // The engine's answer is the operation's first example of its status: the envelope the account's data goes in.
    const envelope = (data: unknown) => {
      const documentedBody = Object.values(operation.examples[String(example.status)] ?? {})[0];
      return withBody(example, { ...(isRecord(documentedBody) ? documentedBody : parseBody(example)), data });
    };
    switch (operation.operationId) {
      case 'getDeviceKey':
        return envelope({ device_key: account.device_key });
      case 'listMonitors':
        return envelope(account.monitors);
      case 'getMonitor': {
        const monitor = accounts.monitor(account, call.segments.at(-1) ?? '');
        if (!monitor)
          return documented(operation, 404, 'MonitorNotFound', () =>
            withBody(errorAnswer(404, ''), { code: 1002, message: 'Monitor does not exist.' }),
          );
        return envelope(monitor);
      }
      case 'createMonitorGroup':
        accounts.addGroup(account, JSON.parse(call.body.toString('utf8')));
        return example;
      case 'listMspCustomers':
      case 'listBusinessUnits':
        // Only the MSP or BU portal account lists its own accounts (not a customer acted on with the cookie).
        if (account.kind !== 'own') return notAuthorized(operation);
        return envelope(accounts.list(operation.operationId === 'listMspCustomers' ? 'customer' : 'business_unit'));
      default:
        return example;
    }
  };

  const control: MockControl = {
    registerClient: () => tokens.registerClient(),
    grantCode: (request) => tokens.grantCode(request),
    advanceClock(ms) {
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0)
        throw new RangeError(`advance_ms must be a whole number of milliseconds >= 0, not ${JSON.stringify(ms)}`);
      return { now: serviceTime(clock.advance(ms)) };
    },
    fault: (script) => faults.script(script),
    randomFaults: (settings) => faults.random(settings),
    state: (): MockState => ({
      now: serviceTime(clock.now()),
      strict_tokens: strict,
      ...accounts.snapshot(),
      tokens: tokens.counts(),
      faults: faults.pending(),
      random_faults: faults.randomSettings() ?? null,
    }),
    reset() {
      accounts.reset();
      tokens.reset();
      faults.reset();
      clock.reset();
    },
  };

  return {
    control,
    controlAnswer: (call) => controlAnswer(control, call),
    async answer(call, operation, example, signal) {
      const fault = faults.next(operation.operationId);
      if (fault && fault.delayMs > 0) await sleep(fault.delayMs, undefined, signal ? { signal } : undefined);
      if (fault?.status !== undefined) return faultAnswer(operation, fault as Fault & { status: number });
      if (operation.securityHeaders.includes('authorization')) return resourceAnswer(call, operation, example);
      return identityAnswer(call, operation, example);
    },
  };
}
