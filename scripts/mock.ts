// Starts the Prism mock in the foreground until Ctrl-C.
//   tsx scripts/mock.ts [--port 4010] [--host 127.0.0.1]
import { parseArgs } from 'node:util';
import { startMock, type RunningMock } from './lib/mock-server.js';

export async function serveUntilSignal(start: () => Promise<RunningMock>, banner: (mock: RunningMock) => string) {
  const mock = await start();
  console.log(banner(mock));
  const shutdown = async () => {
    await mock.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  mock.process.once('exit', (code) => {
    console.error(`The mock stopped (exit ${code}).`);
    process.exit(1);
  });
}

export function mockBanner(mock: RunningMock): string {
  return [
    `Mock of the Monitoring Service API (Prism) is listening.`,
    `  API root ({base_url}):           ${mock.baseUrl}`,
    `  Identity provider ({auth_url}):  ${mock.authUrl}`,
    `  Try: curl -H 'Authorization: Service-oauthtoken any-token' ${mock.baseUrl}/monitors`,
    `Stop it with Ctrl-C.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '4010' }, host: { type: 'string', default: '127.0.0.1' } } });
  serveUntilSignal(() => startMock({ port: Number(values.port), host: values.host }), mockBanner).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
