// One HTTP exchange as the mock and the proxy see it, whatever carried it (a node:http server or a fetch call):
// the request (`Call`), the answer (`Answer`), the contract's error shape for the faults they name, and the checks
// of a request that Prism's engine cannot survive or would answer without the contract's shape.
import { counted } from '../output/count.js';
import { isSecretName } from './authorization.js';
import { maxJsonDepth, tooDeepAt } from './json-depth.js';
import { notJsonBody } from './json-fault.js';
import { isForm, isJson, type MediaType, parseMediaType } from './media-type.js';

// Media types have a home of their own; the mock, the proxy and the engine read them with the rest of the exchange.
export { isForm, isJson, type MediaType, parseMediaType, sameMediaType } from './media-type.js';

export type HeaderValues = Record<string, string | string[] | undefined>;

export interface Call {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  /** The path, percent-encoded as sent. */
  path: string;
  /** Percent-decoded segments of the path after its leading slash. */
  segments: string[];
  /** Header names in lower case. */
  headers: HeaderValues;
  body: Buffer;
  /** The parsed media type of the body (lower case), when there is a Content-Type. */
  mediaType?: MediaType | undefined;
}

const bodyTexts = new WeakMap<Call, string>();

/** A call's body as UTF-8 text, decoded once for all that read it (a body of 1 MiB takes milliseconds to decode). */
export function bodyText(call: Call): string {
  if (call.body.length === 0) return '';
  let text = bodyTexts.get(call);
  if (text === undefined) {
    text = call.body.toString('utf8');
    bodyTexts.set(call, text);
  }
  return text;
}

export interface Answer {
  status: number;
  /** A header that comes more than once (Set-Cookie from an upstream) is a list. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** A fault of a request or an answer, in Prism's shape (the `sl-violations` header lists these). */
export interface Violation {
  location: string[];
  severity: string;
  code?: string | number | undefined;
  message: string;
}

/** The titles of the statuses of the core document's section 7 (and those the mock adds). */
export const statusTitles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden URL',
  404: 'URL Not found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const errorContentType = 'application/json;charset=UTF-8';

/** An answer's headers for a fetch Response: a header that comes more than once stays apart (Set-Cookie). */
export function responseHeaders(headers: Answer['headers']): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) for (const line of [value].flat()) result.append(name, line);
  return result;
}

/**
 * A fetch Request's or Response's headers as a record: names in lower case, a repeated header's values joined as
 * fetch joins them (Set-Cookie: the last one). How verify records an answer, and how the mock's fetch reads a call.
 */
export function headersRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** A header value as one string (repeated headers joined by a comma), or undefined. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Headers with each value as one text (repeated values joined), leaving out names that have none, and `omit`. */
export function textHeaders(headers: Record<string, string | string[] | undefined>, omit?: string): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name !== omit && value !== undefined) text[name] = headerText(value)!;
  return text;
}

/** An error answer in the contract's shape, `{code, message}`, with the fault also in `sl-violations`. */
export function errorAnswer(
  status: number,
  detail: string,
  options: { code?: number; violations?: Violation[]; headers?: Record<string, string> } = {},
): Answer {
  const title = statusTitles[status] ?? 'Error';
  const message = detail ? `${title}: ${detail}` : title;
  const violations = options.violations ?? [{ location: ['request'], severity: 'Error', code: status, message: detail || title }];
  return {
    status,
    headers: {
      'Content-Type': errorContentType,
      'sl-violations': violationsHeader(violations),
      ...options.headers,
    },
    body: Buffer.from(JSON.stringify({ code: options.code ?? status, message })),
  };
}

