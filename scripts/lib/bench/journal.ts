// The request journal's cost: the same build with the journal on (the default) and off (`--journal-size 0`,
// `journalSize: 0`), side by side in one run (on-and-off.ts). The target: within 5% of the journal off.
import { commandLineRows, inProcessRow, type Part } from './on-and-off.js';
import type { BenchSection } from './section.js';

const part: Part = {
  on: 'journal on',
  offFlags: ['--journal-size', '0'],
  offOptions: { journalSize: 0 },
  target: 'within 5% (0.95x or more)',
};

export const journal: BenchSection = {
  part: 'journal',
  title: 'the request journal: the mock with it on and off',
  async run(context) {
    await inProcessRow(context, part);
    await commandLineRows(context, part);
  },
};
