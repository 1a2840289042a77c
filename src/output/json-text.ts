// A JSON text read token by token, in one pass, with an explicit stack: at any depth, and tolerant of every fault
// (an unterminated string, an unquoted value, a missing comma, a stray bracket). The redaction (redact.ts) finds by
// it the values under credential names where JSON.parse gives up or hides them: in a text that does not parse, past
// the depth a walk of the parsed value reaches, in the first of two duplicate keys, and written with escapes.

export type JsonToken =
  /** A string followed by a colon: an attribute's name. */
  | 'key'
  /** A string in the place of a value. */
  | 'string'
  /** Anything else in the place of a value: a number, true, false, null, or a word that is not JSON. */
  | 'bare';

/**
 * Called with each token: its kind, its span in the text (a string's quotes included), whether it is a value under a
 * name `isName` picks (directly, or in an array under it, at any depth of arrays), and whether it holds an escape.
 * Returning false stops the scan.
 */
export type JsonVisit = (kind: JsonToken, start: number, end: number, named: boolean, escaped: boolean) => boolean | undefined;

const isSpace = (unit: number) => unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
/** The characters that end a bare token: structure, quotes and white space. */
const endsBare = (unit: number) =>
  isSpace(unit) || unit === 0x2c || unit === 0x3a || unit === 0x7b || unit === 0x7d || unit === 0x5b || unit === 0x5d || unit === 0x22;

/** Reads `text` token by token; `isName` gets each attribute name, decoded. */
export function scanJson(text: string, isName: (key: string) => boolean, visit: JsonVisit): void {
  // For each open array or object: whether its values are named (an array under a picked name); objects reset it.
  const inherited: boolean[] = [];
  // For each open container: whether the name before it was picked (restored when it closes).
  const outerKey: boolean[] = [];
  let keyNamed = false;
  let index = 0;
  const named = () => keyNamed || (inherited.length > 0 && inherited[inherited.length - 1]!);
  while (index < text.length) {
    const unit = text.charCodeAt(index);
    if (isSpace(unit) || unit === 0x3a) {
      index++;
    } else if (unit === 0x7b || unit === 0x5b) {
      inherited.push(unit === 0x5b && named());
      outerKey.push(keyNamed);
      keyNamed = false;
      index++;
    } else if (unit === 0x7d || unit === 0x5d) {
      if (inherited.length > 0) {
        inherited.pop();
        keyNamed = outerKey.pop()!;
      }
      index++;
    } else if (unit === 0x2c) {
      keyNamed = false;
      index++;
    } else if (unit === 0x22) {
      const start = index;
      let escaped = false;
      index++;
      while (index < text.length) {
        const inner = text.charCodeAt(index);
        if (inner === 0x5c) {
          escaped = true;
          index += 2;
        } else if (inner === 0x22) break;
        else index++;
      }
      const end = Math.min(index + 1, text.length);
      index = end;
      let after = index;
      while (after < text.length && isSpace(text.charCodeAt(after))) after++;
      if (after < text.length && text.charCodeAt(after) === 0x3a) {
        keyNamed = isName(decodeJsonString(text, start, end));
        if (visit('key', start, end, false, escaped) === false) return;
      } else if (visit('string', start, end, named(), escaped) === false) return;
    } else {
      const start = index;
      while (index < text.length && !endsBare(text.charCodeAt(index))) index++;
      if (visit('bare', start, index, named(), false) === false) return;
    }
  }
}

const escapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The text of a string token (its span, quotes included; the closing one may be missing), its escapes decoded; an
 * escape that is not JSON's keeps the character after the backslash.
 */
export function decodeJsonString(text: string, start: number, end: number): string {
  const last = end > start + 1 && text.charCodeAt(end - 1) === 0x22 ? end - 1 : end;
  const inner = text.slice(start + 1, last);
  if (!inner.includes('\\')) return inner;
  const parts: string[] = [];
  let from = 0;
  let index = inner.indexOf('\\');
  while (index !== -1 && index < inner.length - 1) {
    parts.push(inner.slice(from, index));
    const letter = inner[index + 1]!;
    const hex = inner.slice(index + 2, index + 6);
    if (letter === 'u' && hex.length === 4 && [...hex].every((char) => '0123456789abcdefABCDEF'.includes(char))) {
      parts.push(String.fromCharCode(Number.parseInt(hex, 16)));
      from = index + 6;
    } else {
      parts.push(escapes[letter] ?? letter);
      from = index + 2;
    }
    index = inner.indexOf('\\', from);
  }
  parts.push(inner.slice(from));
  return parts.join('');
}

/** Whether a bare token is a JSON number. */
export function isJsonNumber(token: string): boolean {
  let index = token.startsWith('-') ? 1 : 0;
  const digits = () => {
    const from = index;
    while (index < token.length && token[index]! >= '0' && token[index]! <= '9') index++;
    return index > from;
  };
  if (!digits()) return false;
  if (token[index] === '.') {
    index++;
    if (!digits()) return false;
  }
  if (token[index] === 'e' || token[index] === 'E') {
    index++;
    if (token[index] === '+' || token[index] === '-') index++;
    if (!digits()) return false;
  }
  return index === token.length;
}
