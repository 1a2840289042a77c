// The accounts the simulator holds: the caller's own account, which is an MSP account with customers and a BU
// portal account with business units at once, and those customer and business-unit accounts, each with its device
// key, monitors and monitor groups. A call acts on its own account, or with `Cookie: zaaid=X` on X when X is one of
// its customers or business units (core document, section 5, item 8).
import type { JsonObject } from '../description/openapi.js';
import type { AccountSeed, ManagedAccountSeed, Seed } from './types.js';

export type AccountKind = 'own' | 'customer' | 'business_unit';

export interface Account extends AccountSeed {
  kind: AccountKind;
  /** Its monitors and groups: objects (a seed's are checked; a group a call creates is its JSON body). */
  monitors: Record<string, unknown>[];
  groups: Record<string, unknown>[];
  /** A customer's or business unit's name and zaaid; the own account has neither in the documents. */
  name?: string;
  zaaid?: string;
}

/** The accounts as `GET /__mock/state` shows them: the shape of a seed file, so a snapshot can seed another mock. */
export type AccountsSnapshot = Seed;

export interface Accounts {
  /** The caller's own account. */
  readonly own: Account;
  /**
   * The account a call acts on: its own without a zaaid, else the customer or business unit with that zaaid;
   * undefined when the zaaid is none of them.
   */
  actingOn(zaaid: string | undefined): Account | undefined;
  /** The `{name, zaaid}` entries of the customers or the business units, as their list operations answer them. */
  list(kind: 'customer' | 'business_unit'): { name: string; zaaid: string }[];
  /** The monitor of an account whose `monitor_id` is `id`. */
  monitor(account: Account, id: string): Record<string, unknown> | undefined;
  /**
   * Adds a monitor group to an account. The groups calls create are bounded in all accounts together (see
   * createdGroupBounds), by what they hold in memory: past a bound the oldest created one is forgotten, so that no
   * client can grow the memory.
   */
  addGroup(account: Account, group: JsonObject): void;
  snapshot(): AccountsSnapshot;
  /** Other accounts in their place (`PUT /__mock/state`); a reset still goes back to the first seed. */
  replace(seed: Seed): void;
  /** Back to the seed. */
  reset(): void;
  /** The bytes the accounts hold: the copy of the seed they were loaded from (keptBytes) and the groups calls created. */
  heldBytes(): number;
  /** How many accounts, monitors and groups they hold. */
  counts(): { accounts: number; monitors: number; groups: number };
}

/** The zaaid of a `Cookie` header (`a=1; zaaid=700000123`), read in one pass; undefined without one. */
export function zaaidOf(cookie: string | string[] | undefined): string | undefined {
  for (const header of [cookie ?? []].flat()) {
    for (const pair of header.split(';')) {
      const equals = pair.indexOf('=');
      if (equals !== -1 && pair.slice(0, equals).trim() === 'zaaid') return pair.slice(equals + 1).trim();
    }
  }
  return undefined;
}

const copyAccount = (kind: AccountKind, seed: AccountSeed | ManagedAccountSeed): Account => ({
  kind,
  ...structuredClone(seed),
});

/** The groups that calls create, in all accounts together: the most kept, and the most bytes they hold in memory. */
export const createdGroupBounds = { groups: 1_000, bytes: 16 * 1024 * 1024 } as const;

/**
 * About the bytes a parsed JSON value holds in memory, counted as V8 keeps it (an object about 56 bytes and 8 a
 * property, an array 16 and 8 an item, a string 16 and its characters): `[{},{}]` holds some 20 times its text.
 * One pass, with an explicit stack.
 */
export function keptBytes(value: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') bytes += 16 + node.length;
    else if (Array.isArray(node)) {
      bytes += 16 + 8 * node.length;
      for (const item of node) if (typeof item === 'object' || typeof item === 'string') stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      const keys = Object.keys(node);
      bytes += 56 + 8 * keys.length;
      for (const key of keys) {
        const item = (node as Record<string, unknown>)[key];
        if (typeof item === 'object' || typeof item === 'string') stack.push(item);
      }
    }
  }
  return bytes;
}

/** keptBytes of each seed the accounts load, counted once per seed (every world of the mock's seed loads the same). */
const seedBytes = new WeakMap<Seed, number>();
const bytesOf = (seed: Seed): number => {
  if (!seedBytes.has(seed)) seedBytes.set(seed, keptBytes(seed));
  return seedBytes.get(seed)!;
};

export function createAccounts(seed: Seed): Accounts {
  let own: Account;
  let loadedBytes = 0;
  let managed: Map<string, Account>;
  // The groups calls created, oldest first (a seed's own groups are not counted: the seed file is bounded).
  let created: { account: Account; group: JsonObject; bytes: number }[] = [];
  let createdBytes = 0;
  const forgetOldestCreated = () => {
    const oldest = created.shift()!;
    createdBytes -= oldest.bytes;
    const at = oldest.account.groups.indexOf(oldest.group);
    if (at !== -1) oldest.account.groups.splice(at, 1);
  };
  const load = (from: Seed = seed) => {
    created = [];
    createdBytes = 0;
    loadedBytes = bytesOf(from);
    own = copyAccount('own', from.account);
    managed = new Map();
    for (const entry of from.customers) managed.set(entry.zaaid, copyAccount('customer', entry));
    for (const entry of from.business_units) managed.set(entry.zaaid, copyAccount('business_unit', entry));
  };
  load();
  const strip = ({ kind: _kind, ...account }: Account) => structuredClone(account);
  return {
    get own() {
      return own;
    },
    actingOn: (zaaid) => (zaaid === undefined ? own : managed.get(zaaid)),
    list: (kind) =>
      [...managed.values()].filter((account) => account.kind === kind).map((account) => ({ name: account.name!, zaaid: account.zaaid! })),
    monitor: (account, id) => account.monitors.find((monitor) => String(monitor.monitor_id) === id),
    addGroup(account, group) {
      const kept = structuredClone(group);
      const bytes = keptBytes(kept);
      account.groups.push(kept);
      created.push({ account, group: kept, bytes });
      createdBytes += bytes;
      while (created.length > createdGroupBounds.groups || (createdBytes > createdGroupBounds.bytes && created.length > 1))
        forgetOldestCreated();
    },
    snapshot: () => {
      const accounts = [...managed.values()];
      const { name: _name, zaaid: _zaaid, ...ownAccount } = strip(own);
      return {
        account: ownAccount,
        customers: accounts.filter((account) => account.kind === 'customer').map(strip) as ManagedAccountSeed[],
        business_units: accounts.filter((account) => account.kind === 'business_unit').map(strip) as ManagedAccountSeed[],
      };
    },
    replace: load,
    reset: () => load(),
    heldBytes: () => loadedBytes + createdBytes,
    counts: () => {
      const all = [own, ...managed.values()];
      const sum = (of: (account: Account) => number) => all.reduce((total, account) => total + of(account), 0);
      return { accounts: all.length, monitors: sum((account) => account.monitors.length), groups: sum((account) => account.groups.length) };
    },
  };
}
