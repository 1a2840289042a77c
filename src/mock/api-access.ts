// Who may call the mock's API and identity provider over HTTP (every path but the test API's `/__mock`, whose
// stricter rules are test-api-access.ts), and what a page may read of the answers. Browser apps under test call
// the mock from their own origin (a dev server on localhost:5173 calling 127.0.0.1:4010), so pages of other origins
// are served; a page must not reach the mock through a name it controls, and with a recorded real account the user
// may narrow the pages to theirs:
// - the Host header names this machine, the listen address, an IP address, or a name the user allowed (421
//   otherwise): a page whose DNS name was rebound to this machine still sends its own name, and no DNS rebinds an
//   address. (The test API accepts no other address; reaching the mock by an address hands a page nothing a
//   cross-origin call does not.)
// - every origin may call (`Origin: null` of a file: page included), unless the user named the origins allowed
//   (`allowedOrigins`, `--allow-origin`): then only those and the mock's own (a page it serves) may, and any other
//   is refused (403) before anything is done, a preflight or a form POST to the identity provider alike;
// - every answer, the mock's own errors included, carries the CORS headers of src/http/cors.ts for the caller's
//   origin, and a preflight is answered for every path, so that a call's error is an answer the page can read.
// The in-process fetch (createMockFetch) has no network and no browser checks its answers: none of this applies.

import { unbracket } from '../fetch/address.js';
import { isPreflight, originOf, preflightAnswer, withCors } from '../http/cors.js';
import { type Answer, type Call, errorAnswer } from '../http/exchange.js';
import {
  allowedHostNames,
  allowedOriginList,
  hostFault,
  hostHeaderName,
  isAddressLiteral,
  originFault,
  ownOrigins,
} from '../http/guard.js';
import { urlOf } from '../http/server.js';
import type { ApiAccessOptions } from './types.js';

export interface ApiAccess {
  /** The answer the rule gives itself, before the mock: a refusal (421, 403) or a preflight's; undefined to go on. */
  before(call: Call): Answer | undefined;
  /** The answer as it goes out, with the CORS headers of the call's origin. */
  after(call: Call, answer: Answer): Answer;
}

/** The options checked once, before the mock listens; a TypeError names the first wrong one. */
export function apiAccessOptions(options: ApiAccessOptions): { allowedOrigins: string[] | undefined; allowedHosts: string[] } {
  return {
    allowedOrigins: options.allowedOrigins === undefined ? undefined : allowedOriginList('allowedOrigins', options.allowedOrigins),
    allowedHosts: allowedHostNames('allowedHosts', options.allowedHosts),
  };
}

/** The rule of a mock listening on host:port, with options checked by apiAccessOptions. */
export function apiAccess(host: string, port: number, options: ReturnType<typeof apiAccessOptions>): ApiAccess {
  const { allowedOrigins, allowedHosts } = options;
  const origins = allowedOrigins && [
    ...ownOrigins(host, port),
    ...allowedHosts.map((name) => urlOf(unbracket(name), port).toLowerCase()),
    ...allowedOrigins,
  ];
  const allowed = (call: Call) => origins === undefined || originFault(call.headers, origins) === undefined;
  return {
    before(call) {
      const name = hostHeaderName(String(call.headers.host ?? ''));
      const misdirected = name !== undefined && isAddressLiteral(name) ? undefined : hostFault(call.headers, host, allowedHosts);
      if (misdirected)
        return errorAnswer(
          421,
          `${misdirected}: a page whose DNS name leads to this machine is refused. Reached by that name on purpose? Allow it: --allow-host NAME (allowedHosts)`,
        );
      if (!allowed(call))
        return errorAnswer(
          403,
          `pages of the origin ${JSON.stringify(originOf(call.headers)?.slice(0, 100))} may not call the mock: it was started for pages of ${allowedOrigins!.join(', ')} only (--allow-origin, allowedOrigins)`,
        );
      return isPreflight(call) ? preflightAnswer(call) : undefined;
    },
    after: (call, answer) => (allowed(call) ? withCors(answer, originOf(call.headers)) : answer),
  };
}
