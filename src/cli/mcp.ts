// `monitoring-service-api mcp`: the API as tools for an AI assistant, over stdio (Model Context Protocol). Stdout
// carries the protocol only: every message of this command goes to stderr.
import { parseCommand, program, UsageError, type Command } from './args.js';
import { targetOf, targetOptions, targetUsage } from './target.js';
import { credentialsFrom, credentialVariables } from './credentials.js';
import { terminalText } from '../output/escape.js';

/** The MCP SDK, an optional peer dependency of the package, as the user installs it. */
export const mcpInstallCommand = 'npm install --save-exact @modelcontextprotocol/sdk@1.32.2';

export const mcpCommand = {
  summary: 'serve the API as tools for an AI assistant (MCP, over stdio)',
  usage: `Usage: ${program} mcp (--base-url URL [--auth-url URL] | --data-center ID ...) [--allow-writes] [--insecure]
${targetUsage}
  --allow-writes    also offer the operations that create or change data (POST, PUT, DELETE). Default: read-only.
  --insecure        allow plain http to another machine (the credentials then cross the network unencrypted).
  -h, --help        this help.
Credentials from the environment only: ${credentialVariables.refreshToken}, ${credentialVariables.clientId} and ${credentialVariables.clientSecret}, or ${credentialVariables.accessToken}.
Needs the MCP SDK beside this package: ${mcpInstallCommand}`,
  options: {
    ...targetOptions,
    'allow-writes': { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
  },
} satisfies Command;

/** `mcp`: checks the configuration, then serves over stdio until stdin closes. */
export async function runMcp(args: string[], env: Record<string, string | undefined> = process.env): Promise<void> {
  const values = parseCommand(mcpCommand, args);
  if (values.help) {
    console.log(mcpCommand.usage);
    return;
  }
  const { baseUrl, authUrl } = targetOf(values, mcpCommand.usage, mcpCommand.options);
  const auth = credentialsFrom(env, 'mcp', mcpCommand.usage);
  let mcp: typeof import('../mcp/index.js');
  let stdio: typeof import('@modelcontextprotocol/sdk/server/stdio.js');
  try {
    [mcp, stdio] = await Promise.all([import('../mcp/index.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
  } catch (error) {
    throw new Error(
      `The mcp command needs the MCP SDK beside this package: ${mcpInstallCommand}\n(${error instanceof Error ? error.message : String(error)})`,
    );
  }
  let server: ReturnType<typeof mcp.createMcpServer>;
  try {
    server = mcp.createMcpServer({
      baseUrl,
      authUrl,
      auth,
      allowWrites: values['allow-writes'] === true,
      insecure: values.insecure === true,
    });
  } catch (error) {
    // The client names its options (baseUrl); here they are flags.
    if (error instanceof TypeError)
      throw new UsageError(
        `${terminalText(error.message.replace(/^baseUrl\b/, '--base-url').replace(/^authUrl\b/, '--auth-url'))}\n${mcpCommand.usage}`,
      );
    throw error;
  }
  await server.connect(new stdio.StdioServerTransport());
  console.error(
    `${program} mcp: serving ${mcp.operationTools.filter((tool) => values['allow-writes'] || !tool.write).length} operations of ${baseUrl} over stdio${values['allow-writes'] ? ' (writes allowed)' : ' (read-only)'}.`,
  );
}
