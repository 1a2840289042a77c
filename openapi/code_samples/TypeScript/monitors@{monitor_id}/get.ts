import {
  createServiceClient,
  ServiceError,
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

const monitorId = '169863000000025001';
try {
  const monitor = await client.GET(
    '/monitors/{monitor_id}',
    { params: { path: { monitor_id: monitorId } } },
  );
  console.log(monitor.monitor_id);
} catch (error) {
  // 404 {"code": 1002,
  //      "message": "Monitor does not exist."}
  if (ServiceError.is(error) && error.code === 1002) {
    console.log(error.message);
  } else {
    throw error;
  }
}
