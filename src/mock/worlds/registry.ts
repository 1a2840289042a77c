// The worlds a mock keeps, and their bounds: how many besides the default, and the bytes they hold together, counted
// as each part of a simulator counts what it keeps (its accounts' copy of the seed and the groups calls created, what
// the identity provider remembers, the fault scripts, the journal: decision 0021), with the seed a world has of its
// own. Past a bound the world idle longest (no call under way, the least recently used) is forgotten, and its id is
// remembered so that its next call hears why; the default world is never forgotten, and never counted here (its own
// bounds hold it, as before there were worlds).
import { type CoverageReport, mergeCoverage } from '../../coverage/index.js';
import type { OpenApiDocument } from '../../description/openapi.js';
import { defaultJournalBytes } from '../../journal/index.js';
import { refuseUnknownKeys } from '../../options.js';
import { keptBytes } from '../../simulator/accounts.js';
import { createSimulator, type Simulator } from '../../simulator/index.js';
import { checkSeed } from '../../simulator/seed.js';
import { controlPrefix } from '../../simulator/test-api.js';
import { BoundedMap } from '../../simulator/token-store.js';
import type { Seed } from '../../simulator/types.js';
import type { MockBehaviour, WorldOptions, WorldSummary, WorldsReport } from '../types.js';
import { defaultWorldId, worldAddresses, worldIdFault, worldsPath } from './paths.js';

/** The bounds of the worlds besides the default by default: how many, and the bytes they hold together. */
export const defaultWorldLimits = { worlds: 100, bytes: 128 * 1024 * 1024 } as const;
/** The ids of forgotten worlds remembered, the newest, so that their calls hear why. */
const forgottenKept = 1_000;
/**
 * What a world holds beyond what its parts count: the simulator's objects, closures and empty maps (about 20 KB
 * measured, `npm run bench -- --only worlds`), counted above it.
 */
export const worldBytes = 32 * 1024;

/** The mock's own answer about a world: none of that id (404), one exists (409), forgotten (410), no room (503). */
export class WorldRefusal extends Error {
  constructor(
    readonly status: 404 | 409 | 410 | 503,
    message: string,
  ) {
    super(message);
  }
}

export interface World {
  readonly id: string;
  readonly simulator: Simulator;
  /** Calls under way in it: a world with one is not idle, and is not forgotten. */
  calls: number;
  /** The bytes of a seed of its own (a world of the mock's seed shares the default world's, which is the default's own). */
  readonly seedBytes: number;
  /** What it held when last counted, in the worlds' total. */
  held: number;
  /** Why it was forgotten or ended, once it is. */
  gone?: string | undefined;
}

const makeAgain = (id: string) =>
  `make it again with POST ${worldsPath} {"id": ${JSON.stringify(id)}}, or end it (DELETE ${worldsPath}/${id}) and the next call makes it anew`;

/** An id, checked: a TypeError naming the option (`id`, `from`) and the rule. */
export function checkedWorldId(name: string, id: unknown): string {
  const fault = worldIdFault(id);
  if (fault) throw new TypeError(`${name}: ${fault}`);
  return id as string;
}

export class WorldRegistry {
  readonly main: World;
  readonly limits: { worlds: number; bytes: number };
  /** The worlds besides the default, the one idle longest first (a use moves a world to the end). */
  private readonly live = new Map<string, World>();
  private readonly forgotten = new BoundedMap<string, string>(forgottenKept);
  private heldTotal = 0;
  private forgottenCount = 0;
  /** What the worlds forgotten or ended had counted of the coverage, merged: the run's coverage keeps it. */
  private retired: CoverageReport | undefined;
  private named = 0;

  constructor(
    private readonly document: OpenApiDocument,
    private readonly setup: MockBehaviour,
    /** The mock's own origin, from which token answers give each world's `api_domain`. */
    private readonly origin: () => string,
    limits: { worlds: number; bytes: number },
  ) {
    this.limits = limits;
    const simulator = createSimulator(document, setup, { apiRoot: this.apiRootOf(defaultWorldId) });
    this.main = { id: defaultWorldId, simulator, calls: 0, seedBytes: keptBytes(simulator.seed), held: 0 };
  }

  /** The world of an id that is one: the default, a live one, or none; a forgotten one throws why (410). */
  existing(id: string): World | undefined {
    if (id === defaultWorldId) return this.main;
    const gone = this.forgotten.get(id);
    if (gone !== undefined) throw new WorldRefusal(410, gone);
    return this.live.get(id);
  }

  /** The world of an id, made from the mock's seed on first use. */
  worldOf(id: string): World {
    return this.existing(id) ?? this.make(id);
  }

  /** A world made as the options say: its id (or a new one), from the mock's seed, a seed of its own, or a copy. */
  create(options: WorldOptions = {}): World {
    if (typeof options !== 'object' || options === null)
      throw new TypeError('the options of a world must be an object: { id, seed, from }');
    refuseUnknownKeys(options, ['id', 'seed', 'from'], 'the options of a world');
    if (options.seed !== undefined && options.from !== undefined)
      throw new TypeError('a world starts from a seed or from another world, not both');
    const id = options.id === undefined ? this.newId() : checkedWorldId('id', options.id);
    if (id === defaultWorldId || this.live.has(id))
      throw new WorldRefusal(409, `the world ${JSON.stringify(id)} exists: use it, or end it first (DELETE ${worldsPath}/${id})`);
    const seed = options.seed === undefined ? undefined : checkSeed(this.document, options.seed, 'seed');
    const from = options.from === undefined ? undefined : this.existing(checkedWorldId('from', options.from));
    if (options.from !== undefined && !from)
      throw new WorldRefusal(404, `from: no world ${JSON.stringify(options.from)} to copy (${defaultWorldId}, or a world made before)`);
    return this.make(id, { seed, from });
  }

