// What the role of a token's user lets it do: the mock's reading of the core document's section 5.2 (role IDs in the
// constants document), which gives each role's permissions by module but does not say which module a call belongs to:
// - No Access (0) has no access to the API, and Billing Contact (4) reaches only billing modules, none of which is
//   an operation of the description: every call is refused;
// - Read Only (10, "read-only access to the account"), Operator (3, "read-only access to most modules") and
//   SpokesPerson (5, "read access to all modules") read (GET) but do not create (POST /api/monitor_groups);
// - Super Administrator (1, "full control") and Administrator (2, "write access to most modules") read and create;
// - Hosting Provider (6) "may configure scheduled maintenance", and the documents say nothing of the rest: the mock
//   lets it read and not create.
// That only Super Admins and Admins may use POST and PUT is said of the API inspector (section 4.4), not of the API.
// The status and body of a refusal are not shown in the documents: 403 `{code: 403, message}` naming the role is
// the mock's own (the description's example RoleNotPermitted).
import { deref, isRecord, listOf, type OpenApiDocument } from '../description/openapi.js';

type Access = 'none' | 'read' | 'write';

const accessOf: Record<number, Access> = { 0: 'none', 1: 'write', 2: 'write', 3: 'read', 4: 'none', 5: 'read', 6: 'read', 10: 'read' };

export interface Roles {
  /** The documented role IDs. */
  readonly ids: readonly number[];
  /** Why a user of this role may not call this method, or undefined when it may. */
  fault(role: number, method: string, operation: string): string | undefined;
}

export function createRoles(document: OpenApiDocument): Roles {
  const schema = deref(document, document.components?.schemas?.ServiceRole) ?? {};
  // The names are the enum's values' in its order: a role's name is at its place in the enum.
  const values = listOf(schema.enum);
  const ids = values.filter((value): value is number => typeof value === 'number');
  const names = listOf(schema['x-enum-descriptions']);
  const permissionTable = schema['x-role-permissions'];
  const permissions = isRecord(permissionTable) ? permissionTable : {};
  const named = (role: number) => {
    const name = names[values.indexOf(role)];
    return `${typeof name === 'string' ? name : 'role'} (${role})`;
  };
  const writers = ids.filter((role) => accessOf[role] === 'write').map(named);
  return {
    ids,
    fault(role, method, operation) {
      const access = accessOf[role] ?? 'none';
      if (access === 'none') {
        const permission = permissions[String(role)];
        return `the user's role, ${named(role)}, gives no access to ${operation} (${typeof permission === 'string' ? permission : 'no access to the API'})`;
      }
      if (access === 'read' && method !== 'GET')
        return `the user's role, ${named(role)}, reads but does not create or change: ${operation} needs ${writers.join(' or ')}`;
      return undefined;
    },
  };
}
