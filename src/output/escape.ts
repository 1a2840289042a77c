// Text that came from elsewhere (a service's answer, a request) on its way to a terminal or a Markdown report:
// control characters shown as escapes, so that no escape sequence reaches a terminal, and Markdown and HTML made
// literal, so that a report shows what the service sent instead of rendering it.

/** Whether a UTF-16 code unit is a control character: C0, DEL, C1, or a bidirectional-text control. */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    (code >= 0x200e && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

const named: Record<number, string> = { 9: '\\t', 10: '\\n', 13: '\\r', 27: '\\e' };

/**
 * The text with each UTF-16 code unit that `replacement` gives a replacement for replaced by it. The text between
 * replaced characters is copied a slice at a time: a character at a time, a long text became a string of millions of
 * pieces (a 30 MB answer took the MCP server to over a gigabyte).
 */
function replaceEach(text: string, replacement: (code: number) => string | undefined): string {
  let out = '';
  let copied = 0;
  for (let index = 0; index < text.length; index++) {
    const replaced = replacement(text.charCodeAt(index));
    if (replaced === undefined) continue;
    out += text.slice(copied, index) + replaced;
    copied = index + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A control character as a visible escape (`\e`, `\n`, `\u009b`); undefined for any other. */
const controlEscape = (code: number) => (isControl(code) ? (named[code] ?? `\\u${code.toString(16).padStart(4, '0')}`) : undefined);

/**
 * A piece of text safe to print on one line of a terminal: every control character (escape sequences, carriage
 * returns, line breaks, bidirectional overrides) written as a visible escape (`\e`, `\n`, `\u009b`).
 */
export function terminalText(text: string): string {
  return replaceEach(text, controlEscape);
}

/** The entities of the characters HTML and XML read as markup. */
const entities: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

/**
 * Characters that Markdown (CommonMark, GitHub's tables) reads as inline syntax. Service text in a report never
 * starts a line (it is in a table cell or after a list marker), so the block markers (`#`, `-`, `1.`) are left.
 */
const markdownSyntax = new Set(['\\', '`', '*', '_', '[', ']', '|', '~']);

/**
 * A piece of text for a Markdown report, read as plain text: control characters escaped as for a terminal, every
 * character Markdown reads as inline syntax backslash-escaped, and `<`, `>`, `&` written as entities (no HTML), so that
 * `<img src=x>`, `[a](b)` or `|` in a table cell show as they are.
 */
export function markdownText(text: string): string {
  return replaceEach(terminalText(text), (code) => {
    const char = String.fromCharCode(code);
    if (char === '<' || char === '>' || char === '&') return entities[char];
    return markdownSyntax.has(char) ? `\\${char}` : undefined;
  });
}

/** Whether a UTF-16 code unit may stand in an XML 1.0 document (tab, line feed, carriage return, and no C0 control). */
const allowedInXml = (code: number) =>
  code === 0x09 || code === 0x0a || code === 0x0d || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);

/**
 * A piece of text for an XML attribute or element (a JUnit report): `& < > " '` as entities, and characters XML
 * cannot carry (C0 controls, an escape sequence's ESC) written visibly as for a terminal (`\e`, `\u0007`).
 */
export function xmlText(text: string): string {
  return replaceEach(text, (code) =>
    allowedInXml(code) ? entities[String.fromCharCode(code)] : (controlEscape(code) ?? `\\u${code.toString(16).padStart(4, '0')}`),
  );
}
