// The public types of the mock's simulation (src/mock/simulator.ts): what a test reads of the state and scripts. Apart
// from the simulation itself, so that a user's types need nothing of Node's.
import type { Json } from '../description/openapi.js';

/** How the mock answers: from the description's examples, or from a simulation of the service's state. */
export type MockMode = 'examples' | 'simulate';

export interface Account {
  /** `main`, or the zaaid of a customer (MSP) or business unit (BU portal). */
  id: string;
  kind: 'main' | 'customer' | 'business unit';
  name: string;
  monitors: Json[];
  groups: Json[];
}

export interface Fault {
  /** The operationId whose next answers this replaces. */
  operation: string;
  /** A status the operation documents (429, 500, 503...). */
  status: number;
  /** Retry-After of the answer, in seconds. */
  retry_after_s?: number | undefined;
  /** Answer this much later. */
  delay_ms?: number | undefined;
  /** How many answers. Default 1. */
  count?: number | undefined;
}

/** What a test sees of the state: the accounts with their monitors and groups. */
export interface SimulatedState {
  accounts: Account[];
  faults: Fault[];
}

/** What a test drives the simulation with (`mock.simulation`). */
export interface SimulationControls {
  /** The accounts with their monitors and groups, and the faults still scripted. */
  state(): SimulatedState;
  /** Back to the state seeded from the description's examples; no fault scripted. */
  reset(): void;
  /** Scripts the next answers of an operation; throws a TypeError naming what is wrong. */
  fault(fault: Fault): void;
}
