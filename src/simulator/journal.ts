// The simulator's request journal (src/journal/): every exchange of the API and the identity provider, with the
// facts only the mock knows: the operation it reached, the simulated time, the account of the zaaid cookie, the client
// of the token or grant, the fault injected into the answer and the behaviours played. What the identity provider
// holds (tokens, grant tokens, client secrets) is hidden wherever a client puts it.

import type { OpenApiDocument } from '../description/openapi.js';
import { accessTokenOf } from '../http/authorization.js';
import type { Call } from '../http/exchange.js';
import { headerText } from '../http/exchange.js';
import { createJournal, type ExchangeFacts, type Journal, shortestIssued } from '../journal/index.js';
import { zaaidOf } from './accounts.js';
import { type SimulatedClock, serviceTime } from './clock.js';
import { identityParameters } from './identity.js';
import type { Outcome } from './index.js';
import type { TokenAuthority } from './tokens.js';

export interface SimulatorJournal {
  readonly journal: Journal;
  /** Records an exchange of the API or the identity provider, as the mock decided it. */
  record(call: Call, outcome: Outcome): void;
}

export function createSimulatorJournal(
  document: OpenApiDocument,
  parts: { clock: SimulatedClock; tokens: TokenAuthority; size: number | undefined; maxBytes?: number | undefined },
): SimulatorJournal {
  const { clock, tokens } = parts;
  const clientOf = (call: Call): string | null => {
    const token = accessTokenOf(headerText(call.headers.authorization));
    if (token) return tokens.clientOf(token) ?? null;
    if (!call.path.startsWith('/oauth/')) return null;
    const parameter = identityParameters(call);
    const named = parameter('client_id') ?? parameter('token');
    return named === undefined ? null : (tokens.clientOf(named) ?? parameter('client_id') ?? null);
  };
  const facts = (call: Call, { match, fault, behaviours }: Outcome): ExchangeFacts => ({
    at: clock.now(),
    operation: match?.operation?.operationId ?? null,
    account: zaaidOf(call.headers.cookie) ?? null,
    client_id: clientOf(call),
    fault: fault ? { status: fault.status ?? null, delay_ms: fault.delayMs } : null,
    behaviours,
  });
  const journal = createJournal(document, {
    size: parts.size,
    maxBytes: parts.maxBytes,
    formatTime: serviceTime,
    isSecret: (value) => value.length >= shortestIssued && tokens.holds(value),
  });
  return {
    journal,
    // The facts cost nothing when the journal is off.
    record(call, outcome) {
      if (journal.size > 0) journal.record(call, outcome.answer, facts(call, outcome));
    },
  };
}
