// The simulator's controls as methods (`mock.control`): the developer console's registration and grant tokens, the
// clock, the faults, the state (read and set), the request journal, the coverage and the reset. The test API
// (test-api.ts) serves the same methods over HTTP.

import { type Coverage, coverageOff } from '../coverage/index.js';
import type { Journal } from '../journal/index.js';
import type { Accounts } from './accounts.js';
import { type SimulatedClock, serviceTime } from './clock.js';
import type { Faults } from './faults.js';
import type { TokenAuthority } from './tokens.js';
import type { MockControl, MockState, Seed } from './types.js';

export interface ControlParts {
  clock: SimulatedClock;
  accounts: Accounts;
  tokens: TokenAuthority;
  faults: Faults;
  strict: boolean;
  journal: Journal;
  /** The coverage's counter; undefined when the mock counts nothing (`coverage: false`). */
  coverage: Coverage | undefined;
  /** A seed checked as `--seed` is (throws a SeedError): the state's accounts in the shape `setState` takes. */
  checkSeed(value: unknown): Seed;
}

export function createControl({ clock, accounts, tokens, faults, strict, journal, coverage, checkSeed }: ControlParts): MockControl {
  const counting = () => {
    if (!coverage) throw new TypeError(coverageOff);
    return coverage;
  };
  const control: MockControl = {
    registerClient: () => tokens.registerClient(),
    grantCode: (request) => tokens.grantCode(request),
    advanceClock: (ms) => ({ now: serviceTime(clock.advance(ms)) }),
    fault: (script) => faults.script(script),
    randomFaults: (settings) => faults.random(settings) ?? null,
    state: (): MockState => ({
      now: serviceTime(clock.now()),
      strict_tokens: strict,
      ...accounts.snapshot(),
      tokens: tokens.counts(),
      faults: faults.pending(),
      random_faults: faults.randomSettings() ?? null,
    }),
    setState(value) {
      // The seed reader leaves aside what a state shows and a seed does not set (the time, token counts, faults).
      accounts.replace(checkSeed(value));
      return control.state();
    },
    requests: (filter) => journal.requests(filter),
    clearRequests: () => journal.clear(),
    coverage: () => counting().report(),
    clearCoverage: () => counting().clear(),
    reset() {
      accounts.reset();
      tokens.reset();
      faults.reset();
      clock.reset();
    },
  };
  return control;
}
