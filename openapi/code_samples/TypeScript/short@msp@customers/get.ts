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

// [{ name: 'Acme Retail', zaaid: '700000123' }, ...]
const customers = await client.GET(
  '/short/msp/customers',
);

// Act on one customer: each call of `acme` carries
// Cookie: zaaid=700000123.
const acme = client.forAccount('700000123');
const acmeMonitors = await acme.GET('/monitors');
