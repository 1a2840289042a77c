// Who may drive the test API over HTTP: the mock's own checks (src/mock/test-api-access.ts) on the guard's parts.
import { describe, expect, it } from 'vitest';
import { exposureWarning, testApiRefusal } from '../../src/mock/test-api-access.js';

const call = (headers: Record<string, string>) => ({ path: '/__mock/state', headers });
const status = (headers: Record<string, string>, access = { host: '127.0.0.1', port: 4010 } as Parameters<typeof testApiRefusal>[1]) =>
  testApiRefusal(call(headers), access)?.status ?? 'passes';
const message = (headers: Record<string, string>, access: Parameters<typeof testApiRefusal>[1]) =>
  JSON.parse(testApiRefusal(call(headers), access)?.body.toString('utf8') ?? '{}').message as string;

describe('the test API on loopback', () => {
  it('lets programs (no Origin) and the mock own origin through, on a loopback Host', () => {
    expect(status({ host: '127.0.0.1:4010' })).toBe('passes');
    expect(status({ host: 'localhost:4010', origin: 'http://localhost:4010' })).toBe('passes');
  });

  it('refuses a page of another origin (403) and a rebound DNS name (421), without CORS headers', () => {
    expect(status({ host: '127.0.0.1:4010', origin: 'https://evil.example' })).toBe(403);
    expect(status({ host: '127.0.0.1:4010', origin: 'null' })).toBe(403);
    expect(status({ host: 'rebound.example:4010' })).toBe(421);
    const refusal = testApiRefusal(call({ host: '127.0.0.1:4010', origin: 'https://evil.example' }), { host: '127.0.0.1', port: 4010 });
    expect(Object.keys(refusal!.headers).filter((name) => name.toLowerCase().startsWith('access-control-'))).toEqual([]);
  });

  it('with a token, requires it', () => {
    const access = { host: '127.0.0.1', port: 4010, token: 's3cret' };
    expect(status({ host: '127.0.0.1:4010' }, access)).toBe(401);
    expect(status({ host: '127.0.0.1:4010', authorization: 'Bearer s3cret' }, access)).toBe('passes');
  });
});

describe('the test API beyond loopback', () => {
  it('without a token it is off, saying how to turn it on', () => {
    const access = { host: '0.0.0.0', port: 4010 };
    expect(status({ host: '127.0.0.1:4010' }, access)).toBe(403);
    expect(message({ host: '127.0.0.1:4010' }, access)).toMatch(/MOCK_TEST_API_TOKEN=TOKEN in its environment/);
  });

  it('with a token, it answers only calls that carry it, from any Host; a page of another origin is still refused', () => {
    const access = { host: '0.0.0.0', port: 4010, token: 's3cret' };
    expect(status({ host: '192.0.2.7:4010' }, access)).toBe(401);
    expect(status({ host: '192.0.2.7:4010', authorization: 'Bearer s3cret' }, access)).toBe('passes');
    expect(status({ host: '192.0.2.7:4010', authorization: 'Bearer s3cret', origin: 'https://evil.example' }, access)).toBe(403);
  });

  it('a warning line says so; none on loopback', () => {
    expect(exposureWarning('127.0.0.1', undefined)).toBeUndefined();
    expect(exposureWarning('0.0.0.0', undefined)).toMatch(/^Warning: the mock listens on 0\.0\.0\.0, beyond this machine.*is off/);
    expect(exposureWarning('::', 'x')).toMatch(/answers only calls with Authorization: Bearer/);
    expect(exposureWarning('0.0.0.0', undefined, false)).not.toMatch(/test API/);
  });
});
