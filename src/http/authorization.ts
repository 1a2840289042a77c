// The Authorization header of the API's security scheme `ServiceOAuthToken` (core document, section 5):
// `Authorization: Service-oauthtoken {access_token}`. The mock's checks before the engine and the simulator's
// token checks both read it here.

/** The word `Service-oauthtoken`, spaces, a token without spaces. Anchored, no nested repetition: linear time. */
export const authorizationPattern = /^Service-oauthtoken +[^\s]+$/i;

/** The access token of an Authorization header of the scheme, or undefined when the header is not of it. */
export function accessTokenOf(header: string | undefined): string | undefined {
  if (header === undefined || !authorizationPattern.test(header)) return undefined;
  return header.slice('Service-oauthtoken'.length).trim();
}
