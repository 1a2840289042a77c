// Credentials from the environment only, never options (a process list would show them): what verify and the MCP
// server read.
import { UsageError } from './args.js';

/** The environment variables of the credentials. */
export const credentialVariables = {
  refreshToken: 'REFRESH_TOKEN',
  clientId: 'CLIENT_ID',
  clientSecret: 'CLIENT_SECRET',
  accessToken: 'ACCESS_TOKEN',
} as const;

export type EnvironmentAuth = { refreshToken: string; clientId: string; clientSecret: string } | { accessToken: string };

/**
 * A refresh token with its client, or a ready access token, from `env`; a UsageError naming what is missing (never a
 * value) otherwise. `command` and `hint` say whose credentials they are and where its usage is.
 */
export function credentialsFrom(env: Record<string, string | undefined>, command: string, hint: string): EnvironmentAuth {
  const { refreshToken, clientId, clientSecret, accessToken } = credentialVariables;
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  if (
    value(refreshToken) !== undefined ||
    (value(accessToken) === undefined && (value(clientId) !== undefined || value(clientSecret) !== undefined))
  ) {
    const missing = [refreshToken, clientId, clientSecret].filter((name) => value(name) === undefined);
    if (missing.length > 0) {
      throw new UsageError(
        `${command} needs ${missing.join(' and ')} in the environment too (a refresh token goes with its client ID and secret).\n${hint}`,
      );
    }
    return { refreshToken: value(refreshToken)!, clientId: value(clientId)!, clientSecret: value(clientSecret)! };
  }
  if (value(accessToken) !== undefined) return { accessToken: value(accessToken)! };
  throw new UsageError(
    `${command} needs credentials from the environment: ${refreshToken}, ${clientId} and ${clientSecret} (a token is asked from --auth-url), or ${accessToken}. ` +
      `They are never options, so that no process list shows them. The mock accepts any values, e.g. ${accessToken}=any.\n${hint}`,
  );
}