  /** Ends a world (its next call makes it anew), or forgets that a forgotten one was. */
  end(id: string): void {
    if (id === defaultWorldId) throw new RangeError(`the default world is never ended (POST ${controlPrefix}/reset resets it)`);
    const world = this.live.get(id);
    if (world)
      this.drop(world, `the world ${JSON.stringify(id)} was ended (DELETE ${worldsPath}/${id}); a call to its addresses makes it anew`);
    else if (!this.forgotten.delete(id)) throw new WorldRefusal(404, `no world ${JSON.stringify(id)} (a call to its addresses makes it)`);
  }

  /** After a call or a control of a world: it is the most recently used, and what it holds is counted. */
  used(world: World): void {
    if (world === this.main || world.gone !== undefined) return;
    this.live.delete(world.id);
    this.live.set(world.id, world);
    const held = this.heldBy(world);
    this.heldTotal += held - world.held;
    world.held = held;
    const why = () =>
      `the worlds held more than ${this.limits.bytes} bytes together (--max-world-bytes, maxWorldBytes), and it was the one idle longest`;
    while (this.heldTotal > this.limits.bytes && this.forgetOldestIdle(world, why));
  }

  /** What a world holds: its state, a seed of its own, and the simulator's own objects. */
  heldBy(world: World): number {
    return worldBytes + world.seedBytes + world.simulator.heldBytes();
  }

  summary(world: World, origin: string): WorldSummary {
    const { baseUrl, authUrl, testApiUrl } = worldAddresses(world.id, origin);
    const counts = world.simulator.counts();
    return { id: world.id, base_url: baseUrl, auth_url: authUrl, test_api: testApiUrl, ...counts, held_bytes: this.heldBy(world) };
  }

  report(origin: string): WorldsReport {
    return {
      worlds: [this.main, ...this.live.values()].map((world) => this.summary(world, origin)),
      max_worlds: this.limits.worlds,
      max_world_bytes: this.limits.bytes,
      held_bytes: this.heldTotal,
      forgotten: this.forgottenCount,
    };
  }

  /**
   * The coverage of the whole run, every world's merged (those forgotten or ended included), and its clearing; none
   * when the mock counts no coverage.
   */
  runCoverage(): { report(): CoverageReport; clear(): void } | undefined {
    if (this.setup.coverage === false) return undefined;
    const worlds = () => [this.main, ...this.live.values()];
    return {
      report: () =>
        mergeCoverage([...worlds().map((world) => world.simulator.control.coverage()), ...(this.retired ? [this.retired] : [])]),
      clear: () => {
        for (const world of worlds()) world.simulator.control.clearCoverage();
        this.retired = undefined;
      },
    };
  }

  private apiRootOf(id: string): () => string {
    return () => worldAddresses(id, this.origin()).baseUrl;
  }

  private newId(): string {
    let id: string;
    do id = `world-${++this.named}`;
    while (this.live.has(id) || this.forgotten.has(id));
    return id;
  }

  /** Makes a world, forgetting the one idle longest when the worlds are at their bound. */
  private make(id: string, start: { seed?: Seed | undefined; from?: World | undefined } = {}): World {
    const why = () =>
      `the mock keeps at most ${this.limits.worlds} worlds besides the default (--max-worlds, maxWorlds), and it was the one idle longest when ${JSON.stringify(id)} was made`;
    if (this.live.size >= this.limits.worlds && !this.forgetOldestIdle(undefined, why))
      throw new WorldRefusal(
        503,
        `the mock holds ${this.live.size} worlds besides the default (--max-worlds, maxWorlds), each with a call under way: none can be forgotten to make ${JSON.stringify(id)}`,
      );
    const source = start.from?.simulator;
    const state = source?.control.state();
    // A copy starts from the source's accounts as they are, its clock's time and its random faults.
    const seed = start.seed ?? (state && { account: state.account, customers: state.customers, business_units: state.business_units });
    const options = state ? { ...this.setup, randomFaults: state.random_faults ?? undefined } : this.setup;
    const simulator = createSimulator(this.document, options, {
      apiRoot: this.apiRootOf(id),
      seed: seed ?? this.main.simulator.seed,
      clockOffsetMs: source && source.now() - (this.setup.clock ?? Date.now)(),
      // A world in use is never forgotten: its journal, the most it may grow by, holds no more than all the worlds may.
      journalBytes: Math.min(defaultJournalBytes, this.limits.bytes),
    });
    const world: World = { id, simulator, calls: 0, seedBytes: seed ? keptBytes(seed) : 0, held: 0 };
    this.forgotten.delete(id);
    this.used(world);
    return world;
  }

  private drop(world: World, why: string): void {
    if (this.setup.coverage !== false) {
      const counted = world.simulator.control.coverage();
      this.retired = this.retired ? mergeCoverage([this.retired, counted]) : counted;
    }
    this.live.delete(world.id);
    this.heldTotal -= world.held;
    world.gone = why;
  }

  /** Forgets the world idle longest but `keep`, remembering why; false when every other has a call under way. */
  private forgetOldestIdle(keep: World | undefined, why: () => string): boolean {
    for (const world of this.live.values())
      if (world !== keep && world.calls === 0) {
        const message = `the world ${JSON.stringify(world.id)} was forgotten: ${why()}; ${makeAgain(world.id)}`;
        this.drop(world, message);
        this.forgotten.set(world.id, message);
        this.forgottenCount++;
        return true;
      }
    return false;
  }
}
