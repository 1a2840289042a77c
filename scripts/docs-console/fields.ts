// The console's fields: a labelled field, and a field with a picker of the description's named examples. Native
// controls only, so that the keyboard and assistive technology work as everywhere.
import type { NamedValue } from './data.js';
import { h } from './dom.js';

/** A text input that the browser neither corrects nor fills in. */
export const textInput = (id: string) => h('input', { id, type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off' });

/** A field: its label (for the control of that id), the control (or it with its example picker), and what follows it. */
export function field(id: string, label: string, control: HTMLElement, ...after: HTMLElement[]): HTMLElement {
  return h('div', { class: 'dc-field' }, h('label', { for: id }, label), control, ...after);
}

/** Sets a field as the reader would: its listeners (the state, the example picker) follow. */
export function setField(control: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  control.value = value;
  control.dispatchEvent(new Event('input'));
}

/** A field with a picker of its named examples before it (when it has two or more); the picker follows the field. */
export function withExamples(control: HTMLInputElement | HTMLTextAreaElement, examples: NamedValue[], what: string): HTMLElement {
  if (examples.length < 2) return control;
  const options = examples.map((example, index) => h('option', { value: String(index) }, example.label));
  const picker = h('select', { 'aria-label': `A named example for ${what}` }, ...options);
  // The picker shows the example the field holds, and none once the reader changed it.
  const showPicked = () => {
    picker.selectedIndex = examples.findIndex((example) => example.value === control.value);
  };
  picker.addEventListener('change', () => setField(control, examples[Number(picker.value)]?.value ?? control.value));
  control.addEventListener('input', showPicked);
  showPicked();
  return h('div', { class: 'dc-with-examples' }, picker, control);
}
