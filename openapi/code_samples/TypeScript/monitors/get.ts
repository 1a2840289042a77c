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

// [{ monitor_id: '169863000000025001' }, ...]: the
// other fields of a monitor are not shown in the
// documents; they arrive typed as unknown.
const monitors = await client.GET('/monitors');

// The monitors of a customer of your MSP account:
// each call of `acme` carries Cookie: zaaid=700000123.
const acme = client.forAccount('700000123');
const acmeMonitors = await acme.GET('/monitors');
