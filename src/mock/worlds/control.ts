// The worlds as methods (`mock.control.createWorld()`, `world(id)`, `worlds()`, `deleteWorld(id)`, `runCoverage()`):
// the same as the endpoints of `/__mock/worlds` and `/__mock/coverage/all`, with the worlds' refusals as errors.
import { coverageOff } from '../../coverage/index.js';
import type { MockControl } from '../../simulator/types.js';
import type { MockWorld, MockWorlds } from '../types.js';
import { worldAddresses } from './paths.js';
import { checkedWorldId, type World, WorldRefusal, type WorldRegistry } from './registry.js';

/** In code, a refusal of the worlds is an error: a wrong id a RangeError, a forgotten world or a full mock an Error. */
function inCode<T>(act: () => T): T {
  try {
    return act();
  } catch (error) {
    if (!(error instanceof WorldRefusal)) throw error;
    throw error.status === 404 || error.status === 409 ? new RangeError(error.message) : new Error(error.message);
  }
}

/** A world's controls: each first checks that the world is still there, and its state is counted after. */
function guarded(registry: WorldRegistry, world: World): MockControl {
  const methods = Object.entries(world.simulator.control) as [string, (...args: unknown[]) => unknown][];
  const control = methods.map(([name, method]) => {
    const call = (...args: unknown[]) => {
      if (world.gone !== undefined) throw new Error(world.gone);
      try {
        return method(...args);
      } finally {
        registry.used(world);
      }
    };
    return [name, call] as const;
  });
  return Object.fromEntries(control) as unknown as MockControl;
}

/** The run's coverage, or the TypeError of a mock that counts none (as a world's `coverage()` throws). */
function counted(registry: WorldRegistry) {
  const coverage = registry.runCoverage();
  if (!coverage) throw new TypeError(coverageOff);
  return coverage;
}

/** The worlds' controls of a registry, their addresses from the mock's own origin. */
export function worldControls(registry: WorldRegistry, origin: () => string): MockWorlds {
  const worldOf = (world: World): MockWorld => ({
    id: world.id,
    ...worldAddresses(world.id, origin()),
    control: world === registry.main ? world.simulator.control : guarded(registry, world),
  });
  return {
    createWorld: (options) => inCode(() => worldOf(registry.create(options))),
    world: (id) => inCode(() => worldOf(registry.worldOf(checkedWorldId('id', id)))),
    worlds: () => registry.report(origin()),
    deleteWorld: (id) => inCode(() => registry.end(checkedWorldId('id', id))),
    runCoverage: () => counted(registry).report(),
    clearRunCoverage: () => counted(registry).clear(),
  };
}
