import {
  revokeRefreshToken,
} from 'monitoring-service-api';

await revokeRefreshToken({
  authUrl: process.env.AUTH_URL!,
  refreshToken: process.env.REFRESH_TOKEN!,
});
