// Where a request carries credentials: the Authorization header of the API's security scheme `ServiceOAuthToken`
// (core document, section 5): `Authorization: Service-oauthtoken {access_token}`, and the identity provider's
// parameters (section 4.3). The mock's checks before the engine and the simulator's token checks read them here;
// the one redaction (src/output/redact.ts) hides them.

/** Parameters of the identity provider's endpoints that carry credentials (core document, section 4.3). */
export const secretParameters: readonly string[] = ['client_id', 'client_secret', 'code', 'refresh_token', 'token', 'access_token'];

/** Whether a parameter, attribute or cookie name (any case) is a credential's. */
export const isSecretName = (name: string): boolean => secretParameters.includes(name.toLowerCase());

/** The word `Service-oauthtoken`, spaces, a token without spaces. Anchored, no nested repetition: linear time. */
export const authorizationPattern = /^Service-oauthtoken +[^\s]+$/i;

/** The access token of an Authorization header of the scheme, or undefined when the header is not of it. */
export function accessTokenOf(header: string | undefined): string | undefined {
  if (header === undefined || !authorizationPattern.test(header)) return undefined;
  return header.slice('Service-oauthtoken'.length).trim();
}
