// The mock's answer to one request, whatever carried it: the checks of exchange.ts and policy.ts, then Prism's
// engine on the mock document, which validates the request and makes the documented example answer; then, by
// default, the simulator (src/simulator/) of the call's world (worlds/), which decides the answers that depend on
// state, and records each exchange once answered, as decided (the route it matched, whether the contract refused it,
// what the simulator played). Shared by the HTTP server (startMock) and the in-process fetch (createMockFetch).

import type { OpenApiDocument } from '../description/openapi.js';
import { engineFor } from '../engine/packaged.js';
import type { EngineMode, EngineResult } from '../engine/prism.js';
import { engineInput } from '../engine/translate.js';
import { type Answer, type Call, checkCall, errorAnswer } from '../http/exchange.js';
import { OptionError, option, wording } from '../options.js';
import { isControlPath, type Outcome, type Simulator } from '../simulator/index.js';
import { mockPolicy } from './policy.js';
import type { MockBehaviour, MockMode } from './types.js';
import { createWorlds, isWorldsControlPath, type Worlds, worldPathOf } from './worlds/index.js';

export type MockHandler = (call: Call, signal?: AbortSignal) => Promise<Answer>;

/** Whether the engine took the request as the contract allows it (no refusal, no violation of the request). */
const accepted = (result: EngineResult): boolean => result.ok && !result.validations.input.some((validation) => validation.severity === 0);

export interface PreparedMock {
  /** Resolves once Prism's engine and the operations are loaded. */
  handler: Promise<MockHandler>;
  /** The worlds and their simulators, in simulator mode: made at once (a wrong seed file throws here, before anything starts). */
  worlds: Worlds | undefined;
}

/** Checks the mode option. */
export function mockMode(mode: unknown): MockMode {
  if (mode === undefined || mode === 'simulator') return 'simulator';
  if (mode === 'examples') return 'examples';
  throw new OptionError(wording`${option('mode')} must be 'simulator' or 'examples', not ${JSON.stringify(mode)}`);
}

/** How a mock is wired to what is around it. */
export interface MockWiring {
  /**
   * The origin of the mock's addresses (its API root is the origin and `/api`), as a call reached it when one is given
   * (a Host header over HTTP), else its own: token answers carry a world's API root as `api_domain`, and the worlds'
   * endpoints answer their addresses. Default `https://mock.invalid`.
   */
  origin?: ((call?: Call) => string) | undefined;
  /** The engine's mode: its full path, for the tests that compare it with the fast one. Default the fast path. */
  engineMode?: Extract<EngineMode, { kind: 'mock' }> | undefined;
}

/** The examples mode's answer to the simulator's addresses: the test API and the worlds. */
const simulatorOnly = (call: Call, what: string) =>
  errorAnswer(404, `${what} (${call.path}) is the simulator's, and this mock replays the description's examples (mode 'examples')`);

/**
 * The mock on a description (a bundled document; this package's by default). The simulator is made at once; the
 * handler resolves once Prism's engine and the operations are loaded.
 */
export function prepareMock(description?: OpenApiDocument, setup: MockBehaviour = {}, wiring: MockWiring = {}): PreparedMock {
  const { origin = () => 'https://mock.invalid', engineMode = { kind: 'mock' } } = wiring;
  const mode = mockMode(setup.mode);
  const prepared = engineFor(description, engineMode);
  const policy = mockPolicy(prepared.document, { pairedExamples: mode === 'examples' });
  const worlds = mode === 'simulator' ? createWorlds(prepared.document, setup, () => origin()) : undefined;
  const handler = prepared.engine.then((engine): MockHandler => {
    /** A call as a world's simulator (or, in mode 'examples', the engine alone) decides it. */
    const decide = async (simulator: Simulator | undefined, call: Call, signal?: AbortSignal): Promise<Outcome> => {
      // The test API is no operation: its calls are answered, never recorded.
      const match = isControlPath(call.path) ? undefined : policy.match(call);
      const refused = (answer: Answer): Outcome => ({ answer, match, refused: true, behaviours: [] });
      try {
        const fault = checkCall(call);
        if (fault) return refused(fault);
        if (isControlPath(call.path)) {
          const answer = simulator ? simulator.controlAnswer(call) : simulatorOnly(call, 'the test API');
          return { answer, match, refused: false, behaviours: [] };
        }
        const decision = policy.before(call, match);
        if ('answer' in decision) return refused(decision.answer);
        // The policy has routed the call (it answers those that reach no operation): the engine routes among the
        // operations that could answer that route only.
        const result = await engine.request(engineInput(call, decision.headers), decision.engine, match?.operation);
        const answer = policy.answer(call, match?.operation, result);
        if (!accepted(result)) return refused(answer);
        if (!simulator || !match?.operation || decision.preferred) return { answer, match, refused: false, behaviours: [] };
        return { ...(await simulator.answer(call, match.operation, answer, signal)), match, refused: false };
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        // A fault of the mock itself, not of the request: say so, and keep serving.
        const answer = errorAnswer(500, `the mock failed on ${call.method} ${call.path} (${(error as Error).message})`);
        return { answer, match, refused: false, behaviours: [] };
      }
    };
    if (!worlds)
      return async (call, signal) =>
        worldPathOf(call.path) ? simulatorOnly(call, 'a world') : (await decide(undefined, call, signal)).answer;
    // Every exchange is recorded once answered, as decided, in its world's journal and coverage.
    const recorded = async (simulator: Simulator, call: Call, signal?: AbortSignal) => {
      const outcome = await decide(simulator, call, signal);
      simulator.record(call, outcome);
      return outcome.answer;
    };
    return (call, signal) => {
      if (worldPathOf(call.path)) return worlds.answer(call, (simulator, inner) => recorded(simulator, inner, signal));
      // The worlds' endpoints of the test API check a call as every other call is checked (its body's encoding...).
      if (isWorldsControlPath(call.path)) return Promise.resolve(checkCall(call) ?? worlds.controlAnswer(call, origin(call)));
      return recorded(worlds.main, call, signal);
    };
  });
  return { handler, worlds };
}

/** The mock's handler on a description (this package's by default): resolves once Prism's engine is loaded. */
export function createMockHandler(description?: OpenApiDocument, setup?: MockBehaviour): Promise<MockHandler> {
  return prepareMock(description, setup).handler;
}
