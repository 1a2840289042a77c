// The simulator's starting data: the main account (an MSP account with customers and a BU portal with business
// units), each account's device key, monitors and groups. By default it comes from the description's own examples
// (Customers, BusinessUnits, Monitors, DeviceKey); a seed file replaces any of its three parts. A seed file is
// checked against the description's schemas (ManagedAccount, DeviceKey, Monitor, MonitorGroupCreate) before the
// mock starts: a wrong one is an error naming the file, the JSON pointer and the fault.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deref, isRecord, pointerToken, type Json } from '../description/openapi.js';
import type { AccountSeed, ManagedAccountSeed, Seed, SeedFault } from './types.js';

/**
 * A seed the mock cannot take: a seed file it cannot start with, or a state to set (`consequence` says what did
 * not happen). Its message names the file, and each fault with its pointer.
 */
export class SeedError extends Error {
  override readonly name = 'SeedError';
  constructor(
    readonly file: string,
    readonly faults: SeedFault[],
    consequence = `The seed file ${file} is not valid, so the mock did not start`,
  ) {
    const shown = faults.slice(0, 10).map((fault) => `  ${fault.pointer || '(the whole file)'}: ${fault.message}`);
    if (faults.length > 10) shown.push(`  and ${faults.length - 10} more`);
    super(`${consequence}:\n${shown.join('\n')}`);
  }
}

const exampleValue = (document: Json, name: string): Json | undefined => deref(document, document.components?.examples?.[name])?.value;

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

function managedAccounts(document: Json, example: string, mainKey: string): ManagedAccountSeed[] {
  const entries = exampleValue(document, example)?.data;
  return (Array.isArray(entries) ? entries : []).filter(isRecord).map((entry) => ({
    name: String(entry.name),
    zaaid: String(entry.zaaid),
    device_key: derivedDeviceKey(mainKey, String(entry.zaaid)),
    monitors: [{ monitor_id: derivedMonitorId(String(entry.zaaid)) }],
    groups: [],
  }));
}

