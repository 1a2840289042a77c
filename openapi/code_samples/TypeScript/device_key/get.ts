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

const { device_key } = await client.GET('/device_key');
