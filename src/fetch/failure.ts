// Why a fetch to an upstream or a service failed, in a few words for a report: the deadline, or the network's own
// reason (`connect ECONNREFUSED 127.0.0.1:9`) rather than fetch's generic "fetch failed".

export function describeFetchFailure(error: unknown, timeoutMs: number): string {
  const failure = error as (Error & { cause?: Error & { code?: string } }) | undefined;
  if (failure?.name === 'TimeoutError' || failure?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = failure?.cause;
  if (cause) return `${cause.message}${cause.code && !cause.message.includes(cause.code) ? ` (${cause.code})` : ''}`;
  return String(failure?.message ?? failure);
}
