// The simulator's starting data: the main account (its kind: normal, MSP, BU portal, or by default both of the last
// two; the role of its user), and each account's device key, monitors and groups. By default it comes from the
// description's own examples (Customers, BusinessUnits, Monitors, DeviceKey); a seed file replaces any of its three
// parts. A seed file is checked against the description's schemas (ManagedAccount, DeviceKey, Monitor,
// MonitorGroupCreate, ServiceRole) before the mock starts: a wrong one is an error naming the file, the JSON
// pointer and the fault.
import { createHash } from 'node:crypto';
import { deref, isRecord, listOf, type OpenApiDocument, pointerToken } from '../description/openapi.js';
import { readNamedFile, UnreadableFile } from '../files.js';
import { maxJsonDepth, tooDeepAt } from '../http/json-depth.js';
import { jsonType, schemaFaults } from './schema-check.js';
import type { AccountSeed, AccountType, ManagedAccountSeed, Seed, SeedFault } from './types.js';

/** The most faults a check of a seed gathers: past them it stops (a huge wrong seed would otherwise cost minutes). */
export const maxSeedFaults = 100;
/** The faults a SeedError's message shows. */
const shownFaults = 10;

/**
 * A seed the mock cannot take: a seed file it cannot start with, or a state to set (`consequence` says what did
 * not happen). Its message names the file, and its first faults with their pointers (`shown`: at most 10, then how
 * many more; a check stops at maxSeedFaults).
 */
export class SeedError extends Error {
  override readonly name = 'SeedError';
  /** The lines of the message that name the faults. */
  readonly shown: string[];
  constructor(
    readonly file: string,
    readonly faults: SeedFault[],
    consequence = `The seed file ${file} is not valid, so the mock did not start`,
  ) {
    const shown = faults.slice(0, shownFaults).map((fault) => `${fault.pointer || '(the whole file)'}: ${fault.message}`);
    if (faults.length > shownFaults)
      shown.push(
        `and ${faults.length - shownFaults} more${faults.length >= maxSeedFaults ? ` (the check stops at ${maxSeedFaults})` : ''}`,
      );
    super(`${consequence}:\n${shown.map((line) => `  ${line}`).join('\n')}`);
    this.shown = shown;
  }
}

/** Thrown inside a check once it has gathered maxSeedFaults. */
const enough = new Error('enough faults');

/** The `data` of a named example of the description (the envelope of its value), when it has one. */
function exampleData(document: OpenApiDocument, name: string): unknown {
  const value = deref(document, document.components?.examples?.[name])?.value;
  return isRecord(value) ? value.data : undefined;
}

/**
 * A managed account's device key when the seed gives none: the main key's region prefix (`us_`) and a hash of the
 * zaaid, so that every account's key differs and stays the same from run to run.
 */
function derivedDeviceKey(mainKey: string, zaaid: string): string {
  const prefix = mainKey.includes('_') ? mainKey.slice(0, mainKey.indexOf('_') + 1) : '';
  return `${prefix}${createHash('sha256').update(zaaid).digest('hex').slice(0, 32)}`;
}

/** A managed account's monitor when the seed gives none: the zaaid's digits then `000025001`, like the examples' ids. */
const derivedMonitorId = (zaaid: string): string => `${/^[0-9]+$/.test(zaaid) ? zaaid : '1'}000025001`;

function managedAccounts(document: OpenApiDocument, example: string, mainKey: string): ManagedAccountSeed[] {
  const entries = exampleData(document, example);
  return listOf(entries)
    .filter(isRecord)
    .map((entry) => ({
      name: String(entry.name),
      zaaid: String(entry.zaaid),
      device_key: derivedDeviceKey(mainKey, String(entry.zaaid)),
      monitors: [{ monitor_id: derivedMonitorId(String(entry.zaaid)) }],
      groups: [],
    }));
}

