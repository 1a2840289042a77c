import {
  exchangeGrantCode,
} from 'monitoring-service-api';

// grant_type=authorization_code, with the grant token
// of the developer console (valid 3 to 10 minutes,
// used once).
const tokens = await exchangeGrantCode({
  authUrl: process.env.AUTH_URL!,
  clientId: process.env.CLIENT_ID!,
  clientSecret: process.env.CLIENT_SECRET!,
  code: process.env.GRANT_CODE!,
});
// Keep tokens.refreshToken secret. createServiceClient
// gets new access tokens from it by itself
// (grant_type=refresh_token) when they expire.
