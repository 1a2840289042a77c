// Faults and latency on demand, beyond `Prefer`: scripts of the next N answers of an operation (a status such as 429
// with Retry-After, 500 or 503, and/or a delay), and a seeded random fault rate and latency range for soak tests.
// The random source is drawn three times for every request it sees, fault or not, so the same seed and the same
// requests give the same sequence.

import { isWhole, refuseUnknownKeys } from '../options.js';
import { keptBytes } from './accounts.js';
import type { Behaviour } from './behaviours.js';
import type { CheckedFaultScript, CheckedRandomFaults, FaultScript, PendingFault, RandomFaults } from './types.js';

/** What happens to one answer: a status instead of it, and/or a wait before it. */
export interface Fault {
  status?: number | undefined;
  retryAfterS?: number | undefined;
  delayMs: number;
  /** `script` or `random`: where the fault comes from, for the answer's message. */
  source: 'script' | 'random';
}

/**
 * The behaviours a fault plays, by kind: a status with Retry-After (429, 503), a 5xx or a 4xx without it, a delay;
 * a status with a delay plays two.
 */
export function faultBehaviours(fault: Fault): Behaviour[] {
  const played: Behaviour[] = [];
  if (fault.status !== undefined)
    played.push(fault.retryAfterS !== undefined ? 'fault-retry-after' : fault.status >= 500 ? 'fault-server-error' : 'fault-client-error');
  if (fault.delayMs > 0) played.push('fault-delay');
  return played;
}

export interface Faults {
  /** Adds a script, checked first: throws a TypeError or RangeError naming the fault of it. */
  script(script: FaultScript): CheckedFaultScript;
  /** Sets (or with undefined, clears) the random faults; the sequence starts again from the seed. Gives them checked. */
  random(settings: RandomFaults | undefined): CheckedRandomFaults | undefined;
  /** The fault of the next answer of an operation, if any (a script first; the random draw happens regardless). */
  next(operation: string): Fault | undefined;
  /** The random fault settings in force, if any. */
  randomSettings(): CheckedRandomFaults | undefined;
  /** The scripts still to play, in order. */
  pending(): PendingFault[];
  /** Back to the start: no scripts, the random faults of the start options from their seed. */
  reset(): void;
  /** The bytes the scripts still to play hold (keptBytes of each, with its place in the list). */
  heldBytes(): number;
}

export const maxDelayMs = 60_000;

const faultScriptKeys = ['operation', 'status', 'retry_after_s', 'delay_ms', 'count'];
const randomFaultKeys = ['seed', 'rate', 'statuses', 'latency_ms'];

/** mulberry32: a small, fast generator whose sequence a 32-bit seed fixes. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkStatus(name: string, value: unknown): number {
  if (!isWhole(value, 400, 599)) throw new RangeError(`${name} must be an error status from 400 to 599, not ${JSON.stringify(value)}`);
  return value;
}

/** Random fault settings, checked. Throws a TypeError or RangeError naming the fault. */
export function checkRandomFaults(settings: RandomFaults): CheckedRandomFaults {
  if (typeof settings !== 'object' || settings === null) throw new TypeError('random faults must be an object with a seed');
  refuseUnknownKeys(settings, randomFaultKeys, 'the random faults');
  if (!isWhole(settings.seed, 0, 2 ** 32 - 1))
    throw new RangeError(`seed must be a whole number from 0 to 4294967295, not ${JSON.stringify(settings.seed)}`);
  const rate = settings.rate ?? 0;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    throw new RangeError(`rate must be a number from 0 to 1, not ${JSON.stringify(rate)}`);
  const statuses = settings.statuses ?? [500, 503];
  if (!Array.isArray(statuses) || statuses.length === 0) throw new TypeError('statuses must be a list of error statuses (e.g. [500, 503])');
  for (const [index, status] of statuses.entries()) checkStatus(`statuses[${index}]`, status);
  const latency = settings.latency_ms ?? [0, 0];
  if (
    !Array.isArray(latency) ||
    latency.length !== 2 ||
    !isWhole(latency[0], 0, maxDelayMs) ||
    !isWhole(latency[1], latency[0], maxDelayMs)
  )
    throw new RangeError(
      `latency_ms must be [min, max], whole milliseconds with 0 <= min <= max <= ${maxDelayMs}, not ${JSON.stringify(latency)}`,
    );
  return { seed: settings.seed, rate, statuses: [...statuses], latency_ms: [latency[0], latency[1]] };
}

