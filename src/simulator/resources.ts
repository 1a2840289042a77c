// The API's answers (core document, sections 4.1 and 5): the access token (expired, deleted, revoked: 401), the
// account of the `zaaid` cookie (not one of the caller's customers or business units: 403 with the documented
// message), the documented scopes, then the account's own data: its device key, its monitors (404 with code 1002 for
// one it does not have), its groups, its customers and business units.

import {
  deref,
  isRecord,
  type JsonValue,
  listOf,
  type OpenApiDocument,
  type Operation,
  operationsById,
  perDocument,
} from '../description/openapi.js';
import { documentedCode, type RouteOperation } from '../description/routes.js';
import { accessTokenOf } from '../http/authorization.js';
import { type Answer, type Call, errorAnswer, headerText } from '../http/exchange.js';
import { type Account, type Accounts, zaaidOf } from './accounts.js';
import { type DocumentedAnswers, parseBody, withBody } from './answers.js';
import type { Behaviour } from './behaviours.js';
import type { Roles } from './roles.js';
import { managedAccountsOf } from './seed.js';
import type { Principal, TokenAuthority } from './tokens.js';
import type { AccountType } from './types.js';

/**
 * The scopes an operation documents for its token, one list per security requirement: its own requirements, else the
 * document's (OpenAPI 3.1, section 4.8.10); none for an operation marked `x-scope-inferred`.
 */
function documentedScopes(document: OpenApiDocument, operation: Operation): string[][] {
  if (operation['x-scope-inferred'] === true) return [];
  return (operation.security ?? document.security ?? []).map((requirement) =>
    listOf(Object.values(requirement).flat()).filter((scope): scope is string => typeof scope === 'string'),
  );
}

/** The scopes each operation of the document requires of its token, by operationId: one list per alternative. */
export function requiredScopes(document: OpenApiDocument): Map<string, string[][]> {
  return new Map([...operationsById(document)].map(([id, operation]) => [id, documentedScopes(document, operation)]));
}

/** Whether a token's scopes cover a required one: the scope itself, or the `All` action of its area. */
function covers(scopes: ReadonlySet<string> | 'every', required: string): boolean {
  if (scopes === 'every' || scopes.has(required)) return true;
  const area = required.slice(0, required.lastIndexOf('.'));
  return scopes.has(`${area}.All`);
}

/**
 * The scope a token lacks for an operation: none when its scopes cover one of the security requirements (each is an
 * alternative: section 4.8.30), else the first scope the first requirement lacks.
 */
export function lackingScope(scopes: ReadonlySet<string> | 'every', required: string[][]): string | undefined {
  const lacking = required.map((requirement) => requirement.find((scope) => !covers(scopes, scope)));
  return lacking.includes(undefined) ? undefined : lacking[0];
}

/** The 403 of a token without a scope the operation requires, naming those it holds. */
function scopeFault(operation: RouteOperation, scopes: Principal & { ok: true }, required: string[][] | undefined): Answer | undefined {
  const lacking = lackingScope(scopes.scopes, required ?? []);
  if (!lacking) return undefined;
  const held = scopes.scopes === 'every' ? [] : [...scopes.scopes];
  return errorAnswer(
    403,
    `the access token's scopes (${held.join(', ')}) do not include ${lacking}, which ${operation.method.toUpperCase()} ${operation.template} requires`,
    { code: 403 },
  );
}

/** The role fault of a call, as a 403 (the mock's own answer: the documents show none). */
function roleAnswer(roles: Roles, role: number, operation: RouteOperation): Answer | undefined {
  const fault = roles.fault(role, operation.method.toUpperCase(), `${operation.method.toUpperCase()} ${operation.template}`);
  return fault === undefined ? undefined : errorAnswer(403, fault, { code: 403 });
}

/**
 * The monitor types the description documents (`KnownMonitorType`, 172 of them), as `GET /monitor_type_constants`
 * answers them: `{id, name}`. The documents give no names (the mock's own choice): the name is the constants
 * document's parenthetical for the ID (`website` for URL) where it gives one, else the ID itself. A meaning that
 * several IDs share is the heading of their list (`Cloud services`, `VEEAM-type and backup-type monitors`), not a
 * parenthetical.
 */
