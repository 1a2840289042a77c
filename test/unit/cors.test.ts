// What a page of another origin may read of an answer (src/http/cors.ts): its origin with credentials, each header
// of the answer named, Vary kept whole.
import { describe, expect, it } from 'vitest';
import { preflightAnswer, withCors } from '../../src/http/cors.js';
import { createCall } from '../../src/http/exchange.js';

const answer = (headers: Record<string, string>) => ({ status: 503, headers, body: Buffer.alloc(0) });

describe('withCors', () => {
  it("reflects the page's origin with credentials, and exposes the answer's own headers by name", () => {
    const { headers } = withCors(
      answer({ 'Content-Type': 'application/json', 'Retry-After': '3', 'sl-violations': '[]' }),
      'http://localhost:5173',
    );
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'Retry-After': '3',
      'sl-violations': '[]',
      Vary: 'Origin',
      'Access-Control-Allow-Origin': 'http://localhost:5173',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': 'Retry-After, sl-violations',
    });
  });

  it('adds Origin to a Vary the answer has, in any case, once', () => {
    expect(withCors(answer({ vary: 'Accept, origin' }), undefined).headers).toEqual({ Vary: 'Accept, origin, Origin' });
    expect(withCors(answer({ Vary: 'Accept' }), undefined).headers).toEqual({ Vary: 'Accept, Origin' });
    expect(withCors(withCors(answer({}), undefined), undefined).headers).toEqual({ Vary: 'Origin' });
  });

  it('gives a program (no Origin) no CORS header', () => {
    expect(Object.keys(withCors(answer({ 'Retry-After': '3' }), undefined).headers)).toEqual(['Retry-After', 'Vary']);
  });
});

describe('preflightAnswer', () => {
  it('allows the method and headers asked for, for the origin that asked, and says what it varies by', () => {
    const call = createCall({
      method: 'OPTIONS',
      url: '/api/monitors',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
      body: Buffer.alloc(0),
    });
    const { status, headers } = preflightAnswer(call);
    expect(status).toBe(204);
    expect(headers).toMatchObject({
      'Access-Control-Allow-Origin': 'http://localhost:5173',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'authorization',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
    });
  });
});
