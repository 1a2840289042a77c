// Where a text stops being JSON, said without a character of it. JSON.parse's own message quotes the text around the
// fault ("...t_secret":MadeUpUnqu"... is not valid JSON"), and a message of the mock is answered, logged and
// journaled: a credential in a body that does not parse must not travel in it. JSON.parse stays the judge; this
// reads the text once more, in one pass with an explicit stack, to say where (line and column) and what was expected.

type Expect = 'value' | 'value or ]' | 'name or }' | 'name' | ':' | 'next' | 'end';

const isSpace = (char: string | undefined) => char === ' ' || char === '\t' || char === '\n' || char === '\r';
const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';
const escapeLetters = '"\\/bfnrt';
const hexDigits = '0123456789abcdefABCDEF';

/** The line and column (from 1) of an offset of a text. */
function place(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

class Fault {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

/** Reads a string from its opening quote; the offset after its closing quote. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') return index + 1;
    if (char === '\\') {
      const letter = text[index + 1];
      if (letter === 'u') {
        for (let digit = 2; digit < 6; digit++)
          if (!hexDigits.includes(text[index + digit] ?? 'x')) throw new Fault(index + digit, 'a hexadecimal digit of a \\u escape');
        index += 6;
      } else if (letter !== undefined && escapeLetters.includes(letter)) index += 2;
      else throw new Fault(index + 1, 'an escape (\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and four hexadecimal digits)');
    } else if (char.charCodeAt(0) < 0x20) throw new Fault(index, 'a control character escaped (\\n, \\u0001...)');
    else index++;
  }
  throw new Fault(text.length, 'the closing quote of a string');
}

/** Reads a number; the offset after it. */
function numberEnd(text: string, start: number): number {
  let index = start;
  if (text[index] === '-') index++;
  if (text[index] === '0') index++;
  else if (isDigit(text[index])) while (isDigit(text[index])) index++;
  else throw new Fault(index, 'a digit');
  if (text[index] === '.') {
    index++;
    if (!isDigit(text[index])) throw new Fault(index, 'a digit after the decimal point');
    while (isDigit(text[index])) index++;
  }
  if (text[index] === 'e' || text[index] === 'E') {
    index++;
    if (text[index] === '+' || text[index] === '-') index++;
    if (!isDigit(text[index])) throw new Fault(index, 'a digit of the exponent');
    while (isDigit(text[index])) index++;
  }
  return index;
}

/** Reads a value's first token (a container is opened on the stack); the offset after it. */
function valueEnd(text: string, index: number, stack: string[]): number {
  const char = text[index];
  if (char === '{' || char === '[') {
    stack.push(char);
    return index + 1;
  }
  if (char === '"') return stringEnd(text, index);
  if (char === '-' || isDigit(char)) return numberEnd(text, index);
  for (const literal of ['true', 'false', 'null']) if (text.startsWith(literal, index)) return index + literal.length;
  throw new Fault(index, expectedAt('value', stack));
}

/** What each place of a JSON text expects, in words. */
function expectedAt(expect: Expect, stack: string[]): string {
  const close = stack.at(-1) === '{' ? '}' : ']';
  const words: Record<Expect, string> = {
    value: 'a value (an object, an array, a string, a number, true, false or null)',
    'value or ]': 'a value or ]',
    'name or }': 'a name in double quotes, or }',
    name: 'a name in double quotes',
    ':': 'a colon after the name',
    next: `a comma or ${close}`,
    end: 'the end of the text after its value',
  };
  return words[expect];
}

/** What a message says of a body JSON.parse refused: that it is not JSON, and where. */
export function notJsonBody(text: string): string {
  const where = jsonFault(text);
  return `the body is not valid JSON${where === undefined ? '' : ` (${where})`}`;
}

/** Where a text that JSON.parse refused stops being JSON, in words; undefined when this reading finds no fault. */
export function jsonFault(text: string): string | undefined {
  const stack: string[] = [];
  let expect: Expect = 'value';
  let index = 0;
  const after = (): Expect => (stack.length === 0 ? 'end' : 'next');
  try {
    for (;;) {
      while (isSpace(text[index])) index++;
      const char = text[index];
      if (expect === 'end' && char === undefined) return undefined;
      if (expect === 'end' || char === undefined) throw new Fault(index, expectedAt(expect, stack));
      if (expect === 'value or ]' && char === ']') {
        stack.pop();
        index++;
        expect = after();
      } else if (expect === 'value' || expect === 'value or ]') {
        index = valueEnd(text, index, stack);
        expect = char === '{' ? 'name or }' : char === '[' ? 'value or ]' : after();
      } else if (expect === 'name or }' && char === '}') {
        stack.pop();
        index++;
        expect = after();
      } else if (expect === 'name' || expect === 'name or }') {
        if (char !== '"') throw new Fault(index, expectedAt(expect, stack));
        index = stringEnd(text, index);
        expect = ':';
      } else if (expect === ':') {
        if (char !== ':') throw new Fault(index, expectedAt(expect, stack));
        index++;
        expect = 'value';
      } else {
        const close = stack.at(-1) === '{' ? '}' : ']';
        if (char === ',') expect = close === '}' ? 'name' : 'value';
        else if (char === close) {
          stack.pop();
          expect = after();
        } else throw new Fault(index, `a comma or ${close}`);
        index++;
      }
    }
  } catch (error) {
    if (!(error instanceof Fault)) throw error;
    return `at ${place(text, error.offset)}: ${error.offset >= text.length ? 'the text ends where it expects' : 'expected'} ${error.expected}`;
  }
}
