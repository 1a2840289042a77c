import { INFERRED, SCOPE_LINE, TOKEN_SCHEME } from '../security.js';

/**
 * Appends "**Scope:** `<scope>`" to the description of each operation, from its ServiceOAuthToken requirement (the one
 * place that holds the fact), saying when the scope is inferred (`x-scope-inferred: true`).
 */
export function ScopeLine() {
  return {
    Operation: {
      leave(operation) {
        const requirement = Array.isArray(operation.security)
          ? operation.security.find((entry) => entry && Array.isArray(entry[TOKEN_SCHEME]))
          : undefined;
        const scope = requirement?.[TOKEN_SCHEME]?.[0];
        if (typeof scope !== 'string') return;
        const description = String(operation.description ?? '').trimEnd();
        if (description.includes(SCOPE_LINE)) return;
        const line = operation['x-scope-inferred'] === true ? `${SCOPE_LINE} \`${scope}\` (${INFERRED}).` : `${SCOPE_LINE} \`${scope}\`.`;
        operation.description = description ? `${description}\n\n${line}\n` : `${line}\n`;
      },
    },
  };
}
