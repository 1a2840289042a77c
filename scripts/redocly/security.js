// The security conventions that several rules and the scope-line decorator share: the header scheme every resource
// operation requires, the OAuth 2.0 scheme whose scopes it names, and the scope line of a description.

/** The header scheme that every resource operation requires, and the OAuth 2.0 scheme whose scopes it names. */
export const TOKEN_SCHEME = 'ServiceOAuthToken';
export const FLOW_SCHEME = 'ServiceOAuth2';
export const SCOPE_LINE = '**Scope:**';
export const INFERRED = "inferred from the scope table: the documents do not name this endpoint's scope";

/** The security requirements that apply to an operation: its own, or the root's. */
export function requirementsOf(operation, rootSecurity) {
  return Array.isArray(operation.security) ? operation.security : Array.isArray(rootSecurity) ? rootSecurity : [];
}
