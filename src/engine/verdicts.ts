// The engine's verdicts, kept. In mock mode the engine's result for a request (its validations, its refusal, the
// example answer its mocker makes) depends on nothing but what it is handed: the request as it reads it, the
// operations it routes among and the preferences. A request it has judged comes back with the same verdict, so the
// mock keeps the last verdicts (a bounded number, of small requests only) and hands the same one out again. A
// dynamic answer (Prefer: dynamic=true) or an operation with callbacks (the mocker calls them) is judged every time.
// Decision 0018.

import { deepFreeze } from './answers.js';
import type { EngineInput, EngineResult, EngineRoute, MockCallConfig } from './prism.js';

/** How many verdicts are kept, and the largest request (as its key) that is kept: together they bound the memory. */
export interface VerdictLimits {
  entries: number;
  keyCharacters: number;
}

/** About 4 MiB of keys at most; a request larger than a few kilobytes costs more to judge than to key, and is rare. */
export const verdictLimits: VerdictLimits = { entries: 256, keyCharacters: 8 * 1024 };

type Judge = (input: EngineInput, mock: MockCallConfig, route: EngineRoute | undefined) => Promise<EngineResult>;

/**
 * Everything the engine reads of one call, as one text: two calls with the same key get the same verdict. A body
 * that is absent and a JSON `null` differ (`[]` and `[null]`); the input's keys are in the order the call gave them.
 */
function keyOf(input: EngineInput, mock: MockCallConfig, route: EngineRoute | undefined): string {
  return JSON.stringify([
    route?.method ?? null,
    route?.template ?? null,
    mock.code ?? null,
    mock.exampleKey ?? null,
    input.method,
    input.url.path,
    input.url.query,
    input.headers,
    input.body === undefined ? [] : [input.body],
  ]);
}

/**
 * The engine's judge with its verdicts kept (frozen: one verdict serves many readers). `judgedAlike` says whether the
 * operations a call is routed to give the same verdict every time (none has callbacks).
 */
export function keptVerdicts(judge: Judge, judgedAlike: (route: EngineRoute | undefined) => boolean, limits = verdictLimits): Judge {
  const verdicts = new Map<string, EngineResult>();
  return async (input, mock, route) => {
    if (mock.dynamic || !judgedAlike(route)) return judge(input, mock, route);
    const key = keyOf(input, mock, route);
    if (key.length > limits.keyCharacters) return judge(input, mock, route);
    const kept = verdicts.get(key);
    if (kept) return kept;
    const verdict = deepFreeze(await judge(input, mock, route));
    // The oldest verdict makes room: a suite's repeated calls are usually close together.
    if (verdicts.size >= limits.entries) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, verdict);
    return verdict;
  };
}
