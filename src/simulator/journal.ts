// The simulator's request journal (src/journal/): every exchange of the API and the identity provider, with the
// facts only the simulator knows: the simulated time, the account of the zaaid cookie, the client of the token or
// grant, and the fault injected into the answer. What the identity provider holds (tokens, grant tokens, client
// secrets) is hidden wherever a client puts it.

import type { OpenApiDocument } from '../description/openapi.js';
import { accessTokenOf } from '../http/authorization.js';
import type { Answer, Call } from '../http/exchange.js';
import { headerText } from '../http/exchange.js';
import { createJournal, type ExchangeFacts, type Journal, shortestIssued } from '../journal/index.js';
import { zaaidOf } from './accounts.js';
import { type SimulatedClock, serviceTime } from './clock.js';
import type { Fault } from './faults.js';
import { identityParameters } from './identity.js';
import { isControlPath } from './test-api.js';
import type { TokenAuthority } from './tokens.js';

export interface SimulatorJournal {
  readonly journal: Journal;
  /** Notes the fault the simulator injects into the answer of a call. */
  noteFault(call: Call, fault: Fault): void;
  /** Records an exchange (not the test API's own calls). */
  record(call: Call, answer: Answer): void;
}

export function createSimulatorJournal(
  document: OpenApiDocument,
  parts: { clock: SimulatedClock; tokens: TokenAuthority; size: number | undefined },
): SimulatorJournal {
  const { clock, tokens } = parts;
  const faults = new WeakMap<Call, Fault>();
  const clientOf = (call: Call): string | null => {
    const token = accessTokenOf(headerText(call.headers.authorization));
    if (token) return tokens.clientOf(token) ?? null;
    if (!call.path.startsWith('/oauth/')) return null;
    const parameter = identityParameters(call);
    const named = parameter('client_id') ?? parameter('token');
    return named === undefined ? null : (tokens.clientOf(named) ?? parameter('client_id') ?? null);
  };
  const facts = (call: Call): ExchangeFacts => {
    const fault = faults.get(call);
    return {
      at: clock.now(),
      account: zaaidOf(call.headers.cookie) ?? null,
      client_id: clientOf(call),
      fault: fault ? { status: fault.status ?? null, delay_ms: fault.delayMs } : null,
    };
  };
  const journal = createJournal(document, {
    size: parts.size,
    facts,
    formatTime: serviceTime,
    isSecret: (value) => value.length >= shortestIssued && tokens.holds(value),
  });
  return {
    journal,
    noteFault: (call, fault) => faults.set(call, fault),
    record(call, answer) {
      if (!isControlPath(call.path)) journal.record(call, answer);
    },
  };
}
