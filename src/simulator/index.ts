// The simulator: the mock's answers that depend on state. Prism's engine has already validated the call (and made
// the documented example answer); the simulator decides what the service would answer now:
// 1. a scripted or random fault of the operation, if one is due (a status, a delay, or both: faults.ts);
// 2. on the identity provider: grant tokens, refresh tokens and access tokens with the limits of section 8
//    (identity.ts, tokens.ts);
// 3. on the API: the access token, the account of the `zaaid` cookie, the documented scopes, then the account's own
//    data (resources.ts, accounts.ts).
// Each answer is a documented one: the engine's example with the account's data in `data`, or a named example of
// the description (MonitorNotFound, NotAuthorizedForAccount), in the media type the description gives (answers.ts).
// Each step names the behaviours it plays (behaviours.ts). The test API drives it (control.ts as methods, test-api.ts
// over HTTP); every exchange is recorded once, in the request journal (journal.ts) and the coverage (src/coverage/).
import { setTimeout as sleep } from 'node:timers/promises';
import { type Coverage, createCoverage } from '../coverage/index.js';
import { deref, listOf, type OpenApiDocument, operationsById, perDocument } from '../description/openapi.js';
import type { RouteMatch, RouteOperation } from '../description/routes.js';
import type { Answer, Call } from '../http/exchange.js';
import { OptionError, option, wording } from '../options.js';
import { createAccounts } from './accounts.js';
import { documentedAnswers } from './answers.js';
import { type Behaviour, behaviours } from './behaviours.js';
import { createClock, serviceTime } from './clock.js';
import { createControl } from './control.js';
import { createFaults, type Fault, faultBehaviours } from './faults.js';
import { createIdentityProvider } from './identity.js';
import { createSimulatorJournal } from './journal.js';
import { createResources } from './resources.js';
import { createRoles } from './roles.js';
import { checkSeed, defaultSeed, readSeedFile, SeedError } from './seed.js';
import { controlAnswer, isControlPath } from './test-api.js';
import { createTokenAuthority } from './tokens.js';
import type { MockControl, Seed, SimulatorOptions, StateCounts } from './types.js';

export type { Behaviour } from './behaviours.js';
export { SeedError } from './seed.js';
export { isControlPath } from './test-api.js';
export type { SimulatorOptions } from './types.js';

/** What the simulator played in an answer: the behaviours, and the fault it injected. */
export interface Played {
  answer: Answer;
  behaviours: readonly Behaviour[];
  fault?: Fault | undefined;
}

/** One call as the mock decided it, recorded once it is answered. */
export interface Outcome {
  answer: Answer;
  /** The route and operation the call matched, if any. */
  match: RouteMatch | undefined;
  /** The contract refused the call (the mock's checks, Prism's engine): the simulator never saw it. */
  refused: boolean;
  /** The behaviours the simulator played (none when it did not answer). */
  behaviours: readonly Behaviour[];
  fault?: Fault | undefined;
}

export interface Simulator {
  readonly control: MockControl;
  /** The seed it started from, checked (a reset goes back to it). */
  readonly seed: Seed;
  /** The answer of the test API (`/__mock/...`). */
  controlAnswer(call: Call): Answer;
  /**
   * The state-dependent answer to a call the contract accepts, and what it played. `example` is the engine's answer
   * from the description's examples, which the simulator keeps, changes or replaces.
   */
  answer(call: Call, operation: RouteOperation, example: Answer, signal?: AbortSignal): Promise<Played>;
  /** Records an exchange in the request journal and the coverage (the test API's own calls are left out). */
  record(call: Call, outcome: Outcome): void;
  /** The simulated time, epoch ms. */
  now(): number;
  /**
   * The bytes its state holds beyond its seed (which may be shared): the accounts' copy and the groups calls created,
   * what the identity provider remembers, the fault scripts and the journal, each counted as its own bound counts it.
   */
  heldBytes(): number;
  /** Its state in counts, for the list of worlds: never a token or an account's data. */
  counts(): StateCounts;
}

/** How a simulator is wired to what is around it (the mock's worlds make theirs so). */
export interface SimulatorWiring {
  /**
   * The mock's own API root, which token answers carry as `api_domain` (a client that follows it reaches the mock):
   * the server's once it listens; default `https://mock.invalid/api`, in-process.
   */
  apiRoot?: (() => string) | undefined;
  /** The seed to start from, checked already (a world's), instead of the options' `seed`. */
  seed?: Seed | undefined;
  /** How far ahead of its source the clock starts, in ms (a world made as a copy of another starts at its time). */
  clockOffsetMs?: number | undefined;
  /** The most bytes its journal holds (a world's: no more than all the worlds may hold); default the journal's own. */
  journalBytes?: number | undefined;
}

