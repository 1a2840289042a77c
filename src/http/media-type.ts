// Media types (RFC 9110): parsing a Content-Type in one pass without a regular expression, and comparing the one
// a message carries with the one the description documents.

export interface MediaType {
  type: string;
  parameters: Record<string, string>;
}

/** A character of an RFC 9110 token: ! # $ % & ' * + - . ^ _ ` | ~, digits and letters. */
function isTokenChar(char: string | undefined): boolean {
  if (char === undefined) return false;
  return (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || (char >= '0' && char <= '9') || "!#$%&'*+-.^_`|~".includes(char);
}

/** A character that may stand in a quoted string (RFC 9110 qdtext or a quoted pair's second half): no control. */
function isQuotedChar(char: string): boolean {
  const code = char.charCodeAt(0);
  return code === 0x09 || (code >= 0x20 && code !== 0x7f);
}

/**
 * Parses a Content-Type (RFC 9110: `type/subtype *( OWS ";" OWS name=value )`, a value a token or a quoted
 * string); undefined when it is not a media type. One pass over the text, no regular expression.
 */
export function parseMediaType(value: string): MediaType | undefined {
  let index = 0;
  const skipSpaces = () => {
    while (value[index] === ' ' || value[index] === '\t') index++;
  };
  const readToken = () => {
    const start = index;
    while (isTokenChar(value[index])) index++;
    return value.slice(start, index);
  };
  skipSpaces();
  const type = readToken();
  if (!type || value[index] !== '/') return undefined;
  index++;
  const subtype = readToken();
  if (!subtype) return undefined;
  skipSpaces();
  const parameters: Record<string, string> = {};
  while (index < value.length) {
    if (value[index] !== ';') return undefined;
    index++;
    skipSpaces();
    const name = readToken();
    if (!name || value[index] !== '=') return undefined;
    index++;
    let parameter = '';
    if (value[index] === '"') {
      for (index++; index < value.length && value[index] !== '"'; index++) {
        if (value[index] === '\\') index++;
        if (index >= value.length || !isQuotedChar(value[index]!)) return undefined;
        parameter += value[index];
      }
      if (value[index] !== '"') return undefined;
      index++;
    } else {
      parameter = readToken();
      if (!parameter) return undefined;
    }
    parameters[name.toLowerCase()] = parameter;
    skipSpaces();
  }
  return { type: `${type}/${subtype}`.toLowerCase(), parameters };
}

/**
 * Whether a media type sent (`application/json`) is one the description documents (`application/json;
 * version=2.0`): the same type, and no parameter that both name with another value (charset in any case). A
 * parameter the sender leaves out is no fault: the documents show the Content-Type the service sends only for an error
 * answer (`application/json;charset=UTF-8`, core document section 7), not for a success's `version=2.0`.
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
