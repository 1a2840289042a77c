import {
  createServiceClient,
} from 'monitoring-service-api';

const client = createServiceClient({
  baseUrl: process.env.API_ROOT!,
  authUrl: process.env.AUTH_URL!,
  auth: {
    clientId: process.env.CLIENT_ID!,
    clientSecret: process.env.CLIENT_SECRET!,
    refreshToken: process.env.REFRESH_TOKEN!,
  },
});

// [{ name: 'Europe Operations', zaaid: '800000111' },
//  ...]
const units = await client.GET(
  '/short/bu/business_units',
);

// Act on one business unit: each call of `europe`
// carries Cookie: zaaid=800000111.
const europe = client.forAccount('800000111');
const europeMonitors = await europe.GET('/monitors');
