// The bench's summary of a V8 CPU profile (`npm run bench -- --profile DIR`): busy time shared out by owner.
import { describe, expect, it } from 'vitest';
import { ownerOf, profileSummary } from '../../scripts/lib/bench/cpu-profile.js';

describe('ownerOf', () => {
  it('names the npm package (scoped or not), Node, the project, or the bucket of V8', () => {
    expect(ownerOf('route', 'file:///app/node_modules/@stoplight/prism-http/dist/router/index.js')).toBe('@stoplight/prism-http');
    expect(ownerOf('pipe', 'file:///app/node_modules/fp-ts/lib/function.js')).toBe('fp-ts');
    expect(ownerOf('parserOnIncoming', 'node:_http_server')).toBe('node');
    expect(ownerOf('answer', 'file:///work/repo/dist/src/mock/engine.js')).toBe('monitoring-service-api');
    expect(ownerOf('(garbage collector)', '')).toBe('(garbage collector)');
    expect(ownerOf('writev', '')).toBe('(native)');
  });
});

describe('profileSummary', () => {
  it("gives each sample the time to the next one, leaves idle out, and sorts the owners' and functions' time", () => {
    const frame = (functionName: string, url: string) => ({ functionName, url });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)', '') },
        { id: 2, callFrame: frame('pipe', 'file:///a/node_modules/fp-ts/lib/function.js') },
        { id: 3, callFrame: frame('answer', 'file:///a/dist/src/mock/engine.js') },
      ],
      samples: [2, 3, 2, 1, 3],
      timeDeltas: [0, 1000, 4000, 2000, 5000],
    };
    const summary = profileSummary(profile);
    // 2 → 1 ms, 3 → 4 ms, 2 → 2 ms, idle → 5 ms (left out); the last sample has no next one.
    expect(summary.busyMs).toBe(7);
    expect(summary.owners).toEqual([
      { key: 'monitoring-service-api', ms: 4 },
      { key: 'fp-ts', ms: 3 },
    ]);
    expect(summary.functions.map((entry) => entry.key)).toEqual([
      'answer (monitoring-service-api mock/engine.js)',
      'pipe (fp-ts lib/function.js)',
    ]);
  });
});
