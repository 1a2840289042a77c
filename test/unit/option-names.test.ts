// Each interface names its own options in its errors: the library's checks speak code (`authUrl`, `port: 0`), and the
// command line says the same messages with its flags and environment variables (`--auth-url`, `--port 0`,
// MOCK_TEST_API_TOKEN), through one wording of each message (src/options.ts, src/cli/names.ts).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.js';
import { commandError, flagNames } from '../../src/cli/names.js';
import { createServiceClient } from '../../src/client/client.js';
import { credentialAddress } from '../../src/fetch/address.js';
import { bearerTokenFault } from '../../src/http/guard.js';
import { PortInUseError } from '../../src/http/server.js';
import { startMcpHttpServer } from '../../src/mcp/index.js';
import { createMockFetch, startMock } from '../../src/mock/index.js';
import { isWorded, OptionError, option, say, wording } from '../../src/options.js';
import { startProxy } from '../../src/proxy/index.js';
import { resolveVerifyOptions } from '../../src/verify/options.js';

/** The error a call throws or rejects with. */
async function failure(call: () => unknown): Promise<Error> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it did not fail');
}

const access = { accessToken: 't' };
const refreshing = { clientId: 'c', clientSecret: 's', refreshToken: 'r' };

/** Wrong options of every library entry, each with the options its message names. */
const wrongOptions: [string, () => unknown, string[]][] = [
  ['a client without an API root', () => createServiceClient({ auth: access }), ['baseUrl', 'dataCenter']],
  [
    'a refresh token without an identity provider',
    () => createServiceClient({ baseUrl: 'http://127.0.0.1:1/api', auth: refreshing }),
    ['authUrl', 'dataCenter'],
  ],
  ['plain http to another machine', () => createServiceClient({ baseUrl: 'http://x.example/api', auth: access }), ['baseUrl', 'insecure']],
  ['an unknown data center', () => createServiceClient({ dataCenter: 'mars' as 'eu', auth: access }), ['dataCenter']],
  ['a time limit of 0', () => createServiceClient({ baseUrl: 'http://127.0.0.1:1/api', auth: access, timeoutMs: 0 }), ['timeoutMs']],
  ['verify without credentials', () => resolveVerifyOptions({ baseUrl: 'http://127.0.0.1:1/api' } as never), ['auth']],
  ['verify with a placeholder host', () => resolveVerifyOptions({ dataCenter: 'eu', auth: access }), ['baseUrl']],
  [
    'verify with a monitor id of letters',
    () => resolveVerifyOptions({ baseUrl: 'http://127.0.0.1:1/api', auth: access, unknownMonitorId: 'x' }),
    ['unknownMonitorId'],
  ],
  [
    'verify allowed a GET',
    () => resolveVerifyOptions({ baseUrl: 'http://127.0.0.1:1/api', auth: access, allow: ['getMonitor'] }),
    ['allow'],
  ],
  ['a mock on port 70000', () => startMock({ port: 70_000 }), ['port']],
  ['a mock with a short test API token', () => startMock({ testApiToken: 'short' }), ['testApiToken']],
  ['a mock fetch taking no body', () => createMockFetch({ maxBodyBytes: 0 }), ['maxBodyBytes']],
  ['a proxy to an ftp upstream', () => startProxy({ upstream: 'ftp://x' }), ['upstream']],
  [
    'an MCP server with a short token',
    () => startMcpHttpServer({ baseUrl: 'http://127.0.0.1:1/api', auth: access, token: 'short' }),
    ['token'],
  ],
  [
    'an MCP server allowing a host with a port',
    () => startMcpHttpServer({ baseUrl: 'http://127.0.0.1:1/api', auth: access, token: 'a'.repeat(16), allowedHosts: ['x:1'] }),
    ['allowedHosts'],
  ],
];

describe('the library names its options as code does', () => {
  it.each(wrongOptions)('%s: a TypeError naming %j, never a flag', async (_, call, named) => {
    const error = await failure(call);
    expect(error).toBeInstanceOf(TypeError);
    expect(isWorded(error)).toBe(true);
    const mentioned = (error as OptionError).wording.flatMap((part) => (typeof part === 'string' ? [] : [part.option]));
    expect(new Set(mentioned)).toEqual(new Set(named));
    for (const name of named) expect(error.message).toMatch(new RegExp(`\\b${name}\\b`));
    expect(error.message).not.toMatch(/--[a-z]/);
  });

  it('a busy port: the advice in code, `port: 0`', () => {
    expect(new PortInUseError(4010, '127.0.0.1').message).toBe(
      'Port 4010 on 127.0.0.1 is in use: give another port (port: 0 takes a free one).',
    );
  });
});

describe('the command line says the same messages with its flags and variables', () => {
  it('a wrong option: a UsageError with the usage, the options as flags, a setting as the flag and its value', () => {
    const error = commandError(
      failureSync(() => credentialAddress('baseUrl', 'http://x.example/api')),
      'Usage: x',
    ) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/^--base-url http:\/\/x\.example is plain http: .* opt out with --insecure \(plain http/);
    expect(error.message).toMatch(/\nUsage: x$/);
    const refresh = failureSync(() => createServiceClient({ baseUrl: 'http://127.0.0.1:1/api', auth: refreshing }));
    expect((commandError(refresh, 'U') as Error).message).toBe(
      'Renewing access tokens needs the identity provider: give --auth-url (or --data-center).\nU',
    );
  });

  it("a command's own names, and the variables of what is never a flag", () => {
    const token = new OptionError(bearerTokenFault('testApiToken', 'short')!);
    expect((commandError(token, 'U', { testApiToken: 'MOCK_TEST_API_TOKEN' }) as Error).message).toMatch(
      /^MOCK_TEST_API_TOKEN must be 16 to 512/,
    );
    const secret = failureSync(() => createServiceClient({ baseUrl: 'http://127.0.0.1:1/api', auth: { ...refreshing, clientSecret: '' } }));
    expect((commandError(secret, 'U') as Error).message).toMatch(/^CLIENT_SECRET is required with a refresh token/);
  });

  it('a busy port stays an error of its kind (exit status 1), its advice in flags', () => {
    const said = commandError(new PortInUseError(4010, '127.0.0.1'), 'U') as Error;
    expect(said).not.toBeInstanceOf(UsageError);
    expect(said.message).toBe('Port 4010 on 127.0.0.1 is in use: give another --port (--port 0 takes a free one).');
  });

  it('escapes what came from the input for a terminal; leaves other errors as they are', () => {
    const error = new OptionError(wording`${option('upstream')} must be a URL, not "\u001b[2J"`);
    expect((commandError(error, 'U') as Error).message).toBe('--upstream must be a URL, not "\\e[2J"\nU');
    const other = new RangeError('baseUrl');
    expect(commandError(other, 'U')).toBe(other);
  });

  it('an option the command line does not set keeps its name; a boolean set is the flag alone', () => {
    const names = flagNames();
    expect(say(wording`${option('renewalMarginMs')} and ${option('insecure', true)} and ${option('port', 0)}`, names)).toBe(
      'renewalMarginMs and --insecure and --port 0',
    );
  });
});

/** The error a synchronous call throws. */
function failureSync(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it did not fail');
}
