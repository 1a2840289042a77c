// `monitoring-service-api record --out seed.json`: a seed for the mock recorded from a real account (GET only), written
// whole or not at all. It signs in as verify and mcp do: credentials from the environment, the same target options.

import { counted } from '../output/count.js';
import { terminalText } from '../output/escape.js';
import { RecordError, recordSeed, seedFileText } from '../record/index.js';
import { type Command, parseCommand, program, UsageError } from './args.js';
import { credentialsFrom, credentialVariables } from './credentials.js';
import { unwritable, writeWhole } from './files.js';
import { commandError } from './names.js';
import { targetOf, targetOptions, targetUsage } from './target.js';

export const recordCommand = {
  summary: 'record a seed for the mock from a real account (its monitors, customers and business units; GET only)',
  usage: `Usage: ${program} record --out FILE (--base-url URL [--auth-url URL] | --data-center ID ...) [--anonymize] [--keep-device-keys]

Reads your account's device key and monitors, its customers (MSP) and business units (BU portal) and each one's
monitors through its zaaid, with GET only, and writes a seed the mock takes (${program} mock --seed FILE).
  --out FILE          the seed file to write (whole, once every call succeeded; else nothing is written).
${targetUsage(22)}
  --anonymize         replace names with "Customer 1", "Business unit 1", "Monitor 1"...; ids are kept. Other
                      attributes of the monitors stay as the service gave them: read the file before sharing it.
  --keep-device-keys  keep the account's device key; by default it is replaced by a new key of the same form.
  --insecure          allow plain http to another machine (the credentials then cross the network unencrypted).
  --quiet             no progress lines.
  -h, --help          this help.
Credentials from the environment only: ${credentialVariables.refreshToken}, ${credentialVariables.clientId} and ${credentialVariables.clientSecret}, or ${credentialVariables.accessToken}.
Exit status: 0 written; 1 a call was refused (nothing written); 2 a wrong option or a missing credential.`,
  options: {
    out: { type: 'string' },
    ...targetOptions,
    anonymize: { type: 'boolean', default: false },
    'keep-device-keys': { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
} satisfies Command;

/** `record`: signs in, reads, writes the seed; a refused call prints the service's message and exits 1. */
export async function runRecord(args: string[], env: Record<string, string | undefined> = process.env): Promise<void> {
  const values = parseCommand(recordCommand, args);
  if (values.help) {
    console.log(recordCommand.usage);
    return;
  }
  const out = typeof values.out === 'string' && values.out !== '' ? values.out : undefined;
  if (out === undefined) throw new UsageError(`--out FILE is required: the seed file to write.\n${recordCommand.usage}`);
  const { baseUrl, authUrl } = targetOf(values, recordCommand.usage, recordCommand.options);
  const auth = credentialsFrom(env, 'record', recordCommand.usage);
  const problem = unwritable(out);
  if (problem) throw new UsageError(`--out ${out}: cannot write it (${problem}).\n${recordCommand.usage}`);
  const say = values.quiet ? () => {} : (line: string) => console.error(terminalText(`${program} record: ${line}`));
  let seed: Awaited<ReturnType<typeof recordSeed>>;
  try {
    seed = await recordSeed({
      baseUrl,
      authUrl,
      auth,
      keepDeviceKeys: values['keep-device-keys'] === true,
      anonymize: values.anonymize === true,
      insecure: values.insecure === true,
      onProgress: say,
    });
  } catch (error) {
    if (error instanceof TypeError) throw commandError(error, recordCommand.usage);
    if (!(error instanceof RecordError)) throw error;
    console.error(`${program} record: ${error.message.split('\n').map(terminalText).join('\n')}`);
    process.exitCode = 1;
    return;
  }
  writeWhole(out, seedFileText(seed));
  const managed = seed.customers.length + seed.business_units.length;
  const monitors = [seed.account, ...seed.customers, ...seed.business_units].reduce((sum, account) => sum + account.monitors.length, 0);
  say(
    `wrote ${out}: ${counted(monitors, 'monitor')} in ${counted(managed + 1, 'account')}. Start the mock with it: ${program} mock --seed ${out}`,
  );
}
