// The command line of monitoring-service-api: `monitoring-service-api mock` serves the contract mock and
// `monitoring-service-api proxy --upstream URL` the validating proxy, each in one process, until Ctrl-C (SIGINT),
// SIGTERM or SIGHUP (serve.ts: in the background with --detach). `monitoring-service-api verify`
// checks a running service against the contract once and exits with a status that says how it went;
// `monitoring-service-api mcp` serves the API as tools for an AI assistant; `monitoring-service-api record` writes a
// seed for the mock from a real account; `monitoring-service-api coverage` says what tests exercised of the contract.
// One file per command; this one dispatches.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Command, npmHint, program, UsageError } from './args.js';
import { coverageCommand, runCoverage } from './coverage.js';
import { mcpCommand, runMcp } from './mcp.js';
import { mockCommand, runMock } from './mock.js';
import { proxyCommand, runProxy } from './proxy.js';
import { recordCommand, runRecord } from './record.js';
import { exitAfterFailure } from './serve.js';
import { runVerify, verifyCommand } from './verify.js';

export { runCoverage } from './coverage.js';
export { credentialsFrom, credentialVariables } from './credentials.js';
export { mockBanner, runMock } from './mock.js';
export { runProxy } from './proxy.js';
export { runRecord } from './record.js';
export { runVerify } from './verify.js';

const commands: Record<string, Command> = {
  mock: mockCommand,
  proxy: proxyCommand,
  verify: verifyCommand,
  mcp: mcpCommand,
  record: recordCommand,
  coverage: coverageCommand,
};

export const usage = `Usage: ${program} <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join('\n')}

${program} <command> --help shows the options of a command; ${program} --version the version.`;

/** The version of this package, from its package.json. */
function version(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === program) return String(manifest.version);
    } catch {
      // not here: one folder up
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

/** Runs the command line; resolves once a long-running command is serving (it then runs until a signal). */
export async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    console.log(topic && commands[topic] ? commands[topic].usage : usage);
    return;
  }
  if (name === '--version' || name === '-v') {
    console.log(version());
    return;
  }
  if (name === 'mock') return runMock(args);
  if (name === 'proxy') return runProxy(args);
  if (name === 'verify') return runVerify(args);
  if (name === 'mcp') return runMcp(args);
  if (name === 'record') return runRecord(args);
  if (name === 'coverage') return runCoverage(args);
  throw new UsageError(`Unknown command ${JSON.stringify(name)}.${name.startsWith('-') ? npmHint({}) : ''}\n${usage}`);
}

/** Prints the error of a failed command and exits: 2 for a usage error, 1 otherwise. */
export function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error(message);
  exitAfterFailure(message, error instanceof UsageError ? 2 : 1);
}
