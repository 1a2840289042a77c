// `monitoring-service-api mcp`: the API as tools for an AI assistant (Model Context Protocol), over stdio, or over
// Streamable HTTP with --http. Over stdio, stdout carries the protocol only: every message of this command goes to
// stderr.

import { counted } from '../output/count.js';
import { type Command, countRule, numberOption, parseCommand, portRule, program, UsageError } from './args.js';
import { credentialsFrom, credentialVariables } from './credentials.js';
import { commandError } from './names.js';
import { detach, serve, servingOf, servingOptions, servingUsage } from './serve.js';
import { targetOf, targetOptions, targetUsage } from './target.js';

/** The MCP SDK, an optional peer dependency of the package, as the user installs it. */
export const mcpInstallCommand = 'npm install --save-exact @modelcontextprotocol/sdk@1.32.2';

/** The environment variable of the bearer token that every HTTP request must carry (never an option: ps shows those). */
export const httpTokenVariable = 'MCP_HTTP_TOKEN';

export const mcpCommand = {
  summary: 'serve the API as tools for an AI assistant (MCP, over stdio or Streamable HTTP)',
  usage: `Usage: ${program} mcp (--base-url URL [--auth-url URL] | --data-center ID ...) [--allow-writes] [--insecure]
       ${program} mcp ... --http [--port 4020] [--host 127.0.0.1] [--allow-origin ORIGIN ...] [--allow-host NAME ...]
${targetUsage(25)}
  --allow-writes         also offer the operations that create or change data (POST, PUT, DELETE). Default: read-only.
  --insecure             allow plain http to another machine (the credentials then cross the network unencrypted).
  --max-answer-bytes N   the largest answer read from the service; a larger one is a tool error. Default 262144 (256 KiB).
  --http                 serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio; every request needs
                         Authorization: Bearer <the token in ${httpTokenVariable}> (at least 16 characters).
  --port N               with --http: the port (0: a free one, printed on start). Default 4020.
  --host H               with --http: the address to listen on. Default 127.0.0.1 (this machine only).
  --allow-origin ORIGIN  with --http: a web page origin allowed to call (https://assistant.example.com); repeatable.
                         Requests without Origin (programs) and from the server's own origin pass.
  --allow-host NAME      with --http: a name the server is reached by (its public name behind a TLS proxy); repeatable.
                         Other Host headers than this machine's names and the listen address are refused.
With --http it serves until SIGINT (Ctrl-C), SIGTERM or SIGHUP, whoever started it (over stdio, until its input
closes), and takes the options of every server command:
${servingUsage('MCP server', 25)}
  -h, --help             this help.
Credentials from the environment only: ${credentialVariables.refreshToken}, ${credentialVariables.clientId} and ${credentialVariables.clientSecret}, or ${credentialVariables.accessToken}; with --http, ${httpTokenVariable} too.
Needs the MCP SDK beside this package: ${mcpInstallCommand}`,
  options: {
    ...targetOptions,
    'allow-writes': { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
    'max-answer-bytes': { type: 'string' },
    http: { type: 'boolean', default: false },
    port: { type: 'string' },
    host: { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    'allow-host': { type: 'string', multiple: true },
    ...servingOptions,
    // Taken only to say where the token goes instead: a process list shows every option.
    'http-token': { type: 'string' },
  },
} satisfies Command;

type Values = ReturnType<typeof parseCommand>;

/** The options of --http, checked: those given without it are a mistake, and the token comes from the environment. */
function httpOptionsOf(values: Values, env: Record<string, string | undefined>) {
  const given = ['port', 'host', 'allow-origin', 'allow-host', ...Object.keys(servingOptions)].filter(
    (name) => values[name] !== undefined && values[name] !== false,
  );
  if (values['http-token'] !== undefined)
    throw new UsageError(
      `--http-token is not taken: a process list would show it. Set ${httpTokenVariable} in the environment.\n${mcpCommand.usage}`,
    );
  if (!values.http) {
    if (given.length > 0) throw new UsageError(`${given.map((name) => `--${name}`).join(', ')}: options of --http.\n${mcpCommand.usage}`);
    return undefined;
  }
  const token = env[httpTokenVariable];
  if (!token)
    throw new UsageError(
      `mcp --http needs ${httpTokenVariable} in the environment: the token every request must carry (Authorization: Bearer <token>), at least 16 characters, e.g. from openssl rand -hex 32.\n${mcpCommand.usage}`,
    );
  const list = (name: string) => (values[name] as unknown as string[] | undefined) ?? [];
  return {
    token,
    port: numberOption('port', values.port, mcpCommand.usage, portRule),
    host: typeof values.host === 'string' ? values.host : undefined,
    allowedOrigins: list('allow-origin'),
    allowedHosts: list('allow-host'),
  };
}

/** The package's MCP modules, or the install command when the SDK is missing. */
async function loadMcp() {
  try {
    const [mcp, stdio] = await Promise.all([import('../mcp/index.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
    return { mcp, stdio };
  } catch (error) {
    throw new Error(
      `The mcp command needs the MCP SDK beside this package: ${mcpInstallCommand}\n(${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** An error of the library as this command says it: its options by its flags, the HTTP token by its variable. */
const asCommandError = (error: unknown) => commandError(error, mcpCommand.usage, { token: httpTokenVariable });

/** `mcp`: checks the configuration, then serves over stdio until stdin closes, or over HTTP until a signal. */
export async function runMcp(args: string[], env: Record<string, string | undefined> = process.env): Promise<void> {
  const values = parseCommand(mcpCommand, args);
  if (values.help) {
    console.log(mcpCommand.usage);
    return;
  }
  const { baseUrl, authUrl } = targetOf(values, mcpCommand.usage, mcpCommand.options);
  const http = httpOptionsOf(values, env);
  const maxAnswerBytes = numberOption('max-answer-bytes', values['max-answer-bytes'], mcpCommand.usage, countRule);
  const auth = credentialsFrom(env, 'mcp', mcpCommand.usage);
  const { mcp, stdio } = await loadMcp();
  const options = {
    baseUrl,
    authUrl,
    auth,
    maxAnswerBytes,
    allowWrites: values['allow-writes'] === true,
    insecure: values.insecure === true,
  };
  const offered = `${counted(mcp.operationTools.filter((tool) => options.allowWrites || !tool.write).length, 'operation')} of ${baseUrl}`;
  const mode = options.allowWrites ? ' (writes allowed)' : ' (read-only)';
  if (http === undefined) {
    let server: ReturnType<typeof mcp.createMcpServer>;
    try {
      server = mcp.createMcpServer(options);
    } catch (error) {
      throw asCommandError(error);
    }
    await server.connect(new stdio.StdioServerTransport());
    console.error(`${program} mcp: serving ${offered} over stdio${mode}.`);
    return;
  }
  const serving = servingOf(values, mcpCommand.usage);
  if (serving.detach) return detach('MCP server', 'mcp', args, mcpCommand.options, serving);
  let running: Awaited<ReturnType<typeof mcp.startMcpHttpServer>>;
  try {
    running = await mcp.startMcpHttpServer({ ...options, ...http });
  } catch (error) {
    throw asCommandError(error);
  }
  serve('MCP server', running, serving, {
    banner: `${program} mcp: serving ${offered} over Streamable HTTP at ${running.url}${mode}; every request needs the token of ${httpTokenVariable}.\n  Process: pid ${process.pid}`,
    warning: running.beyondLoopback
      ? `Warning: listening on ${running.host}, which other machines can reach. The token and the answers cross the network in clear: serve it behind a TLS proxy, and name its public host with --allow-host (other Host headers are refused).`
      : undefined,
  });
}
