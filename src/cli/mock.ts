// `monitoring-service-api mock`: the contract mock in this process, until a signal.

import { type MockMode, type RandomFaults, type RunningMock, SeedError, startMock } from '../mock/index.js';
import { exposureWarning } from '../mock/test-api-access.js';
import { defaultWorldLimits, worldsEndpoints } from '../mock/worlds/index.js';
import { terminalText } from '../output/escape.js';
import { maxDelayMs } from '../simulator/faults.js';
import { testApiEndpoints } from '../simulator/test-api.js';
import { type Command, countRule, numberOption, parseCommand, portRule, program, UsageError } from './args.js';
import { commandError } from './names.js';
import { detach, serve, servingOf, servingOptions, servingUsage, untilSignalled } from './serve.js';

/** The environment variable of the test API's token (never an option: a process list would show it). */
export const testApiTokenVariable = 'MOCK_TEST_API_TOKEN';

export const mockCommand = {
  summary: 'serve the contract mock (API root /api, identity provider at the root)',
  usage: `Usage: ${program} mock [--port 4010] [--host 127.0.0.1] [--examples | --strict-tokens --seed FILE ...] [--log]
       ${program} mock --detach [--pid-file FILE] [--log-file FILE] [options]
  --port N              port to listen on (0: a free one, printed on start). Default 4010.
  --host H              address to listen on. Default 127.0.0.1 (loopback only). Beyond loopback (0.0.0.0) the
                        test API (/__mock) is off unless MOCK_TEST_API_TOKEN is set in the environment (16 to 512
                        characters): it then answers only calls with Authorization: Bearer <that token>.
  --allow-host NAME     a name the mock is reached by (its service name in a compose file); repeatable. Calls whose
                        Host names neither this machine, an IP address nor an allowed name are refused (421).
  --allow-origin ORIGIN a web page origin allowed to call (https://app.example.com); repeatable. Default: every
                        origin. Given, pages of other origins are refused (403): use it with a recorded real account.
  --examples            replay the description's examples (no state, no test API) instead of simulating the service.
  --strict-tokens       accept only tokens, grant tokens and client IDs the mock issued (test API under /__mock).
  --seed FILE           the starting accounts, monitors and groups: a JSON file, checked against the description.
  --fault-rate R        share of answers (0 to 1) that are random faults (--fault-statuses, default 500,503).
  --fault-statuses L    statuses of the random faults, comma-separated. Default 500,503.
  --latency-ms A-B      random latency added to every answer, from A to B ms (or one number).
  --fault-seed N        seed of the random faults and latency: the same seed gives the same sequence. Default 1.
  --max-body-bytes N    largest request body accepted (413 above). Default 1048576.
  --max-connections N   most connections open at once (more are closed). Default 256.
  --journal-size N      exchanges the request journal keeps (GET /__mock/requests). Default 1000; 0 turns it off.
  --no-coverage         count no coverage of the contract (GET /__mock/coverage; ${program} coverage reads it).
  --max-worlds N        worlds kept besides the default one (/worlds/{id}/api, each its own state; the one idle
                        longest is forgotten past it). Default ${defaultWorldLimits.worlds}.
  --max-world-bytes N   bytes those worlds hold together (past it, the ones idle longest are forgotten). Default
                        ${defaultWorldLimits.bytes}.
  --log                 print one line per request: method, target (credential parameters redacted), status.
${servingUsage('mock', 24)}
  -h, --help            this help.
${untilSignalled}
In CI, one command starts it in the background and returns once it answers (or fails, saying why); another stops it:
  ${program} mock --port 4010 --detach --pid-file mock.pid
  kill "$(cat mock.pid)"`,
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'allow-host': { type: 'string', multiple: true },
    'allow-origin': { type: 'string', multiple: true },
    'test-api-token': { type: 'string' },
    examples: { type: 'boolean', default: false },
    'strict-tokens': { type: 'boolean', default: false },
    seed: { type: 'string' },
    'fault-rate': { type: 'string' },
    'fault-statuses': { type: 'string' },
    'latency-ms': { type: 'string' },
    'fault-seed': { type: 'string' },
    'max-body-bytes': { type: 'string' },
    'max-connections': { type: 'string' },
    'journal-size': { type: 'string' },
    'no-coverage': { type: 'boolean', default: false },
    'max-worlds': { type: 'string' },
    'max-world-bytes': { type: 'string' },
    log: { type: 'boolean', default: false },
    ...servingOptions,
  },
} satisfies Command;

export function mockBanner(mock: RunningMock, mode: MockMode = 'simulator'): string {
  const lines = [
    `Mock of the Monitoring Service API (Prism's engine, in this process) is listening.`,
    `  API root ({base_url}):           ${mock.baseUrl}`,
    `  Identity provider ({auth_url}):  ${mock.authUrl}`,
    `  API docs, with a console that sends to this mock: ${mock.docsUrl}`,
    `  Try: curl -H 'Authorization: Service-oauthtoken any-token' ${mock.baseUrl}/monitors`,
  ];
  if (mode === 'simulator') {
    lines.push(
      `  It simulates the service: accounts (Cookie: zaaid=...), monitors, groups, tokens and their limits.`,
      `  Test API, at ${mock.authUrl}:`,
      ...listLines([...testApiEndpoints, ...worldsEndpoints], '    '),
      '  Worlds, each its own state, made on first use: /worlds/{id}/api ({base_url}), /worlds/{id} ({auth_url}).',
    );
    const state = mock.control.state();
    if (state.strict_tokens) lines.push('  Strict tokens: only tokens the mock issued are accepted.');
    const random = state.random_faults;
    if (random)
      lines.push(
        `  Random faults: rate ${random.rate} (${random.statuses.join(', ')}), latency ${random.latency_ms.join('-')} ms, seed ${random.seed}.`,
      );
  } else {
    lines.push(`  It replays the description's examples (--examples).`);
  }
  lines.push(`  Errors on demand: -H 'Prefer: code=404' (or code=400, 401, 403, 500; example=NAME).`, `  Process: pid ${process.pid}`);
  return lines.join('\n');
}

