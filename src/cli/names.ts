// How the command line names the library's options: by its flags (`--auth-url`), and by environment variables for
// what is never a flag (secrets, which a process list would show). The library's checks word their messages with the
// options they name (src/options.ts); a command says those messages with these names, so that each error speaks the
// language of the interface the user typed.
import { codeNames, isWorded, type OptionNames, say } from '../options.js';
import { terminalText } from '../output/escape.js';
import { UsageError } from './args.js';
import { credentialVariables } from './credentials.js';

/** The library's options by the flag or environment variable of the command line that sets them. */
const flagOf: Readonly<Record<string, string>> = {
  baseUrl: '--base-url',
  authUrl: '--auth-url',
  dataCenter: '--data-center',
  insecure: '--insecure',
  port: '--port',
  host: '--host',
  upstream: '--upstream',
  timeoutMs: '--timeout-ms',
  maxBodyBytes: '--max-body-bytes',
  maxAnswerBytes: '--max-answer-bytes',
  maxConnections: '--max-connections',
  journalSize: '--journal-size',
  maxWorlds: '--max-worlds',
  maxWorldBytes: '--max-world-bytes',
  seed: '--seed',
  allow: '--allow',
  accounts: '--accounts',
  budget: '--budget',
  ratePerSecond: '--rate',
  maxWaitMs: '--max-wait-ms',
  unknownMonitorId: '--unknown-monitor-id',
  allowedOrigins: '--allow-origin',
  allowedHosts: '--allow-host',
  min: '--min',
  require: '--require',
  'auth.refreshToken': credentialVariables.refreshToken,
  'auth.clientId': credentialVariables.clientId,
  'auth.clientSecret': credentialVariables.clientSecret,
  'auth.accessToken': credentialVariables.accessToken,
};

/**
 * The command line's names, with a command's own (`{ token: 'MCP_HTTP_TOKEN' }`): a flag set to a value is the flag
 * and the value (`--port 0`), a boolean flag set is the flag alone (`--insecure`), a variable is its name. An option
 * the command line does not set keeps the library's name.
 */
export function flagNames(own: Readonly<Record<string, string>> = {}): OptionNames {
  return (mention) => {
    const flag = own[mention.option] ?? flagOf[mention.option];
    if (flag === undefined) return codeNames(mention);
    return flag.startsWith('--') && mention.value !== undefined && mention.value !== true ? `${flag} ${String(mention.value)}` : flag;
  };
}

/**
 * An error of the library as the command line says it: a wrong option (a TypeError) becomes a UsageError with the
 * usage (exit status 2), any other keeps its kind; a message that names options names them by `own` and the flags.
 */
export function commandError(error: unknown, usage: string, own: Readonly<Record<string, string>> = {}): unknown {
  if (!(error instanceof Error)) return error;
  const message = isWorded(error) ? say(error.wording, flagNames(own)) : error.message;
  if (error instanceof TypeError) return new UsageError(`${terminalText(message)}\n${usage}`);
  return message === error.message ? error : new Error(message, { cause: error });
}
