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

// [{ id: 'URL', name: 'Website' }, ...]
const types = await client.GET(
  '/monitor_type_constants',
);
