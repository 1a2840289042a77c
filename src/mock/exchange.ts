// One HTTP exchange as the mock and the proxy see it, whatever carried it (a node:http server or a fetch call):
// the request (`Call`), the answer (`Answer`), the contract's error shape for the faults they name, and the checks
// of a request that Prism's engine cannot survive or would answer without the contract's shape.

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

export interface MediaType {
  type: string;
  parameters: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
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
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** CORS headers on every answer, so that a page on another origin can call the mock. */
export function corsHeaders(headers: HeaderValues = {}): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': headerText(headers.origin) || '*',
    'Access-Control-Allow-Headers': headerText(headers['access-control-request-headers']) || '*',
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': '*',
  };
}

export const errorContentType = 'application/json;charset=UTF-8';

/** A header value as one string (repeated headers joined by a comma), or undefined. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
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
      ...corsHeaders(),
      'Content-Type': errorContentType,
      'sl-violations': headerSafe(JSON.stringify(violations)),
      ...options.headers,
    },
    body: Buffer.from(JSON.stringify({ code: options.code ?? status, message })),
  };
}

/** Header values must be Latin-1 without control characters. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Quotes a piece of the request in a message, shortened and without control characters. */
export function quote(text: string, max = 60): string {
  const shown = text.length > max ? `${text.slice(0, max)}...` : text;
  return JSON.stringify(shown);
}

const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[^"\\\\\\x00-\\x08\\x0a-\\x1f\\x7f]|\\\\[\\x09\\x20-\\xff])*"';
const mediaTypePattern = new RegExp(`^ *(${token})/(${token}) *((?:; *${token} *= *(?:${token}|${quoted}) *)*)$`);
const parameterPattern = new RegExp(`; *(${token}) *= *(${token}|${quoted}) *`, 'g');

/** Parses a Content-Type (RFC 9110); undefined when it is not a media type. */
export function parseMediaType(value: string): MediaType | undefined {
  const match = mediaTypePattern.exec(value);
  if (!match) return undefined;
  const parameters: Record<string, string> = {};
  for (const parameter of match[3]!.matchAll(parameterPattern)) {
    const raw = parameter[2]!;
    parameters[parameter[1]!.toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return { type: `${match[1]}/${match[2]}`.toLowerCase(), parameters };
}

/**
 * Whether a media type sent (`application/json`) is one the description documents (`application/json;
 * version=2.0`): the same type, and no parameter that both name with another value (charset in any case). A
 * parameter the sender leaves out is no fault: the documents do not show the Content-Type the service sends.
 */
export function sameMediaType(sent: string, documented: string): boolean {
  const a = parseMediaType(sent);
  const b = parseMediaType(documented);
  if (!a || !b || a.type !== b.type) return false;
  return Object.entries(a.parameters).every(([name, value]) => {
    const other = b.parameters[name];
    return other === undefined || (name === 'charset' ? other.toLowerCase() === value.toLowerCase() : other === value);
  });
}

export const isJson = (type: string) => type === 'application/json' || /^[a-z0-9.+-]+\/[a-z0-9.+-]*\+json$/.test(type);
export const isForm = (type: string) => type === 'application/x-www-form-urlencoded';

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

/**
 * A Call from its parts. `url` is the request target (origin form `/api/monitors?x=1`; the absolute form, which
 * servers must accept, is read as its path); header names may come in any case.
 */
export function createCall(parts: { method: string; url: string; headers: HeaderValues; body: Buffer }): Call {
  const absolute = /^https?:\/\/[^/?#]*(.*)$/i.exec(parts.url);
  const url = absolute ? (absolute[1]!.startsWith('/') ? absolute[1]! : `/${absolute[1]}`) : parts.url;
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
  if (!call.url.startsWith('/')) return errorAnswer(400, `the request target ${quote(call.url)} is not a path (send the path, e.g. /api/monitors)`);
  const [, query = ''] = splitTarget(call.url);
  if (call.path.includes('\\')) {
    return fault(400, `the path ${quote(call.path)} has a raw backslash (percent-encode it as %5C)`, ['request', 'path'], 'path', 'raw backslash in the path');
  }
  for (const segment of call.path.split('/')) {
    if (/^(\.|%2e){1,2}$/i.test(segment)) {
      return fault(400, `the path ${quote(call.path)} has a dot segment ${quote(segment)} (send the path without . and .. segments)`, ['request', 'path'], 'path', `dot segment ${segment} in the path`);
    }
    if (!tryDecode(segment)) return fault(400, `the path has malformed percent-encoding in the segment ${quote(segment)}`, ['request', 'path'], 'encoding', `malformed percent-encoding in ${segment}`);
  }
  for (const part of query.split('&')) {
    if (!tryDecode(part.replace(/\+/g, ' '))) return fault(400, `the query string has malformed percent-encoding in ${quote(part)}`, ['request', 'query'], 'encoding', `malformed percent-encoding in ${part}`);
  }
  const contentType = headerText(call.headers['content-type']);
  if (contentType !== undefined && contentType !== '' && !call.mediaType) {
    return fault(400, `the Content-Type header ${quote(contentType)} is not a media type (send e.g. application/json;charset=UTF-8)`, ['request', 'header', 'content-type'], 'content-type', `not a media type: ${contentType}`);
  }
  if (call.body.length === 0 || !call.mediaType) return undefined;
  const { type, parameters } = call.mediaType;
  if (!isJson(type) && !isForm(type)) return undefined;
  const charset = parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return fault(400, `charset=${parameters.charset} is not supported: send ${type} in UTF-8 (Content-Type: ${type};charset=UTF-8)`, ['request', 'header', 'content-type'], 'charset', `unsupported charset ${parameters.charset}`);
  }
  let text: string;
  try {
    text = utf8.decode(call.body);
  } catch {
    return fault(400, 'the body is not valid UTF-8 (send JSON and form bodies in UTF-8)', ['request', 'body'], 'encoding', 'the body is not valid UTF-8');
  }
  if (isJson(type)) {
    try {
      JSON.parse(text);
    } catch (error) {
      const reason = (error as Error).message;
      return fault(400, `the body is not valid JSON (${reason})`, ['request', 'body'], 'invalid_json', `the body is not valid JSON: ${reason}`);
    }
  } else {
    for (const part of text.split('&')) {
      if (!tryDecode(part.replace(/\+/g, ' '))) return fault(400, `the form body has malformed percent-encoding in ${quote(part)}`, ['request', 'body'], 'encoding', `malformed percent-encoding in ${part}`);
    }
  }
  return undefined;
}
