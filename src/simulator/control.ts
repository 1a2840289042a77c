// The simulator's controls as methods (`mock.control`): the developer console's registration and grant tokens, the
// clock, the faults, the state and the reset. The test API (test-api.ts) serves the same methods over HTTP.
import { serviceTime, type SimulatedClock } from './clock.js';
import type { Accounts } from './accounts.js';
import type { Faults } from './faults.js';
import type { TokenAuthority } from './tokens.js';
import type { MockControl, MockState } from './types.js';

export interface ControlParts {
  clock: SimulatedClock;
  accounts: Accounts;
  tokens: TokenAuthority;
  faults: Faults;
  strict: boolean;
}

export function createControl({ clock, accounts, tokens, faults, strict }: ControlParts): MockControl {
  return {
    registerClient: () => tokens.registerClient(),
    grantCode: (request) => tokens.grantCode(request),
    advanceClock: (ms) => ({ now: serviceTime(clock.advance(ms)) }),
    fault: (script) => faults.script(script),
    randomFaults: (settings) => faults.random(settings),
    state: (): MockState => ({
      now: serviceTime(clock.now()),
      strict_tokens: strict,
      ...accounts.snapshot(),
      tokens: tokens.counts(),
      faults: faults.pending(),
      random_faults: faults.randomSettings() ?? null,
    }),
    reset() {
      accounts.reset();
      tokens.reset();
      faults.reset();
      clock.reset();
    },
  };
}
