// The public types of the mock's request journal: what `GET /__mock/requests` and `control.requests()` give, and
// the filter they take. Plain JSON, so that a test in any language reads the same thing.

/** The operation a call came closest to, when no operation matched it, and what differed. */
export interface NearMiss {
  /** The operationId of the closest operation. */
  operation: string;
  /** Its method, upper case. */
  method: string;
  /** Its path template as the mock serves it (`/api/monitors/{monitor_id}`, `/oauth/v2/token`). */
  path: string;
  /**
   * What differed from it: `method`, `path` (a segment missing, extra or misspelt), `server` (an API path sent
   * without `/api`, or an identity provider's path sent under it).
   */
  differs: ('method' | 'path' | 'server')[];
}

/** A finding of Prism's engine (or of the mock's own checks) on the exchange. */
export interface JournalViolation {
  /** Where: `request.body.display_name`, `request.header.authorization`, `response`... */
  location: string;
  message: string;
}

/** One exchange the mock handled. Secrets (tokens, grant tokens, client secrets) are `[redacted]` wherever they were. */
export interface JournalEntry {
  /** A whole number that only grows, from 1 (a cleared journal goes on counting). */
  id: number;
  /** The simulated time of the call, in the service's form (`2026-11-21T10:00:00+0000`). */
  at: string;
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** The query parameters; a parameter sent more than once is a list. */
  query: Record<string, string | string[]>;
  /** The operationId the call reached, or null when no operation matched (see `near_miss`). */
  operation: string | null;
  /** The zaaid of the account the call acted on (`Cookie: zaaid=...`), or null for the caller's own account. */
  account: string | null;
  /** The client_id of the access token's client (or of the identity provider's call), or null when not known. */
  client_id: string | null;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
  /**
   * The request body: JSON when it parses, else text, null when there is none. A body over 64 KiB is kept as text,
   * cut, and marked at its end (`...[cut: the body has N bytes; the journal keeps 65536]`).
   */
  body: unknown;
  status: number;
  /** The answer's body, as `body`. */
  answer: unknown;
  /** The engine's findings on the request and the answer; empty when it found none. */
  violations: JournalViolation[];
  /** What the mock injected into this answer (a scripted or random fault): its status (null for a delay only) and delay. */
  fault: { status: number | null; delay_ms: number } | null;
  /**
   * The behaviours the simulator played in this exchange, by the names the coverage report counts them by
   * (`access-token-expired`, `customer-account`, `fault-retry-after`...); empty when it played none.
   */
  behaviours: string[];
  /** For a call no operation matched: the closest operation, and what differed; else null. */
  near_miss: NearMiss | null;
}

/** What `GET /__mock/requests` and `control.requests()` answer. */
export interface JournalPage {
  /** The matching entries, oldest first. */
  requests: JournalEntry[];
  /** How many entries have left the ring (it keeps the newest) since the start or the last clear. */
  dropped: number;
}

/**
 * A filter of the journal: every field given must match. Over HTTP, the same names as query parameters
 * (`/__mock/requests?operation=requestToken&status=4xx`).
 */
export interface JournalFilter {
  /** An operationId of the description. */
  operation?: string | undefined;
  /** An HTTP method (any case). */
  method?: string | undefined;
  /** The path as sent (`/api/monitors/1`), without the query. */
  path?: string | undefined;
  /** A status (`404`), or a class of them (`'4xx'`). */
  status?: number | string | undefined;
  /** The zaaid the call acted on. */
  account?: string | undefined;
  /** Only entries after this id. */
  since?: number | undefined;
  /** At most this many entries (the oldest first after `since`: page on with the last id as `since`). */
  limit?: number | undefined;
}
