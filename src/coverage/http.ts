// The coverage over HTTP, a part of the mock's test API:
//
//   GET    /__mock/coverage  -> 200 the report (JSON: monitoring-service-api/coverage.schema.json)
//   DELETE /__mock/coverage  -> 204, counting starts again from nothing
//
// A query is a 400 (the endpoint takes none); a mock started with coverage off answers 404 saying so.
import { type Answer, type Call, errorAnswer, quote, splitTarget } from '../http/exchange.js';
import { type Coverage, coverageOff } from './index.js';

export const coveragePath = '/__mock/coverage';

/** The coverage's endpoints and the methods of each. */
export const coverageEndpoints: Readonly<Record<string, readonly string[]>> = { [coveragePath]: ['GET', 'DELETE'] };

/**
 * The answer of a coverage's endpoint to a call of the test API (its path without trailing slashes): a world's at
 * `/__mock/coverage`, the run's at the worlds' own path.
 */
export function coverageAnswer(coverage: Pick<Coverage, 'report' | 'clear'> | undefined, call: Call, path = coveragePath): Answer {
  const allowed = coverageEndpoints[coveragePath]!;
  if (call.method === 'OPTIONS') return { status: 204, headers: { Allow: allowed.join(', ') }, body: Buffer.alloc(0) };
  if (!allowed.includes(call.method))
    return errorAnswer(405, `${call.method} is not supported for ${path}; it supports ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  const [, query] = splitTarget(call.url);
  if (query) return errorAnswer(400, `${call.method} ${path} takes no query parameters (${quote(query, 60)})`);
  if (!coverage) return errorAnswer(404, coverageOff);
  if (call.method === 'DELETE') {
    coverage.clear();
    return { status: 204, headers: {}, body: Buffer.alloc(0) };
  }
  // Like the rest of the test API, no CORS headers.
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify(coverage.report())) };
}