/** Header values must be Latin-1 without control characters. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The longest `sl-violations` header the mock and the proxy send: clients refuse headers beyond about 16 KiB in all. */
export const maxViolationsHeaderLength = 4096;
/** The longest message, and location part, of one violation in the header. */
const maxViolationText = 300;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}...` : text);

/**
 * The `sl-violations` header of an answer: the violations as JSON, always whole JSON within
 * `maxViolationsHeaderLength` characters. Each message is shortened; when they do not all fit, the first that do
 * are kept and a last entry says how many were left out.
 */
export function violationsHeader(violations: Violation[]): string {
  const entries = violations.map((violation) =>
    headerSafe(
      JSON.stringify({
        ...violation,
        location: violation.location.map((part) => shorten(String(part), maxViolationText)),
        message: shorten(violation.message, maxViolationText),
      }),
    ),
  );
  const omitted = (count: number) =>
    headerSafe(
      JSON.stringify({
        location: ['request'],
        severity: 'Information',
        message: `${counted(count, 'more violation', 'more violations')} not shown`,
      }),
    );
  const room = maxViolationsHeaderLength - omitted(violations.length).length - 3;
  let length = 0;
  let kept = 0;
  while (kept < entries.length && length + entries[kept]!.length + 1 <= room) length += entries[kept++]!.length + 1;
  const shown = entries.slice(0, kept);
  if (kept < entries.length) shown.push(omitted(entries.length - kept));
  return `[${shown.join(',')}]`;
}

/**
 * Quotes a piece of the request in a message (an answer's JSON), shortened, as a JSON string: C0 controls are escaped
 * there; C1 and bidirectional controls are kept, so a message on its way to a terminal goes through terminalText
 * (src/output/escape.ts), as the mock's --log and the proxy's report do.
 */
export function quote(text: string, max = 60): string {
  const shown = text.length > max ? `${text.slice(0, max)}...` : text;
  return JSON.stringify(shown);
}

export function splitTarget(url: string): [string, string | undefined] {
  const index = url.indexOf('?');
  return index === -1 ? [url, undefined] : [url.slice(0, index), url.slice(index + 1)];
}

function decodeSegments(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** The origin form (`/api/monitors?x=1`) of a request target, which may come in the absolute form (`http://host/...`). */
function originForm(target: string): string {
  const lower = target.slice(0, 8).toLowerCase();
  const scheme = lower.startsWith('http://') ? 7 : lower.startsWith('https://') ? 8 : 0;
  if (scheme === 0) return target;
  let end = scheme;
  while (end < target.length && target[end] !== '/' && target[end] !== '?' && target[end] !== '#') end++;
  const rest = target.slice(end);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * A Call from its parts. `url` is the request target (origin form `/api/monitors?x=1`; the absolute form, which
 * servers must accept, is read as its path); header names may come in any case.
 */
export function createCall(parts: { method: string; url: string; headers: HeaderValues; body: Buffer }): Call {
  const url = originForm(parts.url);
  const headers: HeaderValues = {};
  for (const [name, value] of Object.entries(parts.headers)) if (value !== undefined) headers[name.toLowerCase()] = value;
  const [path] = splitTarget(url);
  const contentType = headerText(headers['content-type']);
  return {
    method: parts.method.toUpperCase(),
    url,
    path,
    segments: decodeSegments(path),
    headers,
    body: parts.body,
    mediaType: contentType ? parseMediaType(contentType) : undefined,
  };
}

function tryDecode(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The first `name=value` pair of a query string or form body whose percent-encoding does not decode. */
const undecodablePair = (text: string): string | undefined => text.split('&').find((entry) => !tryDecode(entry.replace(/\+/g, ' ')));

/** A `name=value` pair as a message quotes it: whole, or only its name when that is a credential's (the value is a secret). */
function shownPair(pair: string): string {
  const equals = pair.indexOf('=');
  if (equals === -1) return quote(pair);
  const name = pair.slice(0, equals).replaceAll('+', ' ');
  return isSecretName(tryDecode(name) ? decodeURIComponent(name) : name) ? `the value of ${quote(name)}` : quote(pair);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const fault = (status: number, detail: string, location: string[], code: string | number, message: string) =>
  errorAnswer(status, detail, { violations: [{ location, severity: 'Error', code, message }] });

/**
 * Faults of the request target and body that Prism's engine cannot take or would answer without the contract's
 * shape: malformed percent-encoding in the path, the query or a form body (the engine throws), dot segments and raw
 * backslashes (it would route them to another path), a Content-Type that is not a media type, a JSON body that does
 * not parse, bytes that are not UTF-8 in a JSON or form body.
 */
export function checkCall(call: Call): Answer | undefined {
  if (!call.url.startsWith('/'))
    return errorAnswer(400, `the request target ${quote(call.url)} is not a path (send the path, e.g. /api/monitors)`);
  return pathFault(call) ?? queryFault(call) ?? contentTypeFault(call) ?? bodyFault(call);
}

function pathFault(call: Call): Answer | undefined {
  const where = ['request', 'path'];
  if (call.path.includes('\\'))
    return fault(
      400,
      `the path ${quote(call.path)} has a raw backslash (percent-encode it as %5C)`,
      where,
      'path',
      'raw backslash in the path',
    );
  for (const segment of call.path.split('/')) {
    if (/^(\.|%2e){1,2}$/i.test(segment)) {
      const detail = `the path ${quote(call.path)} has a dot segment ${quote(segment)} (send the path without . and .. segments)`;
      return fault(400, detail, where, 'path', `dot segment ${segment} in the path`);
    }
    if (!tryDecode(segment))
      return fault(
        400,
        `the path has malformed percent-encoding in the segment ${quote(segment)}`,
        where,
        'encoding',
        `malformed percent-encoding in ${segment}`,
      );
  }
  return undefined;
}

function queryFault(call: Call): Answer | undefined {
  const [, query = ''] = splitTarget(call.url);
  const part = undecodablePair(query);
  if (part === undefined) return undefined;
  const shown = shownPair(part);
  return fault(
    400,
    `the query string has malformed percent-encoding in ${shown}`,
    ['request', 'query'],
    'encoding',
    `malformed percent-encoding in ${shown}`,
  );
}

function contentTypeFault(call: Call): Answer | undefined {
  const contentType = headerText(call.headers['content-type']);
  if (contentType === undefined || contentType === '' || call.mediaType) return undefined;
  const detail = `the Content-Type header ${quote(contentType)} is not a media type (send e.g. application/json;charset=UTF-8)`;
  return fault(400, detail, ['request', 'header', 'content-type'], 'content-type', `not a media type: ${contentType}`);
}

/** A JSON or form body: in UTF-8, and JSON that parses and nests at most maxJsonDepth deep, or a form whose percent-encoding decodes. */
function bodyFault(call: Call): Answer | undefined {
  if (call.body.length === 0 || !call.mediaType) return undefined;
  const { type, parameters } = call.mediaType;
  if (!isJson(type) && !isForm(type)) return undefined;
  const charset = parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    const detail = `charset=${parameters.charset} is not supported: send ${type} in UTF-8 (Content-Type: ${type};charset=UTF-8)`;
    return fault(400, detail, ['request', 'header', 'content-type'], 'charset', `unsupported charset ${parameters.charset}`);
  }
  let text: string;
  try {
    text = utf8.decode(call.body);
  } catch {
    return fault(
      400,
      'the body is not valid UTF-8 (send JSON and form bodies in UTF-8)',
      ['request', 'body'],
      'encoding',
      'the body is not valid UTF-8',
    );
  }
  if (isJson(type)) {
    try {
      const deep = tooDeepAt(JSON.parse(text));
      if (deep !== undefined)
        return fault(
          400,
          `the body nests arrays and objects more than ${maxJsonDepth} deep, at ${quote(deep, 60)}; at most ${maxJsonDepth} levels are read (the service's own limit is not shown in the documents)`,
          ['request', 'body'],
          'depth',
          `the body nests deeper than ${maxJsonDepth} levels`,
        );
      return undefined;
    } catch {
      // Said without a character of the body (JSON.parse's message quotes it): the answer is logged and journaled.
      const detail = notJsonBody(text);
      return fault(400, detail, ['request', 'body'], 'invalid_json', detail);
    }
  }
  const part = undecodablePair(text);
  if (part === undefined) return undefined;
  const shown = shownPair(part);
  return fault(
    400,
    `the form body has malformed percent-encoding in ${shown}`,
    ['request', 'body'],
    'encoding',
    `malformed percent-encoding in ${shown}`,
  );
}
