// Serves the contract mock in the foreground until Ctrl-C (SIGINT), SIGTERM or SIGHUP; then stops Prism and exits.
//   tsx scripts/mock.ts [--port 4010] [--host 127.0.0.1] [--bare] [--verbose] [--max-body-bytes N]
import { parseArgs } from 'node:util';
import { whenLauncherGone } from './lib/launcher-watch.js';
import { startMock, type MockOptions, type RunningMock } from './lib/mock-server.js';

export const mockUsage = `Usage: npm run mock -- [--port 4010] [--host 127.0.0.1] [--bare] [--verbose] [--max-body-bytes 1048576]
  --port N            port of the mock (0: a free one, printed on start). Default 4010.
  --host H            address to listen on. Default 127.0.0.1 (loopback only).
  --bare              serve bare Prism, without the front that names the fault of every bad request.
  --verbose           print Prism's own log.
  --max-body-bytes N  largest request body the front accepts (413 above). Default 1048576.`;

export interface MockCliOptions extends MockOptions {
  verbose: boolean;
}

/** Parses the mock's command line; throws with the usage on anything unknown or malformed. */
export function parseMockArgs(args: string[]): MockCliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        bare: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        'max-body-bytes': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${mockUsage}`);
  }
  if (values.help) throw Object.assign(new Error(mockUsage), { exitCode: 0 });
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) throw new Error(`--port must be a number from 0 to 65535, not "${values.port}".\n${mockUsage}`);
  const maxBody = values['max-body-bytes'];
  if (maxBody !== undefined && !/^[1-9]\d*$/.test(maxBody)) throw new Error(`--max-body-bytes must be a positive number, not "${maxBody}".\n${mockUsage}`);
  return {
    port: Number(values.port),
    host: values.host,
    front: !values.bare,
    verbose: values.verbose,
    maxBodyBytes: maxBody === undefined ? undefined : Number(maxBody),
    onOutput: values.verbose ? (text) => process.stderr.write(text) : undefined,
  };
}

/**
 * Starts the mock and keeps it until a signal: SIGINT, SIGTERM and SIGHUP stop Prism and exit 0; a second signal
 * forces it. The mock also stops when the process that started this one goes away, and exits 1 when Prism keeps dying.
 */
export async function serveUntilSignal(start: () => Promise<RunningMock>, banner: (mock: RunningMock) => string) {
  const mock = await start();
  console.log(banner(mock));
  let stopping = false;
  const shutdown = async (why: string, code = 0) => {
    if (stopping) {
      try {
        process.kill(mock.pids().prism, 'SIGKILL');
      } finally {
        process.exit(1);
      }
    }
    stopping = true;
    if (why) console.log(why);
    await mock.stop();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(`${signal}: stopping the mock.`));
  // Started by a process that has gone (npm stopped by SIGTERM kills its shell but not tsx; a closed
  // terminal): stop rather than linger.
  whenLauncherGone(() => void shutdown('The process that started the mock has gone: stopping.'));
  void mock.closed.then(({ reason }) => {
    if (stopping) return;
    console.error(`The mock stopped: ${reason}`);
    void shutdown('', 1);
  });
}

export function mockBanner(mock: RunningMock): string {
  const pids = mock.pids();
  return [
    `Mock of the Monitoring Service API (Prism${pids.front ? ' behind a validating front' : ''}) is listening.`,
    `  API root ({base_url}):           ${mock.baseUrl}`,
    `  Identity provider ({auth_url}):  ${mock.authUrl}`,
    `  Try: curl -H 'Authorization: Service-oauthtoken any-token' ${mock.baseUrl}/monitors`,
    `  Errors on demand: -H 'Prefer: code=404' (or code=400, 401, 403, 500; example=NAME), see README "Using the mock".`,
    `  Processes: mock pid ${process.pid}, Prism pid ${pids.prism}${pids.front ? ` (Prism itself answers on ${mock.prismUrl}, behind the front)` : ''}`,
    `Stop it with Ctrl-C.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let options: MockCliOptions;
  try {
    options = parseMockArgs(process.argv.slice(2));
  } catch (error) {
    const exitCode = (error as { exitCode?: number }).exitCode ?? 2;
    (exitCode === 0 ? console.log : console.error)((error as Error).message);
    process.exit(exitCode);
  }
  serveUntilSignal(() => startMock(options), mockBanner).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
