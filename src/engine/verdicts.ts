// The engine's verdicts, kept. In mock mode the engine's result for a request (its validations, its refusal, the
// example answer its mocker makes) depends on nothing but what it is handed: the request as it reads it, the
// operations it routes among and the preferences. A request it has judged comes back with the same verdict, so the
// mock keeps the last verdicts (a bounded number, of small requests with few findings) and hands the same one out
// again. A dynamic answer (Prefer: dynamic=true) or an operation with callbacks (the mocker calls them) is judged
// every time. Decision 0018.

import { deepFreeze } from './answers.js';
import type { EngineInput, EngineResult, EngineRoute, MockCallConfig } from './prism.js';

/**
 * How many verdicts are kept; the longest key (the JSON of what the engine reads of a request) and the longest
 * findings (the JSON of its validations or refusal) of a verdict that is kept. Together they bound the memory: at
 * most 256 × 16 KiB of characters, besides the example answers, which the description bounds.
 */
export interface VerdictLimits {
  entries: number;
  keyCharacters: number;
  findingCharacters: number;
}

/** A request larger than a few kilobytes costs more to judge than to key, and is rare. */
export const verdictLimits: VerdictLimits = { entries: 256, keyCharacters: 8 * 1024, findingCharacters: 8 * 1024 };

type Judge = (input: EngineInput, mock: MockCallConfig, route: EngineRoute | undefined) => Promise<EngineResult>;

/** Thrown while a key is written when the request gets none: JSON cannot write it exactly, or it is too long. */
const noKey = new Error('no key');

/**
 * What JSON writes of a request, checked as it is written: Infinity (a number literal too large, `1e400`, parses to
 * it) would be written as null, and a request past `maxCharacters` (counted from its names and texts) is not kept, so
 * a large body is not written whole only to be dropped.
 */
function exactly(maxCharacters: number) {
  let characters = 0;
  return (key: string, value: unknown) => {
    if (typeof value === 'number' && !Number.isFinite(value)) throw noKey;
    characters += key.length + (typeof value === 'string' ? value.length : 1);
    if (characters > maxCharacters) throw noKey;
    return value;
  };
}

/**
 * Everything the engine reads of one call, as one text: two calls with the same key get the same verdict; none when
 * JSON cannot write it exactly or it is longer than `maxCharacters`. A body that is absent and a JSON `null` differ
 * (`[]` and `[null]`); the input's keys are in the order the call gave them.
 */
function keyOf(input: EngineInput, mock: MockCallConfig, route: EngineRoute | undefined, maxCharacters: number): string | undefined {
  try {
    const key = JSON.stringify(
      [
        route?.method ?? null,
        route?.template ?? null,
        mock.code ?? null,
        mock.exampleKey ?? null,
        input.method,
        input.url.path,
        input.url.query,
        input.headers,
        input.body === undefined ? [] : [input.body],
      ],
      exactly(maxCharacters),
    );
    return key.length > maxCharacters ? undefined : key;
  } catch (error) {
    if (error === noKey) return undefined;
    throw error;
  }
}

/** The length of what a verdict found (validations, or the refusal with its violations), as JSON. */
const findingLength = (verdict: EngineResult): number => JSON.stringify(verdict.ok ? verdict.validations : verdict.error).length;

/** Whether none of the operations has callbacks (the engine's mocker calls those: its verdict is not all it does). */
export function withoutCallbacks(operations: unknown[]): boolean {
  return !operations.some((operation) => ((operation as { callbacks?: unknown[] }).callbacks?.length ?? 0) > 0);
}

/**
 * The engine's judge with its verdicts kept (frozen: one verdict serves many readers). `judgedAlike` says whether the
 * operations a call is routed to give the same verdict every time (none has callbacks).
 */
export function keptVerdicts(judge: Judge, judgedAlike: (route: EngineRoute | undefined) => boolean, limits = verdictLimits): Judge {
  const verdicts = new Map<string, EngineResult>();
  return async (input, mock, route) => {
    if (mock.dynamic || !judgedAlike(route)) return judge(input, mock, route);
    const key = keyOf(input, mock, route, limits.keyCharacters);
    if (key === undefined) return judge(input, mock, route);
    const kept = verdicts.get(key);
    if (kept) return kept;
    const verdict = await judge(input, mock, route);
    if (findingLength(verdict) > limits.findingCharacters) return verdict;
    // The oldest verdict makes room: a suite's repeated calls are usually close together.
    if (verdicts.size >= limits.entries) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, deepFreeze(verdict));
    return verdict;
  };
}
