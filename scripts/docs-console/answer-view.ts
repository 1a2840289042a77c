// How the console shows an answer (its body, the headers the page may read, and what the mock says of it) and the
// steps of a token. Text only: nothing the mock answers is read as HTML.
import type { JournalEntry } from '../../src/journal/types.js';
import { type ConsoleAnswer, journalLines } from './answer.js';
import { fill, h } from './dom.js';
import type { TokenStep } from './token-steps.js';

/** A block of code or data a keyboard can reach and scroll. */
const code = (text: string, label: string) => h('pre', { class: 'dc-code', tabindex: '0', 'aria-label': label }, text);

/**
 * The answer, and what the mock says of it: the journal's entry when the page may read the journal, else the
 * violations the mock put in its `sl-violations` header (which a page of any origin may read).
 */
export function showAnswer(element: HTMLElement, answer: ConsoleAnswer, entry: JournalEntry | undefined, journalReadable: boolean): void {
  const said = entry ? journalLines(entry) : answer.violations.map((violation) => `Violation at ${violation}`);
  fill(
    element,
    h('p', { class: 'dc-label' }, 'Body'),
    code(answer.body || '(none)', 'The answer’s body'),
    h(
      'details',
      { class: 'dc-headers' },
      h('summary', {}, `Headers the page may read (${answer.headers.length})`),
      code(answer.headers.map(([name, value]) => `${name}: ${value}`).join('\n'), 'The answer’s headers'),
    ),
    h('p', { class: 'dc-label' }, entry ? 'What the mock’s journal says' : 'What the mock says (its sl-violations header)'),
    h('ul', { class: 'dc-journal' }, ...(said.length > 0 ? said : ['No violation named']).map((line) => h('li', {}, line))),
    !journalReadable &&
      h('p', { class: 'dc-hint' }, 'The journal (GET /__mock/requests) answers only the page the mock serves: open it there to read more.'),
  );
  element.hidden = false;
}

/** The steps of a token, each with its request and, once answered, its status and answer. */
export function showSteps(list: HTMLOListElement, steps: TokenStep[]): void {
  list.hidden = false;
  fill(
    list,
    ...steps.map((step) =>
      h(
        'li',
        {},
        h('p', {}, step.title),
        code(step.status === undefined ? step.request : `${step.request}\n→ ${step.status}\n${step.answer ?? ''}`, step.title),
      ),
    ),
  );
}
