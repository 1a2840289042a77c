// What a call may ask the mock to play (the `Prefer` header and its `__code`/`__example`/`__dynamic` query forms):
// read in one pass without a regular expression, checked against what the operation documents, and turned into the
// engine's settings, or into the answer that refuses them or plays the description's shared 400. In the examples
// mode, a call that asks nothing but whose parameters are a named example's (`monitor_id` `1`, the `MonitorNotFound`
// example) asks for the answer of that name, as tools that pair examples by name expect; the simulator's default state
// holds the same examples, so that it answers those calls alike (decision 0009).

import { deref, type Example, type OpenApiDocument } from '../description/openapi.js';
import { describeOperation, type PairedExample, type RouteOperation } from '../description/routes.js';
import type { MockCallConfig } from '../engine/prism.js';
import { requestViolation } from '../engine/translate.js';
import { type Answer, type Call, errorAnswer, errorContentType, headerText, quote, splitTarget } from '../http/exchange.js';

export interface Preferences {
  code?: string;
  example?: string;
  dynamic?: string;
}

/** The longest `Prefer` header the mock reads (all its lines together); a longer one is refused with 431. */
export const maxPreferLength = 1024;

/** One preference of a `Prefer` header (`code=404`, `example="Name"`, `dynamic`): its name and value, or nothing. */
function readPreference(part: string): [string, string] | undefined {
  const text = part.trim();
  const equals = text.indexOf('=');
  const name = (equals === -1 ? text : text.slice(0, equals)).trim().toLowerCase();
  let value = equals === -1 ? '' : text.slice(equals + 1).trim();
  // A quoted string is read as its content; anything else, quotes included, as it is (and judged as such).
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"') && !value.slice(1, -1).includes('"'))
    value = value.slice(1, -1).trim();
  return name === 'code' || name === 'example' || name === 'dynamic' ? [name, value] : undefined;
}

/** The values of the `Prefer` header (one per line it came in). */
const preferValues = (call: Pick<Call, 'headers'>): string[] => [call.headers.prefer ?? []].flat();

/** The characters of the `Prefer` header, as the mock counts them against maxPreferLength. */
const preferLength = (values: string[]) => values.reduce((length, value) => length + value.length, 0);

/**
 * The preferences of a call, from the `Prefer` header (RFC 7240: preferences apart by commas, their parameters by
 * semicolons; each read as `name[=value]`, without a regular expression, in one pass) and the
 * `__code`/`__example`/`__dynamic` query forms. Undefined when the header is longer than `maxPreferLength`.
 */
export function readPreferences(call: Pick<Call, 'headers' | 'url'>): Preferences | undefined {
  const preferences: Preferences = {};
  const values = preferValues(call);
  if (preferLength(values) > maxPreferLength) return undefined;
  for (const value of values) {
    for (const part of value.split(/[,;]/)) {
      const preference = readPreference(part);
      if (preference) preferences[preference[0] as keyof Preferences] = preference[1];
    }
  }
  const [, target] = splitTarget(call.url);
  const query = target === undefined ? undefined : new URLSearchParams(target);
  for (const key of ['code', 'example', 'dynamic'] as const) {
    const value = query?.get(`__${key}`);
    if (value !== null && value !== undefined) preferences[key] = value;
  }
  return preferences;
}

/** The default example of a grant on the token endpoint: a refresh-token grant gets the answer without `refresh_token`. */
function grantExample(call: Call, operation: RouteOperation, status: string): string | undefined {
  if (!operation.parameters.some((parameter) => parameter.name === 'grant_type')) return undefined;
  const fromBody =
    call.mediaType?.type === 'application/x-www-form-urlencoded' ? new URLSearchParams(call.body.toString('utf8')).get('grant_type') : null;
  const grant = fromBody ?? new URLSearchParams(splitTarget(call.url)[1] ?? '').get('grant_type');
  if (grant !== 'refresh_token') return undefined;
  const examples = Object.entries(operation.examples[status] ?? {});
  return examples.find(([, value]) => typeof value === 'object' && value !== null && !('refresh_token' in value))?.[0];
}

/**
 * The description's shared Bad Request answer (`components.responses.BadRequest`): section 7 of the core document
 * makes 400 the answer to any wrong request, so the mock plays it itself on an operation that does not list 400.
 */
export class SharedBadRequest {
  /** Its named examples. */
  readonly examples: Record<string, Example>;
  /** Its first example's value, or the bare `{code, message}`. */
  private readonly value: unknown;

  constructor(private readonly document: OpenApiDocument) {
    const content = deref(document, document.components?.responses?.BadRequest)?.content ?? {};
    this.examples = Object.values(content)[0]?.examples ?? {};
    this.value = deref(document, Object.values(this.examples)[0])?.value ?? { code: 400, message: 'Bad Request' };
  }

  /** The answer, with the named example when the call prefers one. */
  answer(example: string | undefined): Answer {
    const value = example ? (deref(this.document, this.examples[example])?.value ?? this.value) : this.value;
    return {
      status: 400,
      headers: { 'Content-Type': errorContentType, 'sl-violations': '[]' },
      body: Buffer.from(JSON.stringify(value)),
    };
  }
}

/** The statuses an operation documents by code (not by class, `4XX`, or `default`): those a call can prefer. */
const documentedCodes = (operation: RouteOperation) => operation.statuses.filter((status) => /^\d{3}$/.test(status));

