// The API's answers (core document, sections 4.1 and 5): the access token (expired, deleted, revoked: 401), the
// account of the `zaaid` cookie (not one of the caller's customers or business units: 403 with the documented
// message), the documented scopes, then the account's own data: its device key, its monitors (404 with code 1002 for
// one it does not have), its groups, its customers and business units.
import { errorAnswer, headerText, type Answer, type Call } from '../http/exchange.js';
import { accessTokenOf } from '../http/authorization.js';
import { isRecord, type Json } from '../description/openapi.js';
import type { RouteOperation } from '../description/routes.js';
import { parseBody, withBody, type DocumentedAnswers } from './answers.js';
import { zaaidOf, type Account, type Accounts } from './accounts.js';
import type { Principal, TokenAuthority } from './tokens.js';

/** The scopes an operation documents for its token (not those marked `x-scope-inferred`). */
function documentedScopes(node: Json): string[] {
  if (node['x-scope-inferred'] === true) return [];
  return (node.security ?? [])
    .flatMap((requirement: Json) => Object.values(requirement).flat())
    .filter((scope: unknown) => typeof scope === 'string');
}

/** The scopes each operation of the document requires of its token, by operationId. */
function requiredScopes(document: Json): Map<string, string[]> {
  const scopes = new Map<string, string[]>();
  for (const item of Object.values<Json>(document.paths ?? {}))
    for (const node of Object.values<Json>(item))
      if (isRecord(node) && typeof node.operationId === 'string') scopes.set(node.operationId, documentedScopes(node));
  return scopes;
}

/** Whether a token's scopes cover a required one: the scope itself, or the `All` action of its area. */
function covers(scopes: ReadonlySet<string> | 'every', required: string): boolean {
  if (scopes === 'every' || scopes.has(required)) return true;
  const area = required.slice(0, required.lastIndexOf('.'));
  return scopes.has(`${area}.All`);
}

/** The 403 of a token without a scope the operation requires, naming those it holds. */
function scopeFault(operation: RouteOperation, scopes: Principal & { ok: true }, required: string[] | undefined): Answer | undefined {
  const lacking = required?.find((scope) => !covers(scopes.scopes, scope));
  if (!lacking) return undefined;
  const held = scopes.scopes === 'every' ? [] : [...scopes.scopes];
  return errorAnswer(
    403,
    `the access token's scopes (${held.join(', ')}) do not include ${lacking}, which ${operation.method.toUpperCase()} ${operation.template} requires`,
    { code: 403 },
  );
}

export interface Resources {
  answer(call: Call, operation: RouteOperation, example: Answer): Answer;
}

export function createResources(document: Json, accounts: Accounts, tokens: TokenAuthority, answers: DocumentedAnswers): Resources {
  const scopes = requiredScopes(document);

  const notAuthorized = (operation: RouteOperation): Answer =>
    answers.named(operation, 403, 'NotAuthorizedForAccount', () =>
      withBody(errorAnswer(403, ''), { code: 403, message: 'You are not authorized to perform this operation.' }),
    );

  const monitorNotFound = (operation: RouteOperation): Answer =>
    answers.named(operation, 404, 'MonitorNotFound', () =>
      withBody(errorAnswer(404, ''), { code: 1002, message: 'Monitor does not exist.' }),
    );

  /** The account's data in the envelope of the operation's first example of the engine's status. */
  const envelope = (operation: RouteOperation, example: Answer, data: unknown): Answer => {
    const documentedBody = Object.values(operation.examples[String(example.status)] ?? {})[0];
    return withBody(example, { ...(isRecord(documentedBody) ? documentedBody : parseBody(example)), data });
  };

  const accountAnswer = (call: Call, operation: RouteOperation, example: Answer, account: Account): Answer => {
    switch (operation.operationId) {
      case 'getDeviceKey':
        return envelope(operation, example, { device_key: account.device_key });
      case 'listMonitors':
        return envelope(operation, example, account.monitors);
      case 'getMonitor': {
        const monitor = accounts.monitor(account, call.segments.at(-1) ?? '');
        return monitor ? envelope(operation, example, monitor) : monitorNotFound(operation);
      }
      case 'createMonitorGroup':
        accounts.addGroup(account, JSON.parse(call.body.toString('utf8')));
        return example;
      case 'listMspCustomers':
      case 'listBusinessUnits':
        // Only the MSP or BU portal account lists its own accounts (not a customer acted on with the cookie).
        if (account.kind !== 'own') return notAuthorized(operation);
        return envelope(operation, example, accounts.list(operation.operationId === 'listMspCustomers' ? 'customer' : 'business_unit'));
      default:
        return example;
    }
  };

  return {
    answer(call, operation, example) {
      const principal = tokens.authenticate(accessTokenOf(headerText(call.headers.authorization)) ?? '');
      const unauthorizedCode = Number((Object.values(operation.examples['401'] ?? {})[0] as Json | undefined)?.code ?? 401);
      if (!principal.ok) return errorAnswer(401, principal.reason, { code: unauthorizedCode });
      const account = accounts.actingOn(zaaidOf(call.headers.cookie));
      if (!account) return notAuthorized(operation);
      return scopeFault(operation, principal, scopes.get(operation.operationId)) ?? accountAnswer(call, operation, example, account);
    },
  };
}
