// Reading a command line: options with a usage text, a clear error for anything unknown or malformed, and a hint
// when npm took the options for itself (`npm run x --port 1` instead of `npm run x -- --port 1`).
import { pathToFileURL } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** A command line error: printed with the usage, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * When npm runs a script it keeps the options written before `--` (`npm run mock --port 4103` passes only `4103`
 * on and sets npm_config_port): a hint that says how to pass them through, or '' outside npm.
 */
export function npmHint(options: OptionSpec): string {
  const script = process.env.npm_lifecycle_event;
  if (!script || script === 'npx') return '';
  const taken = Object.keys(options).filter((name) => process.env[`npm_config_${name.replace(/-/g, '_')}`] !== undefined);
  const example = taken.length > 0 ? taken.map((name) => `--${name} ...`).join(' ') : '--help';
  const which = taken.length > 0 ? ` (npm took ${taken.map((name) => `--${name}`).join(', ')} as its own)` : '';
  return `\nnpm passes options on only after "--": npm run ${script} -- ${example}${which}`;
}

/**
 * Parses `args` against `options` (no positional arguments). `--help`/`-h` gives `{ help: true }` whatever else is
 * there; anything unknown or malformed throws a UsageError with the usage.
 */
export function parseOptions(usage: string, options: OptionSpec, args: string[]): Record<string, string | boolean | undefined> {
  return parseLine(usage, options, args, false).values;
}

/** Parses a command line's options and the files it names besides them (`coverage a.json b.json`). */
function parseLine(usage: string, options: OptionSpec, args: string[], files: boolean) {
  const spec: OptionSpec = { ...options, help: { type: 'boolean', short: 'h', default: false } };
  if (args.includes('--help') || args.includes('-h')) return { values: { help: true }, files: [] };
  try {
    const parsed = parseArgs({ args, options: spec, strict: true, allowPositionals: true });
    if (!files && parsed.positionals.length > 0) throw new Error(`Unexpected argument ${JSON.stringify(parsed.positionals[0])}.`);
    return { values: parsed.values as Record<string, string | boolean | undefined>, files: parsed.positionals };
  } catch (error) {
    // Node's message for an unknown option goes on about positional arguments, which only names of files are here.
    const message = (error as Error).message.replace(/ To specify a positional argument .*$/s, '');
    throw new UsageError(`${message}${npmHint(options)}\n${usage}`);
  }
}

/** A script of the repository as its command line sees it: its usage and its options. */
export interface ScriptLine {
  usage: string;
  options: OptionSpec;
}

/**
 * Runs a script's main function when its module is the process's entry (importing it runs nothing): its usage on
 * --help, exit status 2 on a usage error, 1 on any other error.
 */
export function runScript(
  line: ScriptLine,
  moduleUrl: string,
  main: (values: Record<string, string | boolean | undefined>) => Promise<unknown>,
): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  (async () => {
    const values = parseOptions(line.usage, line.options, process.argv.slice(2));
    if (values.help) console.log(line.usage);
    else await main(values);
  })().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}

/** The name of the command line, as users type it. */
export const program = 'monitoring-service-api';

/** A command of the command line: its line in the overview, its usage, its options. */
export interface Command {
  summary: string;
  usage: string;
  options: OptionSpec;
}

/** Parses a command's options; throws a UsageError naming the fault, with the usage (and the npm hint). */
export const parseCommand = (command: Command, args: string[]) => parseOptions(command.usage, command.options, args);

/** Parses a command's options and the files it names besides them; throws a UsageError as parseCommand does. */
export const parseCommandWithFiles = (command: Command, args: string[]) => parseLine(command.usage, command.options, args, true);

export interface NumberRule {
  /** Digits only (`--port 4010`), or a decimal too (`--rate 0.5`). */
  whole: boolean;
  /** The bounds, both allowed; without them, any number above zero. */
  range?: [number, number];
}

/**
 * The one reader of number options: `--name` as a number within `rule`, undefined when not given; a UsageError
 * naming the option, the rule and the value otherwise. Digits and one dot, read without an expression.
 */
export function numberOption(
  name: string,
  value: string | boolean | string[] | undefined,
  usage: string,
  rule: NumberRule,
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const dot = text.indexOf('.');
  const digits = (part: string) => part.length > 0 && [...part].every((char) => char >= '0' && char <= '9');
  const wellFormed = dot === -1 ? digits(text) : !rule.whole && (dot === 0 || digits(text.slice(0, dot))) && digits(text.slice(dot + 1));
  const number = wellFormed ? Number(text) : Number.NaN;
  const [min, max] = rule.range ?? [];
  const inRange = min === undefined ? number > 0 : number >= min && number <= max!;
  const kind = min === undefined ? `a ${rule.whole ? 'whole ' : ''}number > 0` : `a number from ${min} to ${max}`;
  if (!inRange) throw new UsageError(`--${name} must be ${kind}, not "${text}".\n${usage}`);
  return number;
}

/** The rules of the options: a port, a count (of bytes, requests, milliseconds), a rate. */
export const portRule: NumberRule = { whole: true, range: [0, 65535] };
export const countRule: NumberRule = { whole: true };
export const rateRule: NumberRule = { whole: false };
