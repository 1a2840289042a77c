// An answer whose body may not be larger than a bound: the bytes are counted as they arrive, and the transfer stops
// at the bound, so that a huge answer never reaches memory (reading it whole and then refusing it would).
/** What reading a capped body raises past its bound. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';

  constructor(readonly limit: number) {
    super(`the answer's body is larger than ${limit} bytes, the bound of this reader: it was not read further`);
  }

  static is(value: unknown): value is BodyTooLargeError {
    return value instanceof BodyTooLargeError || (value instanceof Error && value.name === 'BodyTooLargeError' && 'limit' in value);
  }
}

/**
 * The same answer (status, headers), with a body that fails with a BodyTooLargeError once more than `limit` bytes
 * have arrived, or before any read when its Content-Length already says so; either way the transfer is cancelled.
 */
export function capBody(response: Response, limit: number): Response {
  if (response.body === null) return response;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  let size = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      if (declared > limit) controller.error(new BodyTooLargeError(limit));
    },
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) controller.error(new BodyTooLargeError(limit));
      else controller.enqueue(chunk);
    },
  });
  // An error of the counter cancels the source (pipeThrough's default): the rest of the body is never fetched.
  const body = response.body.pipeThrough(counter);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The BodyTooLargeError behind an error: itself, or the cause of the client's error it became. */
export function tooLargeOf(error: unknown): BodyTooLargeError | undefined {
  if (BodyTooLargeError.is(error)) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  return BodyTooLargeError.is(cause) ? cause : undefined;
}

/** A fetch whose every answer is capped at `limit` bytes. */
export function cappedFetch(fetchImpl: (request: Request) => Promise<Response>, limit: number) {
  return async (request: Request): Promise<Response> => capBody(await fetchImpl(request), limit);
}

/**
 * A fetch whose answers together may not hold more than `limit` bytes: each is capped at what is left, and what
 * it brings is spent.
 */
export function budgetedFetch(fetchImpl: (request: Request) => Promise<Response>, limit: number) {
  let left = limit;
  return async (request: Request): Promise<Response> => {
    const capped = capBody(await fetchImpl(request), left);
    if (capped.body === null) return capped;
    const spend = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        left -= chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return new Response(capped.body.pipeThrough(spend), { status: capped.status, statusText: capped.statusText, headers: capped.headers });
  };
}