export function monitorTypes(document: OpenApiDocument): { id: string; name: string }[] {
  const schema = deref(document, document.components?.schemas?.KnownMonitorType) ?? {};
  const meanings = listOf(schema['x-enum-descriptions']);
  const uses = new Map<unknown, number>();
  for (const meaning of meanings) uses.set(meaning, (uses.get(meaning) ?? 0) + 1);
  const isName = (meaning: unknown): meaning is string => typeof meaning === 'string' && uses.get(meaning) === 1;
  return listOf(schema.enum).flatMap((id, index) => {
    if (typeof id !== 'string') return [];
    const meaning = meanings[index];
    return [{ id, name: isName(meaning) ? meaning : id }];
  });
}

/** An answer that plays a behaviour, the behaviour noted. */
function playing(played: Behaviour[], behaviour: Behaviour, answer: Answer): Answer {
  played.push(behaviour);
  return answer;
}

/** Whether the own account, by its kind, has customers (MSP) or business units (BU portal): section 1. */
const hasManaged = (type: AccountType | undefined, kind: 'customer' | 'business_unit'): boolean =>
  managedAccountsOf(type).includes(kind === 'customer' ? 'customers' : 'business_units');

export interface Resources {
  /** The answer to a call of the API; the behaviours it plays are added to `played`. */
  answer(call: Call, operation: RouteOperation, example: Answer, played: Behaviour[]): Answer;
}

export interface ResourceParts {
  accounts: Accounts;
  tokens: TokenAuthority;
  answers: DocumentedAnswers;
  roles: Roles;
}

/** What the answers read of the description, once per document: each operation's scopes, the monitor types. */
const described = perDocument((document) => ({ scopes: requiredScopes(document), types: monitorTypes(document) }));

export function createResources(document: OpenApiDocument, { accounts, tokens, answers, roles }: ResourceParts): Resources {
  const { scopes, types } = described(document);

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

  const accountLists: ReadonlySet<string> = new Set(['listMspCustomers', 'listBusinessUnits']);

  const accountAnswer = (call: Call, operation: RouteOperation, example: Answer, account: Account, played: Behaviour[]): Answer => {
    // The lists of accounts refuse an account acted on (below): only the calls that answer act on it.
    if (account.kind !== 'own' && !accountLists.has(operation.operationId ?? ''))
      played.push(account.kind === 'customer' ? 'customer-account' : 'business-unit-account');
    switch (operation.operationId) {
      case 'getDeviceKey':
        return envelope(operation, example, { device_key: account.device_key });
      case 'listMonitors':
        return envelope(operation, example, account.monitors);
      case 'getMonitor': {
        const monitor = accounts.monitor(account, call.segments.at(-1) ?? '');
        return monitor ? envelope(operation, example, monitor) : monitorNotFound(operation);
      }
      case 'createMonitorGroup': {
        // The engine has checked the body against the description's MonitorGroupCreate: a JSON object.
        const group: JsonValue = JSON.parse(call.body.toString('utf8'));
        if (isRecord(group)) accounts.addGroup(account, group);
        return example;
      }
      case 'listMonitorTypes':
        return envelope(operation, example, types);
      case 'listMspCustomers':
      case 'listBusinessUnits': {
        // Only an MSP account lists customers, a BU portal account business units: not a normal account, not the
        // other kind, not a customer acted on with the cookie (section 5, item 9; accountLists above).
        const kind = operation.operationId === 'listMspCustomers' ? 'customer' : 'business_unit';
        if (account.kind !== 'own' || !hasManaged(account.type, kind))
          return playing(played, 'account-kind-refused', notAuthorized(operation));
        return envelope(operation, example, accounts.list(kind));
      }
      default:
        return example;
    }
  };

  return {
    answer(call, operation, example, played) {
      const principal = tokens.authenticate(accessTokenOf(headerText(call.headers.authorization)) ?? '');
      if (!principal.ok)
        return playing(played, principal.behaviour, errorAnswer(401, principal.reason, { code: documentedCode(operation, 401) }));
      const account = accounts.actingOn(zaaidOf(call.headers.cookie));
      if (!account) return playing(played, 'account-not-authorized', notAuthorized(operation));
      const roleRefusal = roleAnswer(roles, principal.role ?? accounts.own.role ?? 1, operation);
      if (roleRefusal) return playing(played, 'role-refused', roleRefusal);
      const scopeRefusal = scopeFault(operation, principal, scopes.get(operation.operationId));
      if (scopeRefusal) return playing(played, 'scope-refused', scopeRefusal);
      return accountAnswer(call, operation, example, account, played);
    },
  };
}
