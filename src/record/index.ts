// A seed for the mock recorded from a real account: its device key and monitors, its customers (MSP) and business
// units (BU portal), and each one's monitors through its zaaid, read with GET only. It signs in as verify and the
// MCP server do (the package's client: https unless told otherwise, no redirect followed with credentials), stops
// at the first refused call with the service's message, and gives a seed the simulator takes (checked here): within
// the size the mock reads (the service's answers are read up to it, no further), and through the package's one
// redaction (a service that echoes a credential does not put it in the file).
import { randomInt } from 'node:crypto';
import { createServiceClient, type ServiceAuth, type ServiceClient } from '../client/client.js';
import { ServiceError } from '../client/errors.js';
import { isRecord } from '../description/openapi.js';
import { packagedDescription } from '../engine/packaged.js';
import { budgetedFetch, tooLargeOf } from '../fetch/capped-body.js';
import type { FetchLike } from '../fetch/exchange.js';
import { counted } from '../output/count.js';
import { Redactor } from '../output/redact.js';
import { checkSeed, maxSeedBytes, SeedError } from '../simulator/seed.js';
import type { AccountType } from '../simulator/types.js';

export interface RecordOptions {
  /** The API root (`{base_url}`). */
  baseUrl: string;
  /** The identity provider (`{auth_url}`), needed with a refresh token. */
  authUrl?: string | undefined;
  auth: ServiceAuth;
  /** Keep the account's device key as the service gave it. Default: a new key of the same form. */
  keepDeviceKeys?: boolean | undefined;
  /** Replace names (customers, business units, monitors' `display_name`) with `Customer 1`, ...; ids stay. */
  anonymize?: boolean | undefined;
  /** Allow plain http to another machine. */
  insecure?: boolean | undefined;
  /** Told of each step, in words (service text included: escape it before a terminal). */
  onProgress?: ((line: string) => void) | undefined;
  /** Custom fetch. Default: the global fetch. */
  fetch?: FetchLike | undefined;
}

/** A recorded seed: the seed file's content (`device_key` of a customer or business unit is left to the mock). */
export interface RecordedSeed {
  /** The account's kind as the service showed it: the lists it may read (customers, business units), or neither. */
  account: { type: AccountType; device_key: string; monitors: Record<string, unknown>[]; groups: Record<string, unknown>[] };
  customers: { name: string; zaaid: string; monitors: Record<string, unknown>[]; groups: Record<string, unknown>[] }[];
  business_units: { name: string; zaaid: string; monitors: Record<string, unknown>[]; groups: Record<string, unknown>[] }[];
}

/** A call the service refused, or answers that make no seed: nothing is written. Its message has no secret. */
export class RecordError extends Error {
  override readonly name = 'RecordError';
}

const digits = '0123456789';
const lower = 'abcdefghijklmnopqrstuvwxyz';
const upper = lower.toUpperCase();
const hexDigits = '0123456789abcdef';

/**
 * A device key of the same form as another: the region prefix (`us_`) kept, then each character replaced by a random
 * one of its kind: a hexadecimal key stays hexadecimal (in its case), else digits stay digits and letters letters.
 */
export function sameFormKey(key: string, random: (max: number) => number = randomInt): string {
  const cut = key.indexOf('_') + 1;
  const rest = [...key.slice(cut)];
  const pick = (set: string) => set[random(set.length)]!;
  if (rest.length > 0 && rest.every((char) => hexDigits.includes(char.toLowerCase()))) {
    const set = rest.some((char) => upper.includes(char)) ? hexDigits.toUpperCase() : hexDigits;
    return key.slice(0, cut) + rest.map(() => pick(set)).join('');
  }
  const same = (char: string) => [digits, lower, upper].find((set) => set.includes(char));
  return key.slice(0, cut) + rest.map((char) => (same(char) ? pick(same(char)!) : char)).join('');
}

/** The documented message of an MSP or BU portal operation the account may not use (the description's example). */
const notAuthorizedExample = packagedDescription.components?.examples?.NotAuthorizedForAccount?.value;
const notAuthorizedMessage = String((isRecord(notAuthorizedExample) ? notAuthorizedExample.message : undefined) ?? '');

/**
 * Whether an error is the service's refusal of an MSP or BU portal list: the account is not of that kind. The
 * documents give the message of an unauthorized MSP or BU portal operation (section 5, item 9), not what a normal
 * account gets when it lists: that message on any 4xx, or a 403 with any message, is read as "not that kind" (our
 * reading; the progress line quotes the service).
 */
const notThatKind = (error: unknown): error is ServiceError =>
  ServiceError.is(error) &&
  error.status !== undefined &&
  error.status >= 400 &&
  error.status < 500 &&
  (error.status === 403 || error.message.includes(notAuthorizedMessage));

/**
 * The text of a seed file: indented, or in one line when only that fits within the size the mock reads. Throws a
 * RecordError when neither does.
 */
export function seedFileText(seed: RecordedSeed): string {
  const indented = `${JSON.stringify(seed, null, 2)}\n`;
  if (Buffer.byteLength(indented) <= maxSeedBytes) return indented;
  const compact = `${JSON.stringify(seed)}\n`;
  const bytes = Buffer.byteLength(compact);
  if (bytes <= maxSeedBytes) return compact;
  throw new RecordError(
    `the seed would have ${bytes} bytes, more than the ${maxSeedBytes} (16 MiB) the mock reads from a seed file, so nothing was written`,
  );
}