/** A fault script checked before it is kept: an operation of the description, a status or a delay, a count. */
function checkFaultScript(script: FaultScript, known: ReadonlySet<string>): CheckedFaultScript {
  if (typeof script !== 'object' || script === null) throw new TypeError('a fault script must be an object with an operation');
  refuseUnknownKeys(script, faultScriptKeys, 'the fault script');
  if (typeof script.operation !== 'string' || !known.has(script.operation))
    throw new TypeError(
      `operation must be an operationId of the description (${[...known].join(', ')}), not ${JSON.stringify(script.operation)}`,
    );
  const status = script.status === undefined ? undefined : checkStatus('status', script.status);
  if (script.retry_after_s !== undefined && !isWhole(script.retry_after_s, 0))
    throw new RangeError(`retry_after_s must be a whole number of seconds >= 0, not ${JSON.stringify(script.retry_after_s)}`);
  if (script.retry_after_s !== undefined && status === undefined) throw new TypeError('retry_after_s goes with a status (e.g. 429 or 503)');
  const delay = script.delay_ms ?? 0;
  if (!isWhole(delay, 0, maxDelayMs))
    throw new RangeError(`delay_ms must be a whole number from 0 to ${maxDelayMs}, not ${JSON.stringify(delay)}`);
  if (status === undefined && delay === 0) throw new TypeError('a fault script needs a status, a delay_ms, or both');
  const count = script.count ?? 1;
  if (!isWhole(count, 1)) throw new RangeError(`count must be a whole number >= 1, not ${JSON.stringify(count)}`);
  return {
    operation: script.operation,
    ...(status === undefined ? {} : { status }),
    ...(script.retry_after_s === undefined ? {} : { retry_after_s: script.retry_after_s }),
    delay_ms: delay,
    count,
  };
}

export function createFaults(options: { operations: readonly string[]; random?: RandomFaults | undefined }): Faults {
  const known = new Set(options.operations);
  const initial = options.random === undefined ? undefined : checkRandomFaults(options.random);
  let scripts: { script: CheckedFaultScript; remaining: number; bytes: number }[] = [];
  let scriptBytes = 0;
  let random: { settings: CheckedRandomFaults; draw: () => number } | undefined;
  const setRandom = (settings: CheckedRandomFaults | undefined) => {
    random = settings && { settings, draw: seededRandom(settings.seed) };
  };
  setRandom(initial);

  return {
    script(script) {
      const checked = checkFaultScript(script, known);
      const bytes = keptBytes(checked) + 80;
      scripts.push({ script: checked, remaining: checked.count, bytes });
      scriptBytes += bytes;
      return checked;
    },

    random(settings) {
      setRandom(settings === undefined ? undefined : checkRandomFaults(settings));
      return random?.settings;
    },

    next(operation) {
      let fault: Fault | undefined;
      if (random) {
        const { settings, draw } = random;
        const [faultDraw, statusDraw, latencyDraw] = [draw(), draw(), draw()];
        const [min, max] = settings.latency_ms;
        const delayMs = min + Math.floor(latencyDraw * (max - min + 1));
        const status = faultDraw < settings.rate ? settings.statuses[Math.floor(statusDraw * settings.statuses.length)] : undefined;
        if (status !== undefined || delayMs > 0)
          fault = { status, retryAfterS: status === 429 || status === 503 ? 1 : undefined, delayMs, source: 'random' };
      }
      const index = scripts.findIndex((entry) => entry.script.operation === operation);
      if (index !== -1) {
        const entry = scripts[index]!;
        if (--entry.remaining === 0) {
          scripts.splice(index, 1);
          scriptBytes -= entry.bytes;
        }
        fault = { status: entry.script.status, retryAfterS: entry.script.retry_after_s, delayMs: entry.script.delay_ms, source: 'script' };
      }
      return fault;
    },

    randomSettings: () => random && structuredClone(random.settings),

    pending: () =>
      scripts.map(({ script, remaining }) => ({
        operation: script.operation,
        ...(script.status === undefined ? {} : { status: script.status }),
        ...(script.retry_after_s === undefined ? {} : { retry_after_s: script.retry_after_s }),
        delay_ms: script.delay_ms,
        remaining,
      })),

    reset() {
      scripts = [];
      scriptBytes = 0;
      setRandom(initial);
    },

    heldBytes: () => scriptBytes,
  };
}