/** The seed made of the description's examples: what the mock holds when no seed file is given. */
export function defaultSeed(document: OpenApiDocument): Seed {
  const deviceKeyData = exampleData(document, 'DeviceKey');
  const deviceKey = String((isRecord(deviceKeyData) ? deviceKeyData.device_key : undefined) ?? 'us_00000000000000000000000000000000');
  const monitors = exampleData(document, 'Monitors');
  return {
    account: {
      type: 'msp_and_bu_portal',
      role: 1,
      device_key: deviceKey,
      // Only objects are monitors (an example may hold anything): the API answers their attributes.
      monitors: structuredClone(listOf(monitors).filter(isRecord)),
      groups: [],
    },
    customers: managedAccounts(document, 'Customers', deviceKey),
    business_units: managedAccounts(document, 'BusinessUnits', deviceKey),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a seed.

const accountKeys = ['device_key', 'monitors', 'groups'];
const ownKeys = ['type', 'role', ...accountKeys];
const managedKeys = ['name', 'zaaid', ...accountKeys];
/** The parts of a state snapshot (`GET /__mock/state`) that a seed does not set: a snapshot seeds a mock as it is. */
export const stateKeys = ['now', 'strict_tokens', 'tokens', 'faults', 'random_faults'];
export const accountTypes: readonly AccountType[] = ['normal', 'msp', 'bu_portal', 'msp_and_bu_portal'];
/** The managed accounts each kind of account has (core document, section 1). */
export const managedOf: Record<AccountType, ('customers' | 'business_units')[]> = {
  normal: [],
  msp: ['customers'],
  bu_portal: ['business_units'],
  msp_and_bu_portal: ['customers', 'business_units'],
};

/**
 * The managed accounts of a kind of account: a key of the table of its own (`toString` is no kind), else those of the
 * default kind (a kind that is none is a fault of the seed already).
 */
export const managedAccountsOf = (type: unknown): ('customers' | 'business_units')[] =>
  typeof type === 'string' && Object.hasOwn(managedOf, type) ? managedOf[type as AccountType] : managedOf.msp_and_bu_portal;

/** The entries of a record with these keys, leaving out those it does not have. */
const picked = (record: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));

/** The faults of a seed, gathered part by part against the description's schemas. */
class SeedReader {
  readonly faults: SeedFault[] = [];

  constructor(private readonly document: OpenApiDocument) {}

  fault(pointer: string, message: string): void {
    this.faults.push({ pointer, message });
    if (this.faults.length >= maxSeedFaults) throw enough;
  }

  /** The faults of a value against a named schema of the description; false when the description has none of that name. */
  check(name: string, value: unknown, pointer: string): boolean {
    if (!Object.hasOwn(this.document.components?.schemas ?? {}, name)) return false;
    for (const found of schemaFaults(this.document, { $ref: `#/components/schemas/${name}` }, value, pointer))
      this.fault(found.pointer, found.message);
    return true;
  }

  unknownKeys(record: Record<string, unknown>, allowed: string[], pointer: string): void {
    for (const key of Object.keys(record))
      if (!allowed.includes(key))
        this.fault(`${pointer}/${pointerToken(key)}`, `is not a key of a seed here (it has ${allowed.join(', ')})`);
  }

  /** A list of monitors or groups, each checked against its schema; monitor ids once each. */
  list(record: Record<string, unknown>, key: 'monitors' | 'groups', pointer: string): Record<string, unknown>[] {
    const items = record[key] ?? [];
    if (!Array.isArray(items)) {
      this.fault(`${pointer}/${key}`, `must be an array, not ${jsonType(items)}`);
      return [];
    }
    for (const [index, entry] of items.entries()) {
      const at = `${pointer}/${key}/${index}`;
      // Without the description's schema the entry is still one the simulator reads by its attributes: an object.
      if (!this.check(key === 'monitors' ? 'Monitor' : 'MonitorGroupCreate', entry, at) && !isRecord(entry))
        this.fault(at, `must be an object, not ${jsonType(entry)}`);
    }
    const seen = new Set<unknown>();
    if (key === 'monitors')
      items.forEach((monitor, index) => {
        if (!isRecord(monitor)) return;
        if (seen.has(monitor.monitor_id))
          this.fault(`${pointer}/monitors/${index}/monitor_id`, `repeats the monitor_id ${JSON.stringify(monitor.monitor_id)}`);
        seen.add(monitor.monitor_id);
      });
    return items.filter(isRecord);
  }

  /** An account's device key, monitors and groups. */
  account(record: Record<string, unknown>, pointer: string, fallbackKey: string): AccountSeed {
    if (record.device_key !== undefined) this.check('DeviceKey', { device_key: record.device_key }, pointer);
    return {
      device_key: typeof record.device_key === 'string' ? record.device_key : fallbackKey,
      monitors: this.list(record, 'monitors', pointer),
      groups: this.list(record, 'groups', pointer),
    };
  }

  /** The own account: its kind, its user's role, and its data. */
  own(record: unknown, fallback: AccountSeed): AccountSeed | undefined {
    if (!isRecord(record)) {
      this.fault('/account', `must be an object (an account with ${ownKeys.join(', ')})`);
      return undefined;
    }
    this.unknownKeys(record, ownKeys, '/account');
    const type = record.type ?? fallback.type;
    if (!accountTypes.includes(type as AccountType))
      this.fault('/account/type', `must be one of ${accountTypes.map((entry) => JSON.stringify(entry)).join(', ')}`);
    if (record.role !== undefined) this.check('ServiceRole', record.role, '/account/role');
    return {
      type: type as AccountType,
      role: (record.role as number | undefined) ?? fallback.role,
      ...this.account(record, '/account', fallback.device_key),
    };
  }

  /** The customers or business units: each with a name and a zaaid no other account has. */
  managed(key: 'customers' | 'business_units', entries: unknown, mainKey: string, zaaids: Map<string, string>): ManagedAccountSeed[] {
    if (!Array.isArray(entries)) {
      this.fault(`/${key}`, `must be an array of accounts, not ${jsonType(entries)}`);
      return [];
    }
    return entries.flatMap((entry, index) => {
      const pointer = `/${key}/${index}`;
      if (!isRecord(entry)) {
        this.fault(pointer, `must be an object (an account with ${managedKeys.join(', ')})`);
        return [];
      }
      this.unknownKeys(entry, managedKeys, pointer);
      this.check('ManagedAccount', picked(entry, ['name', 'zaaid']), pointer);
      if (typeof entry.zaaid !== 'string') return [];
      if (zaaids.has(entry.zaaid)) this.fault(`${pointer}/zaaid`, `repeats the zaaid of ${zaaids.get(entry.zaaid)}`);
      zaaids.set(entry.zaaid, pointer);
      return [{ name: String(entry.name), zaaid: entry.zaaid, ...this.account(entry, pointer, derivedDeviceKey(mainKey, entry.zaaid)) }];
    });
  }
}

/**
 * A seed of a parsed file (or object, or a state snapshot): the parts it gives replace those of the default seed,
 * and the managed accounts its kind of account does not have are left out. Throws a SeedError.
 */
export function checkSeed(document: OpenApiDocument, value: unknown, file: string): Seed {
  if (!isRecord(value))
    throw new SeedError(file, [{ pointer: '', message: 'must be a JSON object with account, customers and/or business_units' }]);
  // The checks below walk the value by recursion: a value nested deeper than any account needs is refused first.
  // A group created with a body of the deepest nesting the mock takes sits 4 levels down in a state snapshot
  // (/customers/0/groups/0), and a snapshot seeds a mock as it is.
  const deep = tooDeepAt(value, maxSeedDepth);
  if (deep !== undefined)
    throw new SeedError(file, [{ pointer: deep, message: `nests arrays and objects more than ${maxSeedDepth} deep` }]);
  const reader = new SeedReader(document);
  try {
    const seed = readSeed(document, value, reader);
    if (reader.faults.length === 0) return seed;
  } catch (error) {
    if (error !== enough) throw error;
  }
  throw new SeedError(file, reader.faults);
}

/** The seed of a value, its faults gathered by the reader (which throws `enough` past maxSeedFaults). */
function readSeed(document: OpenApiDocument, value: Record<string, unknown>, reader: SeedReader): Seed {
  reader.unknownKeys(value, ['$schema', 'account', 'customers', 'business_units', ...stateKeys], '');
  const seed = defaultSeed(document);
  if (value.account !== undefined) seed.account = reader.own(value.account, seed.account) ?? seed.account;
  const zaaids = new Map<string, string>();
  for (const key of ['customers', 'business_units'] as const) {
    // (A kind that is none is a fault already: its managed accounts are read as the default's.)
    const has = managedAccountsOf(seed.account.type).includes(key);
    if (value[key] === undefined) {
      seed[key] = has ? seed[key] : [];
      continue;
    }
    seed[key] = reader.managed(key, value[key], seed.account.device_key, zaaids);
    if (!has && seed[key].length > 0)
      reader.fault(`/${key}`, `must be empty: a ${seed.account.type} account has no ${key.replace('_', '-')}`);
  }
  // A default account whose zaaid a given one repeats would make a cookie ambiguous.
  for (const key of ['customers', 'business_units'] as const)
    if (value[key] === undefined)
      for (const entry of seed[key])
        if (zaaids.has(entry.zaaid))
          reader.fault(`${zaaids.get(entry.zaaid)}/zaaid`, `repeats the zaaid of the default ${key} entry ${entry.name}`);
  return seed;
}

/** The deepest nesting of a seed: a body's (maxJsonDepth) and the 4 levels of the state around it. */
export const maxSeedDepth = maxJsonDepth + 4;

/** The largest seed file the mock reads (its own bound): far above any account's monitors and groups. */
export const maxSeedBytes = 16 * 1024 * 1024;

/** The text of a seed file: a regular file of at most `maxSeedBytes`. Throws a SeedError naming the file. */
function seedText(file: string): string {
  try {
    return readNamedFile(file, maxSeedBytes, (size) => `has ${size} bytes; the mock reads seed files of at most ${maxSeedBytes}`);
  } catch (error) {
    if (error instanceof UnreadableFile) throw new SeedError(file, [{ pointer: '', message: error.message }]);
    throw error;
  }
}

/** Reads and checks a seed file (JSON). Throws a SeedError naming the file, the pointer and the fault. */
export function readSeedFile(document: OpenApiDocument, file: string): Seed {
  const text = seedText(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SeedError(file, [{ pointer: '', message: `is not JSON (${(error as Error).message})` }]);
  }
  return checkSeed(document, value, file);
}
