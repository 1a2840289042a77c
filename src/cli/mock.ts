// `monitoring-service-api mock`: the contract mock in this process, until a signal.
import { countRule, numberOption, parseCommand, portRule, program, type Command } from './args.js';
import { stopOnSignals } from './serve.js';
import { terminalText } from '../output/escape.js';
import { startMock, type RunningMock } from '../mock/index.js';

export const mockCommand = {
  summary: 'serve the contract mock (API root /api, identity provider at the root)',
  usage: `Usage: ${program} mock [--port 4010] [--host 127.0.0.1] [--max-body-bytes 1048576] [--log]
  --port N            port to listen on (0: a free one, printed on start). Default 4010.
  --host H            address to listen on. Default 127.0.0.1 (loopback only).
  --max-body-bytes N  largest request body accepted (413 above). Default 1048576.
  --max-connections N most connections open at once (more are closed). Default 256.
  --log               print one line per request: method, target (credential parameters redacted), status.
  -h, --help          this help.`,
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'max-body-bytes': { type: 'string' },
    'max-connections': { type: 'string' },
    log: { type: 'boolean', default: false },
  },
} satisfies Command;

export function mockBanner(mock: RunningMock): string {
  return [
    `Mock of the Monitoring Service API (Prism's engine, in this process) is listening.`,
    `  API root ({base_url}):           ${mock.baseUrl}`,
    `  Identity provider ({auth_url}):  ${mock.authUrl}`,
    `  Try: curl -H 'Authorization: Service-oauthtoken any-token' ${mock.baseUrl}/monitors`,
    `  Errors on demand: -H 'Prefer: code=404' (or code=400, 401, 403, 500; example=NAME).`,
    `  Process: pid ${process.pid}`,
    `Stop it with Ctrl-C.`,
  ].join('\n');
}

/** `mock`: serves the mock until a signal. `extraBanner` adds lines to the start-up banner (npm start: the docs). */
export async function runMock(args: string[], extraBanner = ''): Promise<void> {
  const values = parseCommand(mockCommand, args);
  if (values.help) {
    console.log(mockCommand.usage);
    return;
  }
  const port = numberOption('port', values.port, mockCommand.usage, portRule)!;
  const maxBodyBytes = numberOption('max-body-bytes', values['max-body-bytes'], mockCommand.usage, countRule);
  const maxConnections = numberOption('max-connections', values['max-connections'], mockCommand.usage, countRule);
  const mock = await startMock({
    port,
    host: String(values.host),
    maxBodyBytes,
    maxConnections,
    ...(values.log ? { onAnswer: logLine } : {}),
  });
  console.log(`${mockBanner(mock)}${extraBanner ? `\n${extraBanner}` : ''}`);
  stopOnSignals('mock', mock.stop);
}

function logLine(method: string, target: string, status: number) {
  console.log(terminalText(`${new Date().toISOString()} ${method} ${target} → ${status}`));
}