/** Records a seed from the account the credentials sign in to. Rejects with a RecordError at the first refusal. */
export async function recordSeed(options: RecordOptions): Promise<RecordedSeed> {
  const redactor = new Redactor(
    Object.values(options.auth as Record<string, unknown>).map((value) => (typeof value === 'string' ? value : undefined)),
  );
  const onProgress = options.onProgress ?? (() => {});
  const progress = (line: string) => onProgress(redactor.text(line));
  const client = createServiceClient({
    baseUrl: options.baseUrl,
    ...(options.authUrl === undefined ? {} : { authUrl: options.authUrl }),
    auth: options.auth,
    ...(options.insecure ? { insecure: true } : {}),
    // The answers are read up to the size of a seed the mock reads, no further: more could not be written.
    fetch: budgetedFetch(options.fetch ?? ((request) => fetch(request)), maxSeedBytes),
    onTokenRenewed: (token) => redactor.add(token.accessToken),
  });
  try {
    return await readSeed(client, options, redactor, progress);
  } catch (error) {
    // The options were checked when the client was made: a TypeError now comes from an answer of the service (a
    // list that is not one, an entry without its zaaid), not from the command line.
    if (error instanceof TypeError)
      throw new RecordError(redactor.text(`the service's answers cannot be read as a seed, so nothing was written: ${error.message}`));
    throw error;
  }
}

/** The seed read through a client: the own account, then the customers and business units it lists. */
async function readSeed(
  client: ServiceClient,
  options: RecordOptions,
  redactor: Redactor,
  progress: (line: string) => void,
): Promise<RecordedSeed> {
  const read = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw refusal(what, error, redactor);
    }
  };
  const monitorsOf = async (account: ServiceClient, label: string): Promise<Record<string, unknown>[]> => {
    const monitors = (await read(`GET /monitors (${label})`, () => account.GET('/monitors'))) as unknown;
    return Array.isArray(monitors) ? monitors.filter(isRecord) : [];
  };
  const key = (await read('GET /device_key', () => client.GET('/device_key'))).device_key;
  progress(`device key: ${options.keepDeviceKeys ? 'kept' : 'replaced by a new one of the same form'}`);
  const account = {
    device_key: options.keepDeviceKeys ? key : sameFormKey(key),
    monitors: await monitorsOf(client, 'your account'),
    groups: [],
  };
  progress(`your account: ${counted(account.monitors.length, 'monitor')}`);
  const managed: Pick<RecordedSeed, 'customers' | 'business_units'> = { customers: [], business_units: [] };
  const listed: string[] = [];
  for (const [part, path, label] of [
    ['customers', '/short/msp/customers', 'customer'],
    ['business_units', '/short/bu/business_units', 'business unit'],
  ] as const) {
    let entries: { name: string; zaaid: string }[];
    try {
      entries = await client.GET(path);
    } catch (error) {
      if (!notThatKind(error)) throw refusal(`GET ${path}`, error, redactor);
      progress(`no ${label}s: the service says the account may not list them (${redactor.text(error.message)})`);
      continue;
    }
    listed.push(part);
    for (const entry of entries) {
      const monitors = await monitorsOf(client.forAccount(entry.zaaid), `${label} ${entry.zaaid}`);
      managed[part].push({ name: entry.name, zaaid: entry.zaaid, monitors, groups: [] });
      progress(`${label} ${entry.zaaid}: ${counted(monitors.length, 'monitor')}`);
    }
  }
  const type: AccountType =
    listed.length === 2 ? 'msp_and_bu_portal' : listed[0] === 'customers' ? 'msp' : listed[0] === 'business_units' ? 'bu_portal' : 'normal';
  // What the service echoed of a credential (a header, a token) is redacted as in every log and report.
  const seed: RecordedSeed = redactor.value({ account: { type, ...account }, ...managed });
  if (options.anonymize) anonymize(seed);
  seedFileText(seed);
  try {
    checkSeed(packagedDescription, seed, '(the recorded seed)');
  } catch (error) {
    if (error instanceof SeedError)
      throw new RecordError(
        redactor.text(`the service's answers do not make a seed the mock takes, so nothing was written:\n${error.message}`),
      );
    throw error;
  }
  return seed;
}

/** The RecordError of a call that failed: the service's refusal, or answers past the size a seed may have. */
function refusal(what: string, error: unknown, redactor: Redactor): RecordError {
  if (tooLargeOf(error))
    return new RecordError(
      `${what}: the service's answers hold more than ${maxSeedBytes} bytes (16 MiB), more than a seed the mock reads, so they were not read further and nothing was written`,
    );
  return new RecordError(
    redactor.text(`${what} was refused, so nothing was written: ${error instanceof Error ? error.message : String(error)}`),
  );
}

/** Names replaced by `Customer 1`, `Business unit 1`, `Monitor 1`...; every id kept. */
function anonymize(seed: RecordedSeed): void {
  seed.customers.forEach((customer, index) => {
    customer.name = `Customer ${index + 1}`;
  });
  seed.business_units.forEach((unit, index) => {
    unit.name = `Business unit ${index + 1}`;
  });
  let count = 0;
  for (const account of [seed.account, ...seed.customers, ...seed.business_units])
    for (const monitor of account.monitors) if (typeof monitor.display_name === 'string') monitor.display_name = `Monitor ${++count}`;
}
