// An answer read up to a bound and no further (src/fetch/capped-body.ts): past the bound, the read fails with an error
// naming it and the source is cancelled, so the rest is never pulled into memory.
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, capBody } from '../../src/fetch/capped-body.js';

/** A body of `chunks` chunks of 64 KiB, counting how many were pulled and whether it was cancelled. */
function source(chunks: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunks) return controller.close();
      state.pulled += 1;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('capBody', () => {
  it('gives a body within the bound whole, with the status and headers', async () => {
    const { stream } = source(2);
    const capped = capBody(new Response(stream, { status: 404, headers: { 'x-kept': 'yes' } }), 128 * 1024);
    expect(capped.status).toBe(404);
    expect(capped.headers.get('x-kept')).toBe('yes');
    expect((await capped.arrayBuffer()).byteLength).toBe(128 * 1024);
  });

  it('fails past the bound, naming it, and stops pulling the source (30 MB are never read)', async () => {
    const { stream, state } = source(480);
    const capped = capBody(new Response(stream), 256 * 1024);
    const error = await capped.json().catch((caught: unknown) => caught);
    expect(BodyTooLargeError.is(error)).toBe(true);
    expect((error as BodyTooLargeError).limit).toBe(256 * 1024);
    expect((error as Error).message).toMatch(/larger than 262144 bytes/);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });

  it('fails before any read when the declared length is past the bound', async () => {
    const { stream, state } = source(480);
    const capped = capBody(new Response(stream, { headers: { 'content-length': String(480 * 64 * 1024) } }), 1024);
    await expect(capped.text()).rejects.toSatisfy(BodyTooLargeError.is);
    expect(state.pulled).toBeLessThanOrEqual(1);
  });

  it('leaves an answer without a body as it is', () => {
    const empty = new Response(null, { status: 204 });
    expect(capBody(empty, 10)).toBe(empty);
  });
});
