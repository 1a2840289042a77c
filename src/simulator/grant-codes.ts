// A grant token's request, as the developer console takes it (core document, section 5, item 3): a registered
// client, a comma-separated list of the documented scopes, and a validity of 3 to 10 minutes. Checked before the
// identity provider records anything.
import { tokenLimits } from '../../generated/client.js';
import type { GrantCodeRequest } from './types.js';

export interface CheckedGrantCode {
  clientId: string;
  scopes: string[];
  validityMinutes: number;
}

/** The scopes of a request: a comma-separated text or a list, trimmed, empty entries left out. */
function requestedScopes(scope: unknown): string[] {
  const entries = Array.isArray(scope) ? scope : typeof scope === 'string' ? scope.split(',') : [];
  return entries.map((entry) => (typeof entry === 'string' ? entry.trim() : '')).filter(Boolean);
}

/** Checks a grant-code request. Throws a TypeError or RangeError naming the fault. */
export function checkGrantCode(request: GrantCodeRequest, documentedScopes: ReadonlySet<string>): CheckedGrantCode {
  if (typeof request !== 'object' || request === null)
    throw new TypeError('a grant-code request must be an object with client_id and scope');
  const scopes = requestedScopes(request.scope);
  if (scopes.length === 0)
    throw new TypeError('scope must list at least one scope, comma-separated (e.g. "Service.Admin.Read,Service.Reports.Read")');
  const unknown = scopes.filter((scope) => !documentedScopes.has(scope));
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
  return { clientId: String(request.client_id), scopes, validityMinutes: validity };
}