/** What every simulator of a document shares, read of it once: roles, scopes, operations, documented answers. */
const shared = perDocument((document) => {
  const scopeSchema = deref(document, document.components?.schemas?.Scope);
  return {
    roles: createRoles(document),
    scopes: listOf(scopeSchema?.enum).filter((scope): scope is string => typeof scope === 'string'),
    operations: [...operationsById(document).keys()],
    answers: documentedAnswers(document),
  };
});

/** The seed of the options: a file's path, a value, or the description's examples. Throws a SeedError. */
function seedOf(document: OpenApiDocument, seed: SimulatorOptions['seed']): Seed {
  if (seed === undefined) return defaultSeed(document);
  return typeof seed === 'string' ? readSeedFile(document, seed) : checkSeed(document, seed, '(the seed option)');
}

/** Checks the coverage option: counting is on unless it is false. */
function coverageOption(value: unknown): boolean {
  if (value === undefined || value === true) return true;
  if (value === false) return false;
  throw new OptionError(wording`${option('coverage')} must be true or false, not ${JSON.stringify(value)}`);
}

/** A state to set (`PUT /__mock/state`), checked as a seed: a SeedError saying the state did not change. */
function stateSeed(document: OpenApiDocument, value: unknown): Seed {
  try {
    return checkSeed(document, value, 'state');
  } catch (error) {
    if (error instanceof SeedError) throw new SeedError('state', error.faults, 'The state is not a valid seed, so it did not change');
    throw error;
  }
}

/** Makes the simulator on a (mock) document: its state, on what every simulator of the document shares. */
export function createSimulator(document: OpenApiDocument, options: SimulatorOptions = {}, wiring: SimulatorWiring = {}): Simulator {
  const { apiRoot = () => 'https://mock.invalid/api' } = wiring;
  const { roles, scopes, operations, answers } = shared(document);
  const strict = options.strictTokens === true;
  const clock = createClock(options.clock, wiring.clockOffsetMs);
  const seed = wiring.seed ?? seedOf(document, options.seed);
  const accounts = createAccounts(seed);
  const tokens = createTokenAuthority({ clock, strict, scopes, roles: roles.ids });
  const faults = createFaults({ operations, random: options.randomFaults });
  const identity = createIdentityProvider(tokens, apiRoot);
  const resources = createResources(document, { accounts, tokens, answers, roles });
  const recorder = createSimulatorJournal(document, { clock, tokens, size: options.journalSize, maxBytes: wiring.journalBytes });
  const coverage: Coverage | undefined = coverageOption(options.coverage) ? createCoverage(document, { behaviours }) : undefined;
  const control = createControl({
    clock,
    accounts,
    tokens,
    faults,
    strict,
    journal: recorder.journal,
    coverage,
    checkSeed: (value) => stateSeed(document, value),
  });

  const heldBytes = () => accounts.heldBytes() + tokens.heldBytes() + faults.heldBytes() + recorder.journal.held().bytes;

  return {
    control,
    seed,
    controlAnswer: (call) => controlAnswer(control, call, { journal: recorder.journal, coverage }),
    async answer(call, operation, example, signal) {
      const fault = faults.next(operation.operationId);
      const played: Behaviour[] = fault ? faultBehaviours(fault) : [];
      if (fault && fault.delayMs > 0) await sleep(fault.delayMs, undefined, signal ? { signal } : undefined);
      if (fault?.status !== undefined)
        return { answer: answers.fault(operation, fault as Fault & { status: number }), behaviours: played, fault };
      const answer = operation.securityHeaders.includes('authorization')
        ? resources.answer(call, operation, example, played)
        : identity.answer(call, operation, example, played);
      return { answer, behaviours: played, fault };
    },
    record(call, outcome) {
      if (isControlPath(call.path)) return;
      recorder.record(call, outcome);
      coverage?.count({ call, ...outcome });
    },
    now: () => clock.now(),
    heldBytes,
    counts: () => ({
      now: serviceTime(clock.now()),
      ...accounts.counts(),
      tokens: tokens.counts(),
      faults: faults.pending().length,
      requests: recorder.journal.held().entries,
    }),
  };
}