/** The 431 for a `Prefer` header longer than the mock reads. */
function preferTooLong(call: Call): Answer {
  const length = preferLength(preferValues(call));
  return errorAnswer(431, `the Prefer header has ${length} characters; the mock reads at most ${maxPreferLength}`, {
    violations: [requestViolation(['header', 'prefer'], 431, `Prefer header longer than ${maxPreferLength} characters`)],
  });
}

/** Why a preferred example cannot be played for the status asked for (or the success), naming where it is one. */
function unknownExample(
  example: string,
  status: string | undefined,
  operation: RouteOperation,
  documented: string[],
  shared: SharedBadRequest,
): string | undefined {
  const lookIn = status ?? documented.find((code) => code.startsWith('2'));
  const names = lookIn ? Object.keys(operation.examples[lookIn] ?? {}) : [];
  const playingShared = lookIn === '400' && !operation.statuses.includes('400');
  const sharedNames = playingShared ? Object.keys(shared.examples) : [];
  if (names.includes(example) || sharedNames.includes(example)) return undefined;
  const elsewhere = documented.find((code) => Object.keys(operation.examples[code] ?? {}).includes(example));
  const all = documented
    .filter((code) => Object.keys(operation.examples[code] ?? {}).length > 0)
    .map((code) => `${code}: ${Object.keys(operation.examples[code]!).join(', ')}`)
    .join('; ');
  const hint = elsewhere ? ` (it is an example of ${elsewhere}: send Prefer: code=${elsewhere}, example=${example})` : '';
  return `Prefer example=${quote(example)} is not an example of status ${lookIn ?? '(none)'} of ${describeOperation(operation)}${hint}; its examples are ${all || 'none'}`;
}

/** A 400 for preferences the mock cannot play, listing what the operation documents; undefined when it can. */
function preferenceFault(preferences: Preferences, operation: RouteOperation, shared: SharedBadRequest): Answer | undefined {
  const documented = documentedCodes(operation);
  const listing = `${describeOperation(operation)} documents ${documented.join(', ')}${documented.includes('400') ? '' : ', and the mock plays 400 on every operation'}`;
  const fault = (detail: string) => errorAnswer(400, detail, { violations: [requestViolation(['header', 'prefer'], 'prefer', detail)] });
  if (preferences.dynamic !== undefined && !/^(true|false)$/.test(preferences.dynamic)) {
    return fault(`Prefer dynamic=${quote(preferences.dynamic)} must be true or false`);
  }
  if (preferences.code !== undefined) {
    if (!/^[1-5]\d\d$/.test(preferences.code)) return fault(`Prefer code=${quote(preferences.code)} is not an HTTP status (${listing})`);
    if (!operation.statuses.includes(preferences.code) && preferences.code !== '400') {
      return fault(`the mock cannot play Prefer code=${preferences.code}: ${listing}`);
    }
  }
  if (preferences.example !== undefined) {
    const unknown = unknownExample(preferences.example, preferences.code, operation, documented, shared);
    if (unknown) return fault(unknown);
  }
  return undefined;
}

/** A parameter's value in a call, by where the operation takes it: a path segment, the query, a header or a cookie. */
function parameterValue(call: Call, operation: RouteOperation, parameter: PairedExample['parameters'][number]): string | undefined {
  switch (parameter.in) {
    case 'path': {
      // The template's segments after its leading slash, as the call's (matched by route, so of the same length).
      const index = operation.template.split('/').indexOf(`{${parameter.name}}`) - 1;
      return index < 0 ? undefined : call.segments[index];
    }
    case 'query':
      return new URLSearchParams(splitTarget(call.url)[1] ?? '').get(parameter.name) ?? undefined;
    case 'header':
      return headerText(call.headers[parameter.name.toLowerCase()]);
    case 'cookie':
      for (const pair of (headerText(call.headers.cookie) ?? '').split(';')) {
        const equals = pair.indexOf('=');
        if (equals > 0 && pair.slice(0, equals).trim() === parameter.name) return pair.slice(equals + 1).trim();
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The named example whose parameters the call has, each at that example's value; undefined when none is. */
export function pairedExample(call: Call, operation: RouteOperation): PairedExample | undefined {
  return operation.pairedExamples.find((pair) =>
    pair.parameters.every((parameter) => parameterValue(call, operation, parameter) === parameter.value),
  );
}

/**
 * The engine's settings for a call's preferences (or, with `paired`, the named example its parameters are); or the
 * answer that refuses them, or that plays the shared 400.
 */
export function checkPreferences(call: Call, operation: RouteOperation, shared: SharedBadRequest, paired = false): Answer | MockCallConfig {
  const preferences = readPreferences(call);
  if (!preferences) return preferTooLong(call);
  const fault = preferenceFault(preferences, operation, shared);
  if (fault) return fault;
  const status = preferences.code;
  if (status === '400' && !operation.statuses.includes('400')) return shared.answer(preferences.example);
  const pair = paired && status === undefined && preferences.example === undefined ? pairedExample(call, operation) : undefined;
  if (pair) return { code: Number(pair.status), exampleKey: pair.name, dynamic: preferences.dynamic === 'true' };
  const success = documentedCodes(operation).find((code) => code.startsWith('2')) ?? '200';
  return {
    code: status === undefined ? undefined : Number(status),
    exampleKey: preferences.example ?? (status === undefined || status === success ? grantExample(call, operation, success) : undefined),
    dynamic: preferences.dynamic === 'true',
  };
}
