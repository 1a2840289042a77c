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

// Sent as application/json;charset=UTF-8.
await client.POST('/monitor_groups', {
  body: {
    display_name: 'Payment services',
    description: 'Checkout and billing monitors',
  },
});
