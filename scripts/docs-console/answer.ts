// What the console shows of an answer: its status, the headers the page may read, the body formatted, and the
// violations the mock names (its `sl-violations` header, and the journal's entry when the page may read the journal).
import type { JournalEntry } from '../../src/journal/types.js';

/** The most of a body the console shows: a longer one is cut, and says so. */
export const shownBodyLimit = 100_000;

export interface ConsoleAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The body as shown: JSON indented, else the text; cut at shownBodyLimit. */
  body: string;
  /** The parsed JSON body, when it is JSON. */
  json?: unknown;
  /** The violations of `sl-violations`, as `location: message`. */
  violations: string[];
}

/** A body as the console shows it: JSON indented, text as it is, cut with a note past the limit. */
export function shownBody(text: string): { body: string; json?: unknown } {
  let json: unknown;
  try {
    json = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body = json === undefined ? text : JSON.stringify(json, null, 2);
  if (body.length <= shownBodyLimit) return json === undefined ? { body } : { body, json };
  return {
    body: `${body.slice(0, shownBodyLimit)}\n[cut: the body has ${body.length} characters; the console shows ${shownBodyLimit}]`,
    json,
  };
}

/** The violations of an `sl-violations` header (a JSON list of `{location, severity, message}`), as lines. */
export function headerViolations(value: string | null): string[] {
  if (!value) return [];
  try {
    const list: unknown = JSON.parse(value);
    if (!Array.isArray(list)) return [value];
    return list.map((entry) => {
      const { location, message } = (entry ?? {}) as { location?: unknown; message?: unknown };
      const where = Array.isArray(location) ? location.join('.') : '';
      return where ? `${where}: ${String(message)}` : String(message);
    });
  } catch {
    return [value];
  }
}

/** Reads a fetch answer whole. */
export async function readAnswer(response: Response): Promise<ConsoleAnswer> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    headers.push([name, value]);
  });
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    ...shownBody(await response.text()),
    violations: headerViolations(response.headers.get('sl-violations')),
  };
}

/** What the journal says of an exchange, as lines a reader reads: the operation it reached, the account, each finding. */
export function journalLines(entry: JournalEntry): string[] {
  const lines = [
    entry.operation
      ? `Reached ${entry.operation}`
      : entry.near_miss
        ? `Reached no operation; nearest: ${entry.near_miss.method} ${entry.near_miss.path} (${entry.near_miss.operation}), which differs by its ${entry.near_miss.differs.join(' and ')}`
        : 'Reached no operation',
    entry.account ? `Acted on the account ${entry.account} (Cookie: zaaid=${entry.account})` : 'Acted on your own account',
  ];
  if (entry.client_id) lines.push(`Token of the client ${entry.client_id}`);
  if (entry.fault)
    lines.push(
      `The mock injected a fault: ${entry.fault.status === null ? 'no status' : `status ${entry.fault.status}`}${entry.fault.delay_ms > 0 ? `, ${entry.fault.delay_ms} ms late` : ''}`,
    );
  for (const violation of entry.violations) lines.push(`Violation at ${violation.location}: ${violation.message}`);
  if (entry.violations.length === 0) lines.push('No violation of the contract');
  return lines;
}
