// The checks of options that every library entry shares (the client, verify, the mock, the proxy, the simulator's
// controls, the journal's filter), and how their messages name the options. Nothing here imports anything: the
// mock's and the proxy's entries take these without the client's modules.

// ---------------------------------------------------------------------------------------------------------------
// Messages that name options. Each interface names them its own way: code by their names (`authUrl`, `port: 0`),
// the command line by its flags (`--auth-url`, `--port 0`) and environment variables. A check writes its message as
// a wording, whose parts are text and the options it names; its error's message says it in code's names, and the
// command line says the same wording in its own (src/cli/names.ts).

/** An option a message names, and the value it shows it set to (`port: 0`), if any. */
export interface OptionMention {
  readonly option: string;
  readonly value?: string | number | boolean | undefined;
}

/** The option `name` in a message, set to `value` when the message shows a setting (`option('port', 0)`). */
export const option = (name: string, value?: string | number | boolean): OptionMention =>
  value === undefined ? { option: name } : { option: name, value };

/** A message in parts: its text, and the options it names. */
export type Wording = readonly (string | OptionMention)[];

/** How an interface says an option. */
export type OptionNames = (mention: OptionMention) => string;

/** The library's own names: an option as code writes it (`authUrl`, `insecure: true`). */
export const codeNames: OptionNames = ({ option: name, value }) => (value === undefined ? name : `${name}: ${String(value)}`);

/** A wording from a template literal: `` wording`${option('port')} must be a number` ``; other values are text. */
export function wording(strings: TemplateStringsArray, ...values: (string | number | OptionMention)[]): Wording {
  return strings.flatMap((text, index) => {
    const value = values[index];
    return index < values.length ? [text, typeof value === 'object' ? value : String(value)] : [text];
  });
}

/** A wording said with an interface's names (code's by default). */
export const say = (parts: Wording, names: OptionNames = codeNames): string =>
  parts.map((part) => (typeof part === 'string' ? part : names(part))).join('');

/** An error whose message names options: `wording` says it in another interface's names. */
export interface Worded {
  readonly wording: Wording;
}

/** Whether an error carries the wording of its message. */
export const isWorded = (error: unknown): error is Error & Worded =>
  error instanceof Error && Array.isArray((error as Partial<Worded>).wording);

/** A wrong option: a TypeError whose message names options as code does, and says them otherwise through `wording`. */
export class OptionError extends TypeError implements Worded {
  readonly wording: Wording;
  constructor(parts: Wording) {
    super(say(parts));
    this.wording = parts;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The checks.

/**
 * The one check of a number option above zero, for the client, verify, the mock and the proxy: the value, or
 * `fallback` when it is not given; otherwise a TypeError naming the option as the library calls it (`timeoutMs must
 * be a number > 0, not 0`), never a command-line flag. Each caller picks its rule below: any number above zero (the
 * client's times, verify's rate) or a whole one (the mock's and the proxy's limits, verify's budget and times).
 */
function checkPositive(name: string, value: number | undefined, fallback: number, whole: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
    throw new OptionError(wording`${option(name)} must be a ${whole ? 'whole ' : ''}number > 0, not ${String(value)}`);
  return value;
}

/** An option that may be any number above zero (`timeoutMs: 0.5`), or `fallback` when it is not given. */
export const positiveNumber = (name: string, value: number | undefined, fallback: number): number =>
  checkPositive(name, value, fallback, false);

/** The port a server listens on (0: a free one), or `fallback` when it is not given. */
export function portOption(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!isWhole(value, 0, 65535))
    throw new OptionError(wording`${option('port')} must be a whole number from 0 to 65535, not ${String(value)}`);
  return value;
}

/** An option that must be a whole number above zero (`maxBodyBytes`), or `fallback` when it is not given. */
export const positiveWholeNumber = (name: string, value: number | undefined, fallback: number): number =>
  checkPositive(name, value, fallback, true);

/**
 * Throws a TypeError naming the keys of `value` that are not among `allowed` (quoted and cut: a key comes from a
 * request): a misspelt `validity_minute` is named rather than ignored.
 */
export function refuseUnknownKeys(value: object, allowed: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  const named = unknown
    .slice(0, 5)
    .map((key) => JSON.stringify(key.slice(0, 60)))
    .join(', ');
  throw new TypeError(`${what} has ${named}${unknown.length > 5 ? ', ...' : ''}: it takes ${allowed.join(', ') || 'nothing'}`);
}

/** Whether a value is a whole number from `min` to `max`. */
export const isWhole = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
