// The mock's answer to one request, whatever carried it: the checks of exchange.ts and policy.ts, then Prism's
// engine on the mock document. Shared by the HTTP server (startMock) and the in-process fetch (createMockFetch).
import type { EngineInput } from '../engine/prism.js';
import { checkCall, errorAnswer, isJson, type Answer, type Call } from '../http/exchange.js';
import { mockPolicy } from './policy.js';
import { engineFor } from '../engine/packaged.js';
import type { Json } from '../description/openapi.js';

export type MockHandler = (call: Call) => Promise<Answer>;

/** A call as the engine takes it: the path and query read, the body parsed (JSON) or as text (anything else). */
export function engineInput(call: Call, headers: Record<string, string>): EngineInput {
  const { pathname, searchParams } = new URL(call.url, 'http://mock.invalid');
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  let body: unknown;
  if (call.body.length > 0) {
    const text = call.body.toString('utf8');
    body = call.mediaType && isJson(call.mediaType.type) ? JSON.parse(text) : text;
  }
  return { method: call.method.toLowerCase(), url: { path: pathname, query }, headers, body };
}

/**
 * The mock on a description (a bundled document; this package's by default): resolves once Prism's engine and the
 * operations are loaded.
 */
export async function createMockHandler(description?: Json): Promise<MockHandler> {
  const prepared = engineFor(description, { kind: 'mock' });
  const policy = mockPolicy(prepared.document);
  const engine = await prepared.engine;
  return async (call) => {
    try {
      const fault = checkCall(call);
      if (fault) return fault;
      const match = policy.match(call);
      const decision = policy.before(call, match);
      if ('answer' in decision) return decision.answer;
      const result = await engine.request(engineInput(call, decision.headers), decision.engine);
      return policy.answer(call, match?.operation, result);
    } catch (error) {
      // A fault of the mock itself, not of the request: say so, and keep serving.
      return errorAnswer(500, `the mock failed on ${call.method} ${call.path} (${(error as Error).message})`);
    }
  };
}
