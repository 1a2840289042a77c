// Who may drive the simulator's test API over HTTP (`/__mock`): it registers clients and reads their secrets, reads
// device keys, injects faults and resets the mock, so neither a web page the developer happens to visit nor another
// machine may call it. The checks themselves are those of src/http/guard.ts:
// - the Host header names this machine or the address the mock listens on (421 otherwise): a page that rebinds its
//   DNS name to 127.0.0.1 still sends its own name;
// - an Origin header, when there is one, is the mock's own (403 otherwise): a page of another origin is refused
//   before anything is done, even for a request that needs no preflight (a text/plain POST);
// - listening beyond loopback (`--host 0.0.0.0`), the test API answers only with `Authorization: Bearer TOKEN` for
//   the token the mock was started with (`testApiToken`, `MOCK_TEST_API_TOKEN`; 401 otherwise), and without a token it
//   is off (403 saying how to turn it on). A token given on loopback is required too. With a token, the Host check
//   is left to it: other machines name this one by an address of its own, and a page cannot know the token.
// The in-process fetch (createMockFetch) has no network, so no page and no machine reaches it: none of these apply.
import { type Answer, type Call, errorAnswer } from '../http/exchange.js';
import { bearerFault, hostFault, listensOnLoopback, originFault, ownOrigins } from '../http/guard.js';
import { withoutCors } from '../simulator/test-api.js';

export interface TestApiAccess {
  /** The address the mock listens on, as given (`127.0.0.1`, `0.0.0.0`, `::`). */
  host: string;
  /** The port it listens on. */
  port: number;
  /** The token every test API call must carry as `Authorization: Bearer TOKEN`; required beyond loopback. */
  token?: string | undefined;
}

/** The answer refusing a test API call (without CORS headers, as every answer of it), or undefined when it may pass. */
export function testApiRefusal(call: Pick<Call, 'headers' | 'path'>, access: TestApiAccess): Answer | undefined {
  const refusal = refusalOf(call, access);
  return refusal && withoutCors(refusal);
}

function refusalOf(call: Pick<Call, 'headers' | 'path'>, access: TestApiAccess): Answer | undefined {
  const { host, port, token } = access;
  if (token === undefined && !listensOnLoopback(host))
    return errorAnswer(
      403,
      `the test API (${call.path}) is off: the mock listens on ${host}, beyond this machine. Start it with MOCK_TEST_API_TOKEN=TOKEN in its environment (startMock({ testApiToken })) and send Authorization: Bearer TOKEN, or listen on 127.0.0.1`,
    );
  const host421 = token === undefined ? hostFault(call.headers, host) : undefined;
  if (host421) return errorAnswer(421, `the test API refuses this request: ${host421}`);
  const origin = originFault(call.headers, ownOrigins(host, port));
  if (origin) return errorAnswer(403, `the test API refuses this request: ${origin}`);
  const bearer = token === undefined ? undefined : bearerFault(call.headers, token);
  if (bearer) return errorAnswer(401, `the test API refuses this request: ${bearer}`, { headers: { 'WWW-Authenticate': 'Bearer' } });
  return undefined;
}

/** The warning line of a mock listening beyond loopback, or undefined on loopback. */
export function exposureWarning(host: string, token: string | undefined, testApi = true): string | undefined {
  if (listensOnLoopback(host)) return undefined;
  const exposed = `Warning: the mock listens on ${host}, beyond this machine: anyone who reaches it may call the API and the identity provider (by an IP address, or by a name given with --allow-host).`;
  if (!testApi) return exposed;
  return token === undefined
    ? `${exposed} Its test API (/__mock) is off; MOCK_TEST_API_TOKEN=TOKEN in its environment turns it on for calls with Authorization: Bearer TOKEN.`
    : `${exposed} Its test API (/__mock) answers only calls with Authorization: Bearer <its token>.`;
}
