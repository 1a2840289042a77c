// The service a command signs in to (mcp, record): `--base-url` and `--auth-url`, or `--data-center` for the pair
// of the description, whose hosts are placeholders (the documents do not give them), so that one alone is refused.

import { dataCenters } from '../../generated/client.js';
import { placeholderHost } from '../fetch/address.js';
import { terminalText } from '../output/escape.js';
import { npmHint, type OptionSpec, UsageError } from './args.js';

/** The options of the target, for a command's option list. */
export const targetOptions = {
  'base-url': { type: 'string' },
  'auth-url': { type: 'string' },
  'data-center': { type: 'string' },
} satisfies OptionSpec;

/** The target options and what each means, for a command's usage. */
const targetHelp: [flag: string, lines: string[]][] = [
  ['--base-url URL', ["the API root ({base_url}, ending in /api): your data center's, or the mock's (http://127.0.0.1:4010/api)."]],
  ['--auth-url URL', ['the identity provider ({auth_url}), needed with a refresh token.']],
  [
    '--data-center ID',
    [
      `one of ${Object.keys(dataCenters).join(', ')}; its hosts in the description are placeholders, so give`,
      '--base-url and --auth-url too.',
    ],
  ],
];

/** The lines of a command's usage that describe the target options, their text starting at `column`. */
export const targetUsage = (column: number) =>
  targetHelp
    .flatMap(([flag, [first, ...rest]]) => [`  ${flag.padEnd(column - 2)}${first}`, ...rest.map((line) => `${' '.repeat(column)}${line}`)])
    .join('\n');

/** The API root and identity provider of the parsed options; a UsageError for a missing, unknown or placeholder one. */
export function targetOf(
  values: Record<string, unknown>,
  usage: string,
  options: OptionSpec,
): { baseUrl: string; authUrl: string | undefined } {
  const text = (name: string) => (typeof values[name] === 'string' && values[name] !== '' ? (values[name] as string) : undefined);
  const dataCenter = text('data-center');
  if (dataCenter !== undefined && !Object.hasOwn(dataCenters, dataCenter)) {
    throw new UsageError(
      `--data-center must be one of ${Object.keys(dataCenters).join(', ')}, not ${JSON.stringify(dataCenter)}.\n${usage}`,
    );
  }
  const center = dataCenter === undefined ? undefined : dataCenters[dataCenter as keyof typeof dataCenters];
  const baseUrl = text('base-url') ?? center?.baseUrl;
  const authUrl = text('auth-url') ?? center?.authUrl;
  if (baseUrl === undefined) throw new UsageError(`--base-url is required.${npmHint(options)}\n${usage}`);
  for (const [flag, address] of [
    ['--base-url', baseUrl],
    ['--auth-url', authUrl],
  ] as const) {
    const placeholder = address === undefined ? undefined : placeholderHost(address);
    if (placeholder) {
      const fault = `${flag} ${address}: ${placeholder} (the documents do not give the data centers' hosts): give your data center's real address.`;
      throw new UsageError(`${terminalText(fault)}\n${usage}`);
    }
  }
  return { baseUrl, authUrl };
}
