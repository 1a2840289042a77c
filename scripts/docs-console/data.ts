// What the console of the docs page knows of each operation: made from the description at build time
// (scripts/lib/docs-console.ts) and read by the page (index.ts) from a JSON block. Plain JSON: no function, no class.

/** A value the description names (a parameter's or a body's named example), as the console puts it in a field. */
export interface NamedValue {
  /** The example's key (`MonitorNotFound`). */
  name: string;
  /** What the reader picks it by: its summary, else its key. */
  label: string;
  /** The value as the field holds it: a parameter's text, a JSON body pretty-printed, a form body encoded. */
  value: string;
}

export interface ConsoleParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** Its named examples (the first fills the field); none when the description gives only an unnamed one. */
  examples: NamedValue[];
  /** The field's first value when there are no named examples ('' for an optional parameter without one). */
  value: string;
}

/**
 * A request one click away, and the answer the simulator gives it: a named example of a parameter that an error
 * answer of the operation is named after, the body without a required property, an account that may not.
 */
export interface Scenario {
  label: string;
  status: number;
  /** A parameter's value. */
  parameter?: { name: string; value: string };
  /** The body. */
  body?: string;
  /** The account to act on: the first customer (or business unit) of the state, or a zaaid that is none of them. */
  account?: 'managed' | 'stranger';
}

export interface ConsoleOperation {
  operationId: string;
  summary: string;
  method: string;
  /** The API (`/api` on the mock) or the identity provider (the mock's root). */
  server: 'api' | 'identity';
  /** The path template under the server (`/monitors/{monitor_id}`). */
  path: string;
  /** The operation takes an access token (`Authorization: Service-oauthtoken ...`). */
  secured: boolean;
  /** The Accept header of a success, when the operation versions its answers (`application/json; version=2.0`). */
  accept?: string;
  /**
   * The account picker: `acts` when the operation acts on the account of the `zaaid` cookie; `lists` when it lists the
   * accounts the zaaids come from and takes no cookie (the mock refuses one: the picker shows that refusal).
   */
  account?: 'acts' | 'lists';
  parameters: ConsoleParameter[];
  body?: { mediaType: string; required: boolean; examples: NamedValue[] };
  scenarios: Scenario[];
}

export interface ConsoleData {
  /** The scopes of every operation, for the token the console gets from the mock (comma-separated in the request). */
  scopes: string[];
  /** By operationId in lower case: the last segment of the operation's section id on the page. */
  operations: Record<string, ConsoleOperation>;
}

/** The id of the page's JSON block that holds the ConsoleData. */
export const consoleDataId = 'docs-console-data';
