// A grant token's request, as the developer console takes it (core document, section 5, item 3): a registered
// client, a comma-separated list of the documented scopes, and a validity of 3 to 10 minutes. Checked before the
// identity provider records anything.
import { tokenLimits } from '../../generated/client.js';
import { refuseUnknownKeys } from '../options.js';
import type { GrantCodeRequest } from './types.js';

const grantCodeKeys = ['client_id', 'client_secret', 'role', 'scope', 'validity_minutes', 'description'];

export interface CheckedGrantCode {
  clientId: string;
  /** The role ID of the user, when the request gives one. */
  role: number | undefined;
  scopes: string[];
  validityMinutes: number;
}

/**
 * The scopes of a request: a comma-separated text or a list, trimmed, empty entries and repeats left out (a grant
 * keeps them: at most the documented scopes, whatever the length of the list).
 */
function requestedScopes(scope: unknown): string[] {
  const entries = Array.isArray(scope) ? scope : typeof scope === 'string' ? scope.split(',') : [];
  return [...new Set(entries.map((entry) => (typeof entry === 'string' ? entry.trim() : '')).filter(Boolean))];
}

/** Checks a grant-code request. Throws a TypeError or RangeError naming the fault. */
export function checkGrantCode(
  request: GrantCodeRequest,
  documented: { scopes: ReadonlySet<string>; roles: readonly number[] },
): CheckedGrantCode {
  if (typeof request !== 'object' || request === null)
    throw new TypeError('a grant-code request must be an object with client_id and scope');
  refuseUnknownKeys(request, grantCodeKeys, 'the grant-code request');
  const scopes = requestedScopes(request.scope);
  if (scopes.length === 0)
    throw new TypeError('scope must list at least one scope, comma-separated (e.g. "Service.Admin.Read,Service.Reports.Read")');
  const unknown = scopes.filter((scope) => !documented.scopes.has(scope));
  if (unknown.length > 0)
    throw new TypeError(
      `scope has ${unknown.map((scope) => JSON.stringify(scope.slice(0, 60))).join(', ')}, not a scope of the documents (Service.<Area>.<Action>: areas Account, Admin, Reports, Operations, Msp, Bu; actions Read, Create, Update, Delete, All)`,
    );
  const { minimum, maximum } = tokenLimits.grantTokenValidityMinutes;
  const validity = request.validity_minutes ?? maximum;
  if (!Number.isInteger(validity) || validity < minimum || validity > maximum)
    throw new RangeError(
      `validity_minutes must be a whole number from ${minimum} to ${maximum} (section 8), not ${JSON.stringify(validity)}`,
    );
  if (request.description !== undefined && typeof request.description !== 'string')
    throw new TypeError('description, when given, must be a string');
  if (request.role !== undefined && !documented.roles.includes(request.role))
    throw new RangeError(
      `role must be a role ID of the constants document (${documented.roles.join(', ')}; 1 Super Administrator, 10 Read Only), not ${JSON.stringify(request.role)}`,
    );
  return { clientId: String(request.client_id), role: request.role, scopes, validityMinutes: validity };
}
