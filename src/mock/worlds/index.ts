// The mock's worlds: one mock process, many simulator states that share nothing but the description and Prism's
// engine. Test workers and services that share one mock (a compose file's mock container, a suite's parallel workers
// in any language) each take a world, and no worker sees another's accounts, tokens, clock, faults or journal.
//
//   /api, /oauth/v2/token, /__mock/...                   the default world: the mock's usual addresses, unchanged
//   /worlds/{id}/api, /worlds/{id}/oauth/v2/token, ...   the world {id}, for clients pointed at it by base URLs
//   /worlds/{id}/__mock/...                              its test API (under the test API's rules)
//
// A world is made on first use (a worker names its own, `gw0`, and needs no set-up call), by `POST /__mock/worlds`
// (from the mock's seed, a seed of its own, or a copy of another world), or by `control.createWorld()`: addresses in
// paths.ts, the worlds and their bounds in registry.ts, the endpoints in http.ts, the methods in control.ts. The
// default world's calls do none of this file's work.
import type { OpenApiDocument } from '../../description/openapi.js';
import { type Answer, type Call, createCall, errorAnswer, quote, splitTarget } from '../../http/exchange.js';
import { positiveWholeNumber } from '../../options.js';
import type { Simulator } from '../../simulator/index.js';
import { controlPrefix } from '../../simulator/test-api.js';
import type { MockBehaviour, MockWorlds } from '../types.js';
import { worldControls } from './control.js';
import { refusalAnswer, worldsAnswer } from './http.js';
import { isWorldsControlPath, worldIdFault, worldPathOf, worldsPath, worldsPrefix } from './paths.js';
import { defaultWorldLimits, type World, WorldRefusal, WorldRegistry } from './registry.js';

export { defaultWorldId, isTestApiPath, isWorldsControlPath, worldPathOf, worldsEndpoints } from './paths.js';
export { defaultWorldLimits } from './registry.js';

export interface Worlds {
  /** The default world's simulator. */
  readonly main: Simulator;
  /**
   * The answer to a call under `/worlds/`: `respond` answers it in its world, as the world sees it (its path without
   * the prefix); or the mock's own answer (a wrong id 400, a forgotten world 410, the worlds full 503).
   */
  answer(call: Call, respond: (simulator: Simulator, call: Call) => Promise<Answer>): Promise<Answer>;
  /** The answer of the worlds' endpoints of the test API (`/__mock/worlds...`), their addresses from `origin`. */
  controlAnswer(call: Call, origin: string): Answer;
  /** The worlds' controls in code, their addresses from the mock's own origin. */
  controls(origin: () => string): MockWorlds;
}

/** The bounds of the options, checked (a TypeError naming the option). */
export function worldLimits(setup: Pick<MockBehaviour, 'maxWorlds' | 'maxWorldBytes'>): { worlds: number; bytes: number } {
  return {
    worlds: positiveWholeNumber('maxWorlds', setup.maxWorlds, defaultWorldLimits.worlds),
    bytes: positiveWholeNumber('maxWorldBytes', setup.maxWorldBytes, defaultWorldLimits.bytes),
  };
}

/**
 * The worlds of a mock on a (mock) document: the default one made at once (a wrong seed throws here), the others on
 * demand. `origin` gives the mock's own origin, from which token answers give each world's `api_domain`.
 */
export function createWorlds(document: OpenApiDocument, setup: MockBehaviour, origin: () => string): Worlds {
  const registry = new WorldRegistry(document, setup, origin, worldLimits(setup));
  return {
    main: registry.main.simulator,
    async answer(call, respond) {
      const routed = route(registry, call);
      if ('status' in routed) return routed;
      const { world } = routed;
      registry.used(world);
      world.calls++;
      try {
        return await respond(world.simulator, routed.call);
      } finally {
        world.calls--;
        registry.used(world);
      }
    },
    controlAnswer: (call, at) => worldsAnswer(registry, call, at),
    controls: (at) => worldControls(registry, at),
  };
}

/** The world of a call under `/worlds/{id}`, made on first use, and the call as the world sees it; or the refusal. */
function route(registry: WorldRegistry, call: Call): { world: World; call: Call } | Answer {
  const path = worldPathOf(call.path)!;
  if (path.id === '')
    return errorAnswer(
      404,
      `${quote(call.path, 80)} names no world: a world's addresses are ${worldsPrefix}/{id}/api, ${worldsPrefix}/{id}/oauth/v2/token and ${worldsPrefix}/{id}${controlPrefix}`,
    );
  const fault = worldIdFault(path.id);
  if (fault) return errorAnswer(400, fault);
  if (isWorldsControlPath(path.rest))
    return errorAnswer(404, `worlds are made, listed and ended by the mock's own test API (${worldsPath}), not by a world's`);
  try {
    const world = registry.worldOf(path.id);
    const [, query] = splitTarget(call.url);
    const url = query === undefined ? path.rest : `${path.rest}?${query}`;
    return { world, call: createCall({ method: call.method, url, headers: call.headers, body: call.body }) };
  } catch (error) {
    if (error instanceof WorldRefusal) return refusalAnswer(error);
    throw error;
  }
}
