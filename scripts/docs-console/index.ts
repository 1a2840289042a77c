// The console of the docs page: under each operation Redoc draws, a form that sends the operation to a mock (the
// one that serves the page, or one on this machine at the address the reader gives) and shows its answer. Redoc
// draws an operation's section when the reader goes there (and may draw it again): each section drawn without a
// console gets one. Reads its data from the page's JSON block (scripts/lib/docs-console.ts made it).
import { type ConsoleData, consoleDataId } from './data.js';
import { createSession, servingOrigin } from './session.js';
import { createConsole } from './view.js';

const block = document.getElementById(consoleDataId);
if (block?.textContent) {
  const data = JSON.parse(block.textContent) as ConsoleData;
  const session = createSession(servingOrigin(location));
  const attach = () => {
    for (const samples of Array.from(document.querySelectorAll('.panel-request-samples'))) {
      const section = samples.closest('[data-section-id]');
      const operation = data.operations[section?.id.split('/').pop() ?? ''];
      const column = samples.parentElement;
      if (!operation || !column || column.querySelector(':scope > .docs-console')) continue;
      column.append(createConsole(operation, session, data.scopes));
    }
  };
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      attach();
    });
  };
  new MutationObserver(schedule).observe(document.getElementById('redoc') ?? document.body, { childList: true, subtree: true });
  schedule();
}
