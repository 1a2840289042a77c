import { FLOW_SCHEME, requirementsOf, SCOPE_LINE, TOKEN_SCHEME } from '../security.js';

/**
 * A resource operation requires exactly one thing, the header scheme ServiceOAuthToken, and names its scope as that
 * requirement's role list: `security: [{ ServiceOAuthToken: [Service.Admin.Read] }]`. The scope is one of the
 * ServiceOAuth2 flow's scopes. `x-scope-inferred: true` marks a scope the documents do not name; the decorator
 * `service/scope-line` writes the "**Scope:**" line of the description from the requirement (saying "inferred"),
 * so the description does not write its own. Operations with `security: []` (the identity provider) are skipped.
 */
export function OperationScopeDeclared() {
  const schemes = new Map();
  const pending = [];
  let rootSecurity;
  return {
    Root: {
      enter(root) {
        rootSecurity = root.security;
      },
      leave() {
        const flow = schemes.get(FLOW_SCHEME);
        for (const { scope, location, report } of pending) {
          if (flow?.type !== 'oauth2') {
            report({
              message: `The scope ${scope} must be one of the scopes of the ${FLOW_SCHEME} flow, and there is no oauth2 scheme ${FLOW_SCHEME}.`,
              location,
            });
          } else if (!flow.scopes.includes(scope)) {
            report({ message: `${scope} is not one of the scopes of the ${FLOW_SCHEME} flow.`, location });
          }
        }
      },
    },
    SecurityScheme(scheme, { key }) {
      const scopes = scheme.type === 'oauth2' ? Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow?.scopes ?? {})) : [];
      schemes.set(String(key), { type: scheme.type, scopes });
    },
    Operation(operation, { report, location }) {
      const requirements = requirementsOf(operation, rootSecurity);
      if (requirements.length === 0) return; // the identity provider: no access token
      const where = Array.isArray(operation.security) ? location.child('security') : location.key();
      if ('x-scope-inferred' in operation && operation['x-scope-inferred'] !== true) {
        report({
          message: 'x-scope-inferred is `true` or absent (the scope is then named by the documents).',
          location: location.child('x-scope-inferred'),
        });
      }
      if (typeof operation.description === 'string' && operation.description.includes(SCOPE_LINE)) {
        report({
          message: `The description writes its own ${SCOPE_LINE} line: remove it. The decorator service/scope-line writes it from the security requirement.`,
          location: location.child('description'),
        });
      }
      if (!Array.isArray(operation.security)) {
        report({ message: `A resource operation declares its own security: [{ ${TOKEN_SCHEME}: [<scope>] }].`, location: where });
        return;
      }
      const [requirement] = requirements;
      const names = requirement && typeof requirement === 'object' ? Object.keys(requirement) : [];
      if (requirements.length !== 1 || names.length !== 1 || names[0] !== TOKEN_SCHEME) {
        report({
          message:
            `A resource operation requires ${TOKEN_SCHEME} alone, in one requirement: [{ ${TOKEN_SCHEME}: [<scope>] }], not ${JSON.stringify(requirements)}. ` +
            `(Schemes in one requirement are all required; ${FLOW_SCHEME} only documents how tokens are obtained.)`,
          location: where,
        });
        return;
      }
      const scopes = requirement[TOKEN_SCHEME];
      if (!Array.isArray(scopes) || scopes.length !== 1 || typeof scopes[0] !== 'string') {
        report({
          message: `The ${TOKEN_SCHEME} requirement names exactly one scope, not [${(scopes ?? []).join(', ')}].`,
          location: where,
        });
        return;
      }
      pending.push({ scope: scopes[0], location: location.child(['security', 0, TOKEN_SCHEME, 0]), report });
    },
  };
}