/** The seed made of the description's examples: what the mock holds when no seed file is given. */
export function defaultSeed(document: Json): Seed {
  const deviceKey = String(exampleValue(document, 'DeviceKey')?.data?.device_key ?? 'us_00000000000000000000000000000000');
  const monitors = exampleValue(document, 'Monitors')?.data;
  return {
    account: { device_key: deviceKey, monitors: Array.isArray(monitors) ? structuredClone(monitors) : [], groups: [] },
    customers: managedAccounts(document, 'Customers', deviceKey),
    business_units: managedAccounts(document, 'BusinessUnits', deviceKey),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Checking values against the description's schemas: the keywords its schemas use (annotations are skipped).

const jsonType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

function typeMatches(type: string, value: unknown): boolean {
  const actual = jsonType(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

/** The faults of a value against a schema of the document, each at its JSON pointer. */
export function schemaFaults(document: Json, schema: Json | boolean | undefined, value: unknown, pointer = ''): SeedFault[] {
  if (schema === undefined || schema === true) return [];
  if (schema === false) return [{ pointer, message: 'is not allowed here' }];
  const node = deref(document, schema) ?? {};
  const faults: SeedFault[] = [];
  const fault = (message: string, at = pointer) => faults.push({ pointer: at, message });
  for (const part of node.allOf ?? []) faults.push(...schemaFaults(document, part, value, pointer));
  for (const [keyword, atLeast] of [
    ['oneOf', 1],
    ['anyOf', 1],
  ] as const) {
    const options: Json[] | undefined = node[keyword];
    if (options && options.filter((option) => schemaFaults(document, option, value, pointer).length === 0).length < atLeast)
      fault(`must match one of the ${options.length} forms the description allows`);
  }
  if (node.type !== undefined) {
    const types: string[] = [node.type].flat();
    if (!types.some((type) => typeMatches(type, value))) {
      fault(`must be ${types.join(' or ')}, not ${jsonType(value)}`);
      return faults;
    }
  }
  if (node.const !== undefined && JSON.stringify(node.const) !== JSON.stringify(value)) fault(`must be ${JSON.stringify(node.const)}`);
  if (Array.isArray(node.enum) && !node.enum.some((option: unknown) => JSON.stringify(option) === JSON.stringify(value)))
    fault(`must be one of ${node.enum.map((option: unknown) => JSON.stringify(option)).join(', ')}`);
  if (typeof value === 'string') {
    if (typeof node.minLength === 'number' && [...value].length < node.minLength)
      fault(node.minLength === 1 ? 'must not be empty' : `must have at least ${node.minLength} characters`);
    if (typeof node.maxLength === 'number' && [...value].length > node.maxLength) fault(`must have at most ${node.maxLength} characters`);
    if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(value)) fault(`must match the pattern ${node.pattern}`);
  }
  if (typeof value === 'number') {
    if (typeof node.minimum === 'number' && value < node.minimum) fault(`must be at least ${node.minimum}`);
    if (typeof node.maximum === 'number' && value > node.maximum) fault(`must be at most ${node.maximum}`);
  }
  if (Array.isArray(value) && node.items !== undefined)
    for (const [index, item] of value.entries()) faults.push(...schemaFaults(document, node.items, item, `${pointer}/${index}`));
  if (isRecord(value)) {
    for (const name of node.required ?? []) if (!(name in value)) fault(`must have the attribute "${name}"`);
    const properties: Json = node.properties ?? {};
    for (const [name, item] of Object.entries(value)) {
      const at = `${pointer}/${pointerToken(name)}`;
      if (name in properties) faults.push(...schemaFaults(document, properties[name], item, at));
      else if (node.additionalProperties !== undefined) faults.push(...schemaFaults(document, node.additionalProperties, item, at));
    }
  }
  return faults;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a seed.

const accountKeys = ['device_key', 'monitors', 'groups'];
const managedKeys = ['name', 'zaaid', ...accountKeys];

/** A seed of a parsed file (or object): the parts it gives replace those of the default seed. Throws a SeedError. */
export function checkSeed(document: Json, value: unknown, file: string): Seed {
  const seed = defaultSeed(document);
  const faults: SeedFault[] = [];
  const schema = (name: string): Json | undefined =>
    document.components?.schemas?.[name] ? { $ref: `#/components/schemas/${name}` } : undefined;
  const unknownKeys = (record: Record<string, unknown>, allowed: string[], pointer: string) => {
    for (const key of Object.keys(record))
      if (!allowed.includes(key))
        faults.push({ pointer: `${pointer}/${pointerToken(key)}`, message: `is not a key of a seed (it has ${allowed.join(', ')})` });
  };

  const account = (record: unknown, pointer: string, managed: boolean, fallbackKey: string): AccountSeed | undefined => {
    if (!isRecord(record)) {
      faults.push({ pointer, message: `must be an object (an account with ${(managed ? managedKeys : accountKeys).join(', ')})` });
      return undefined;
    }
    unknownKeys(record, managed ? managedKeys : accountKeys, pointer);
    const picked = (...keys: string[]) =>
      Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));
    if (managed) faults.push(...schemaFaults(document, schema('ManagedAccount'), picked('name', 'zaaid'), pointer));
    if (record.device_key !== undefined) faults.push(...schemaFaults(document, schema('DeviceKey'), picked('device_key'), pointer));
    const list = (key: 'monitors' | 'groups', item: string): Json[] => {
      const items = record[key] ?? [];
      if (!Array.isArray(items)) {
        faults.push({ pointer: `${pointer}/${key}`, message: `must be an array, not ${jsonType(items)}` });
        return [];
      }
      for (const [index, entry] of items.entries())
        faults.push(...schemaFaults(document, schema(item), entry, `${pointer}/${key}/${index}`));
      return items as Json[];
    };
    const monitors = list('monitors', 'Monitor');
    const seen = new Set<unknown>();
    monitors.forEach((monitor, index) => {
      if (!isRecord(monitor)) return;
      if (seen.has(monitor.monitor_id))
        faults.push({
          pointer: `${pointer}/monitors/${index}/monitor_id`,
          message: `repeats the monitor_id ${JSON.stringify(monitor.monitor_id)}`,
        });
      seen.add(monitor.monitor_id);
    });
    return {
      device_key: typeof record.device_key === 'string' ? record.device_key : fallbackKey,
      monitors,
      groups: list('groups', 'MonitorGroupCreate'),
    };
  };

  if (!isRecord(value)) {
    throw new SeedError(file, [{ pointer: '', message: 'must be a JSON object with account, customers and/or business_units' }]);
  }
  unknownKeys(value, ['$schema', 'account', 'customers', 'business_units'], '');
  if (value.account !== undefined) {
    const main = account(value.account, '/account', false, seed.account.device_key);
    if (main) seed.account = main;
  }
  const zaaids = new Map<string, string>();
  for (const key of ['customers', 'business_units'] as const) {
    if (value[key] === undefined) continue;
    const entries = value[key];
    if (!Array.isArray(entries)) {
      faults.push({ pointer: `/${key}`, message: `must be an array of accounts, not ${jsonType(entries)}` });
      continue;
    }
    seed[key] = entries.flatMap((entry, index) => {
      const pointer = `/${key}/${index}`;
      const zaaid = isRecord(entry) && typeof entry.zaaid === 'string' ? entry.zaaid : undefined;
      const parsed = account(entry, pointer, true, derivedDeviceKey(seed.account.device_key, zaaid ?? ''));
      if (!parsed || !isRecord(entry) || zaaid === undefined) return [];
      if (zaaids.has(zaaid)) faults.push({ pointer: `${pointer}/zaaid`, message: `repeats the zaaid of ${zaaids.get(zaaid)}` });
      zaaids.set(zaaid, pointer);
      return [{ name: String(entry.name), zaaid, ...parsed }];
    });
  }
  for (const key of ['customers', 'business_units'] as const) {
    if (value[key] !== undefined) continue;
    for (const entry of seed[key]) {
      // A default account whose zaaid a given one repeats would make a cookie ambiguous.
      if (zaaids.has(entry.zaaid))
        faults.push({
          pointer: `${zaaids.get(entry.zaaid)}/zaaid`,
          message: `repeats the zaaid of the default ${key} entry ${entry.name}`,
        });
    }
  }
  if (faults.length > 0) throw new SeedError(file, faults);
  return seed;
}

/** Reads and checks a seed file (JSON). Throws a SeedError naming the file, the pointer and the fault. */
export function readSeedFile(document: Json, file: string): Seed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SeedError(file, [
      { pointer: '', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SeedError(file, [{ pointer: '', message: `is not JSON (${(error as Error).message})` }]);
  }
  return checkSeed(document, value, file);
}
