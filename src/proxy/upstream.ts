// The proxy's side of the upstream: each request the engine forwards goes to the upstream with its own bytes, and the
// upstream's answer comes back whole (within the time and size limits), to the engine to judge and to the client as
// it was. An upstream that does not answer is an error of the engine's shape, which the proxy reports.
import { type EngineInput, type EngineOperation, type EngineOutput, judgedBody, judgedHeaders } from '../engine/prism.js';
import { describeFetchFailure } from '../fetch/failure.js';
import { type Answer, type Call, textHeaders } from '../http/exchange.js';

/**
 * Headers that belong to one connection (hop-by-hop, RFC 9110 section 7.6.1), or that fetch sets itself. The
 * headers that a `Connection` header names are hop-by-hop too (`connectionHeaders`).
 */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
]);
const notForwarded = new Set([...hopByHop, 'expect', 'content-length', 'host']);
/** Answer headers that no longer hold once fetch has read the body (it decodes content encodings). */
const notReturned = new Set([...hopByHop, 'content-length', 'content-encoding']);

/** The header names a `Connection` header lists (`Connection: close, X-Secret` names x-secret). */
function connectionHeaders(value: string | string[] | null | undefined): Set<string> {
  const names = new Set<string>();
  for (const line of [value ?? []].flat()) for (const name of line.split(',')) if (name.trim()) names.add(name.trim().toLowerCase());
  return names;
}

/** The request's headers for the upstream: without the hop-by-hop ones and those fetch sets itself. */
function forwardedHeaders(call: Call): Headers {
  const named = connectionHeaders(call.headers.connection);
  const headers = new Headers();
  for (const [name, value] of Object.entries(call.headers)) {
    if (notForwarded.has(name) || named.has(name) || value === undefined) continue;
    for (const line of [value].flat()) headers.append(name, line);
  }
  return headers;
}

/** The upstream's answer headers to pass on: without hop-by-hop ones, every Set-Cookie kept apart, names in lower case. */
function upstreamHeaders(headers: Headers): Record<string, string | string[]> {
  const named = connectionHeaders(headers.get('connection'));
  const kept: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (!notReturned.has(name) && !named.has(name) && name !== 'set-cookie') kept[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) kept['set-cookie'] = cookies;
  return kept;
}

/** Reads a whole answer body, up to `limit` bytes; undefined (and the transfer stopped) beyond it. */
async function readCapped(response: Response, limit: number, abort: () => void): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    abort();
    return undefined;
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      abort();
      return undefined;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

export interface UpstreamLimits {
  upstream: URL;
  /** How long the upstream has to answer one request, its body included. */
  timeoutMs: number;
  /** Largest answer read from the upstream. */
  maxAnswerBytes: number;
}

/**
 * The upstream, as the engine's `forward`. The engine hands over its own reading of a request and wants its own
 * reading of the answer; the proxy keeps, by engine object, the request's bytes (to forward them as they came) and
 * the answer's (to give them back as they came).
 */
export class Upstream {
  private readonly calls = new WeakMap<EngineInput, Call>();
  private readonly answers = new WeakMap<EngineOutput, Answer>();

  constructor(private readonly limits: UpstreamLimits) {}

  /** The call behind an engine input, for `forward`. */
  remember(input: EngineInput, call: Call): void {
    this.calls.set(input, call);
  }

  /** The upstream's answer behind an engine output, or the output itself when the upstream gave none. */
  answerOf(output: EngineOutput): Answer {
    return (
      this.answers.get(output) ?? {
        status: output.statusCode,
        headers: output.headers ?? {},
        body: Buffer.from(JSON.stringify(output.body ?? '')),
      }
    );
  }

  /** Sends a call on and gives the engine the answer to judge. */
  readonly forward = async (input: EngineInput, operation: EngineOperation | undefined): Promise<EngineOutput> => {
    const call = this.calls.get(input);
    if (!call) throw { name: 'UPSTREAM_REQUEST', message: 'the proxy lost the request it was forwarding', status: 500 };
    const { response, body } = await this.fetch(call);
    if (!body) {
      throw {
        name: 'UPSTREAM_TOO_LARGE',
        message: `the upstream's answer (${response.status}) has more than ${this.limits.maxAnswerBytes} bytes, the most the proxy reads (its maxAnswerBytes)`,
        status: 502,
      };
    }
    const answerHeaders = upstreamHeaders(response.headers);
    // Judged as documented when the Content-Type does not contradict the documented one (judgedHeaders); the
    // client still gets the header as the upstream sent it.
    const flat = textHeaders(answerHeaders);
    const judged = judgedHeaders(operation, response.status, flat);
    const parsed = judgedBody(flat['content-type'], response.status, body.toString('utf8'));
    const output: EngineOutput = { statusCode: response.status, headers: judged, body: parsed };
    this.answers.set(output, { status: response.status, headers: answerHeaders, body });
    return output;
  };

  /**
   * The call sent to the upstream, and its answer's body read within the time limit (undefined beyond the size
   * limit). No answer is the engine's error UPSTREAM_TIMEOUT (504) or UPSTREAM_UNREACHABLE (502).
   */
  private async fetch(call: Call): Promise<{ response: Response; body: Buffer | undefined }> {
    const { upstream, timeoutMs, maxAnswerBytes } = this.limits;
    const base = upstream.href.endsWith('/') ? upstream.href.slice(0, -1) : upstream.href;
    const headers = forwardedHeaders(call);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    try {
      const response = await fetch(`${base}${call.url}`, {
        method: call.method,
        headers,
        body: call.body.length > 0 && call.method !== 'GET' && call.method !== 'HEAD' ? new Uint8Array(call.body) : null,
        redirect: 'manual',
        signal: controller.signal,
      });
      return { response, body: await readCapped(response, maxAnswerBytes, () => controller.abort()) };
    } catch (error) {
      const reason = describeFetchFailure(error, timeoutMs);
      const timedOut = reason.startsWith('no answer within');
      throw {
        name: timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNREACHABLE',
        message: `the upstream ${upstream.href} did not answer: ${reason}`,
        status: timedOut ? 504 : 502,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}
