// What a tool call gives the assistant. An answer is structured content (`{ data }`, as the tool's output schema
// says) and the same data as JSON in a text; a failure is a tool error with the status, the service's code and its
// message. Whatever the service wrote is quoted (src/output/quote.ts): the server's own sentence first, then the
// service's text in a fence, cut at a bound. Secrets are redacted first (a cut must not leave half of one), and every
// string, keys included, shows its control characters as escapes, in the structured content as in the text.
import { ServiceError } from '../client/errors.js';
import { tooLargeOf } from '../fetch/capped-body.js';
import { terminalText } from '../output/escape.js';
import { quoteForAssistant } from '../output/quote.js';
import type { Redactor } from '../output/redact.js';

/** The most characters of a service's error message that reach the assistant (our choice: real messages are short). */
export const messageLimit = 1000;

/**
 * The largest answer body read from the service by default: 256 KiB, our choice (payload size limits are not shown in
 * the documents, core document, section 8); `maxAnswerBytes` changes it.
 */
export const defaultMaxAnswerBytes = 256 * 1024;

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export const textResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }] });
export const errorResult = (text: string): ToolResult => ({ ...textResult(text), isError: true });

/** A copy of a JSON value whose strings (keys included) show their control characters as escapes. */
function visible(value: unknown): unknown {
  if (typeof value === 'string') return terminalText(value);
  if (Array.isArray(value)) return value.map(visible);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalText(key), visible(item)]));
  }
  return value;
}

const sizeInWords = (bytes: number) => (bytes % 1024 === 0 ? `${bytes} bytes (${bytes / 1024} KiB)` : `${bytes} bytes`);

/**
 * A successful answer: `{ data }` as structured content, and as quoted JSON in the text. `check` holds the
 * structured content against the tool's output schema: an answer that breaks it is a tool error naming the fault (an
 * assistant must not take it for what the schema promises).
 */
export function answerResult(
  tool: string,
  status: number,
  data: unknown,
  redactor: Redactor,
  check: (structured: Record<string, unknown>) => string | undefined,
  limit: number,
): ToolResult {
  const structured = data === undefined ? {} : { data: visible(redactor.value(data)) };
  const fault = check(structured);
  if (fault !== undefined) {
    return errorResult(
      quoteForAssistant(fault, {
        intro: `${tool}: the service answered HTTP ${status}, but its answer is not what the tool's output schema says, so it is not given. The fault, which names the answer's own keys, follows.`,
        limit: messageLimit,
      }),
    );
  }
  const intro = `${tool} answered HTTP ${status}. Its \`data\` (the payload of the service's envelope) is the structured result, and follows as JSON.`;
  return {
    ...textResult(quoteForAssistant(JSON.stringify(structured.data ?? null), { intro, limit, language: 'json' })),
    structuredContent: structured,
  };
}

/**
 * A failed call as a tool error the assistant can act on: the status and the service's code (numbers), when to try
 * again, then the service's message quoted. A call that got no answer (network, timeout, a refusal of the client)
 * has the client's own message, unquoted. An answer past the bound names the bound.
 */
export function failureResult(tool: string, error: unknown, redactor: Redactor): ToolResult {
  const large = tooLargeOf(error);
  if (large) {
    return errorResult(
      `${tool} was refused: the service's answer is larger than ${sizeInWords(large.limit)}, this server's bound for one answer, ` +
        'and was not read past it. Ask for less (one monitor by its ID, one account by its zaaid), or have the server started with a larger --max-answer-bytes (maxAnswerBytes).',
    );
  }
  if (!ServiceError.is(error))
    return errorResult(terminalText(redactor.text(`${tool} failed: ${error instanceof Error ? error.message : String(error)}`)));
  const wait = error.retryAfterMs === undefined ? '' : ` Try again in ${Math.ceil(error.retryAfterMs / 1000)} s.`;
  if (error.status === 0) return errorResult(terminalText(redactor.text(`${tool} failed: ${error.message}${wait}`)));
  const code = error.code === undefined ? '' : `, service code ${error.code}`;
  return errorResult(
    quoteForAssistant(redactor.text(error.message), {
      intro: `${tool} failed: HTTP ${error.status}${code}.${wait} The service's message follows.`,
      limit: messageLimit,
    }),
  );
}
