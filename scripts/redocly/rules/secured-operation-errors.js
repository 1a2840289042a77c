import { requirementsOf } from '../security.js';

/** Every secured operation lists the error statuses every call can meet (401, 403, 500 by default). */
export function SecuredOperationErrors(options) {
  const statuses = (options.statuses ?? ['401', '403', '500']).map(String);
  let rootSecurity;
  return {
    Root(root) {
      rootSecurity = root.security;
    },
    Operation(operation, { report, location }) {
      if (requirementsOf(operation, rootSecurity).length === 0) return;
      const listed = Object.keys(operation.responses ?? {});
      const missing = statuses.filter((status) => !listed.includes(status));
      if (missing.length > 0) {
        report({
          message: `A secured operation lists the responses ${statuses.join(', ')}; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.`,
          location: operation.responses ? location.child('responses').key() : location.key(),
        });
      }
    },
  };
}
