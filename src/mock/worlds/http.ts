// The worlds' endpoints of the mock's own test API, JSON in and out like the rest of it:
//
//   GET    /__mock/worlds        -> 200 {"worlds": [{"id", "base_url", "auth_url", "test_api", counts...}], "max_worlds", ...}
//   POST   /__mock/worlds        {"id", "seed" | "from"} (each optional) -> 201 the world: its id, addresses and counts
//   GET    /__mock/worlds/{id}   -> 200 the world; 404 none; 410 forgotten
//   DELETE /__mock/worlds/{id}   -> 204
//   GET    /__mock/coverage/all  -> 200 the run's coverage: every world's merged, those forgotten or ended included
//   DELETE /__mock/coverage/all  -> 204, every world's coverage counted again from nothing
//
// The addresses are given from the origin the caller reached the mock by (a compose file's service name), so that
// what a set-up script reads is what its workers call.
import { coverageAnswer } from '../../coverage/http.js';
import { type Answer, type Call, errorAnswer, quote } from '../../http/exchange.js';
import { refuseUnknownKeys } from '../../options.js';
import { SeedError } from '../../simulator/seed.js';
import { jsonAnswer, readBody } from '../../simulator/test-api.js';
import type { WorldOptions } from '../types.js';
import { runCoveragePath, trimmed, worldsEndpoints, worldsPath } from './paths.js';
import { checkedWorldId, WorldRefusal, type WorldRegistry } from './registry.js';

/** A refusal of the worlds as an answer: 503 with when to try again. */
export function refusalAnswer(refusal: WorldRefusal): Answer {
  return errorAnswer(refusal.status, refusal.message, refusal.status === 503 ? { headers: { 'Retry-After': '1' } } : {});
}

/** The answer of the worlds' endpoints to a call under `/__mock/worlds`, the addresses from `origin`. */
export function worldsAnswer(registry: WorldRegistry, call: Call, origin: string): Answer {
  const path = trimmed(call.path);
  if (path === runCoveragePath) return coverageAnswer(registry.runCoverage(), call, runCoveragePath);
  const id = path === worldsPath ? undefined : path.slice(worldsPath.length + 1);
  if (id?.includes('/'))
    return errorAnswer(404, `${quote(call.path, 80)} is not an endpoint of the mock's test API (${worldsEndpoints.join('; ')})`);
  const allowed = id === undefined ? ['GET', 'POST'] : ['GET', 'DELETE'];
  const headers = { Allow: allowed.join(', ') };
  if (call.method === 'OPTIONS') return { status: 204, headers, body: Buffer.alloc(0) };
  if (!allowed.includes(call.method))
    return errorAnswer(405, `${call.method} is not supported for ${quote(path, 80)}; it supports ${headers.Allow}`, { headers });
  const read = readBody(call);
  if ('refused' in read) return read.refused;
  try {
    if (id === undefined && call.method === 'POST')
      return jsonAnswer(201, registry.summary(registry.create(read.body as WorldOptions), origin));
    refuseUnknownKeys(read.body, [], `${call.method} ${id === undefined ? worldsPath : `${worldsPath}/{id}`}`);
    if (id === undefined) return jsonAnswer(200, registry.report(origin));
    const checked = checkedWorldId('the path', id);
    if (call.method === 'DELETE') {
      registry.end(checked);
      return { status: 204, headers: {}, body: Buffer.alloc(0) };
    }
    const world = registry.existing(checked);
    return world
      ? jsonAnswer(200, registry.summary(world, origin))
      : errorAnswer(404, `no world ${JSON.stringify(checked)} (a call to its addresses makes it)`);
  } catch (error) {
    if (error instanceof WorldRefusal) return refusalAnswer(error);
    if (error instanceof TypeError || error instanceof RangeError) return errorAnswer(400, error.message);
    if (error instanceof SeedError) return errorAnswer(400, `the seed is not valid, so no world was made: ${error.shown.join('; ')}`);
    throw error;
  }
}