/** Items separated by semicolons, in lines of at most 118 characters, each after `indent`; the last ends with a period. */
function listLines(items: readonly string[], indent: string): string[] {
  const lines: string[] = [];
  for (const [index, item] of items.entries()) {
    const text = `${item}${index === items.length - 1 ? '.' : ';'}`;
    const last = lines.at(-1);
    if (last !== undefined && last.length + text.length < 118) lines[lines.length - 1] = `${last} ${text}`;
    else lines.push(`${indent}${text}`);
  }
  return lines;
}

/** The random faults of the options, if any are asked for. */
function randomFaultsOption(values: Record<string, string | boolean | undefined>): RandomFaults | undefined {
  const rate = numberOption('fault-rate', values['fault-rate'], mockCommand.usage, { whole: false, range: [0, 1] });
  const latency = values['latency-ms'];
  const statuses = values['fault-statuses'];
  const seed = numberOption('fault-seed', values['fault-seed'], mockCommand.usage, { whole: true, range: [0, 2 ** 32 - 1] });
  if (rate === undefined && latency === undefined) {
    if (statuses !== undefined || seed !== undefined)
      throw new UsageError(`--fault-statuses and --fault-seed go with --fault-rate or --latency-ms.\n${mockCommand.usage}`);
    return undefined;
  }
  const range = latency === undefined ? undefined : String(latency).split('-');
  const bounds = range?.map((part) => numberOption('latency-ms', part, mockCommand.usage, { whole: true, range: [0, maxDelayMs] })!);
  if (bounds && (bounds.length > 2 || (bounds.length === 2 && bounds[0]! > bounds[1]!)))
    throw new UsageError(`--latency-ms must be A-B with A <= B (or one number), not "${String(latency)}".\n${mockCommand.usage}`);
  return {
    seed: seed ?? 1,
    rate: rate ?? 0,
    ...(statuses === undefined
      ? {}
      : {
          statuses: String(statuses)
            .split(',')
            .map((status) => numberOption('fault-statuses', status.trim(), mockCommand.usage, { whole: true, range: [400, 599] })!),
        }),
    ...(bounds ? { latency_ms: [bounds[0]!, bounds.at(-1)!] as [number, number] } : {}),
  };
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
  const randomFaults = randomFaultsOption(values);
  const journalSize = numberOption('journal-size', values['journal-size'], mockCommand.usage, { whole: true, range: [0, 1_000_000] });
  const maxWorlds = numberOption('max-worlds', values['max-worlds'], mockCommand.usage, { whole: true, range: [1, 100_000] });
  const maxWorldBytes = numberOption('max-world-bytes', values['max-world-bytes'], mockCommand.usage, countRule);
  const simulatorOptions = ['strict-tokens', 'seed', 'journal-size', 'no-coverage', 'max-worlds', 'max-world-bytes'].filter(
    (name) => values[name] !== undefined && values[name] !== false,
  );
  if (values.examples && (simulatorOptions.length > 0 || randomFaults))
    throw new UsageError(
      `${[...simulatorOptions, ...(randomFaults ? ['fault-rate/latency-ms'] : [])].map((name) => `--${name}`).join(', ')}: options of the simulator, which --examples turns off.\n${mockCommand.usage}`,
    );
  const mode = values.examples ? 'examples' : 'simulator';
  if (values['test-api-token'] !== undefined)
    throw new UsageError(
      `--test-api-token is not taken: a process list would show it. Set ${testApiTokenVariable} in the environment.\n${mockCommand.usage}`,
    );
  const testApiToken = process.env[testApiTokenVariable] || undefined;
  if (values.examples && testApiToken !== undefined)
    throw new UsageError(`${testApiTokenVariable}: the test API is the simulator's, which --examples turns off.\n${mockCommand.usage}`);
  const serving = servingOf(values, mockCommand.usage);
  if (serving.detach) return detach('mock', 'mock', args, mockCommand.options, serving);
  let mock: RunningMock;
  try {
    mock = await startMock({
      port,
      host: String(values.host),
      allowedHosts: values['allow-host'] as string[] | undefined,
      allowedOrigins: values['allow-origin'] as string[] | undefined,
      testApiToken,
      maxBodyBytes,
      maxConnections,
      mode,
      strictTokens: values['strict-tokens'] === true,
      seed: typeof values.seed === 'string' ? values.seed : undefined,
      randomFaults,
      journalSize,
      coverage: values['no-coverage'] !== true,
      maxWorlds,
      maxWorldBytes,
      ...(values.log ? { onAnswer: logLine } : {}),
    });
  } catch (error) {
    // A wrong seed file is a fault of the command line's input: its message names the file, pointer and fault.
    if (error instanceof SeedError) throw new UsageError(error.message);
    throw commandError(error, mockCommand.usage, { testApiToken: testApiTokenVariable });
  }
  const warning = exposureWarning(mock.host, testApiToken, mode === 'simulator');
  serve('mock', mock, serving, {
    banner: `${mockBanner(mock, mode)}${extraBanner ? `\n${extraBanner}` : ''}`,
    warning: warning && terminalText(warning),
  });
}

function logLine(method: string, target: string, status: number) {
  console.log(terminalText(`${new Date().toISOString()} ${method} ${target} → ${status}`));
}
