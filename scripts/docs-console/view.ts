// The console under one operation: where it sends, the token, the account, the requests one click away, the
// parameters and body (prefilled from the description's examples), the request as curl, and the answer with what
// the mock's journal says of it. Keyboard first: native controls only, in reading order; the answer's status is
// announced (role=status).
import type { MockState } from '../../src/simulator/types.js';
import { readAnswer } from './answer.js';
import { showAnswer, showSteps } from './answer-view.js';
import type { ConsoleOperation, Scenario } from './data.js';
import { h } from './dom.js';
import { field, setField, textInput, withExamples } from './fields.js';
import { buildRequest, type ConsoleRequest, curlCommand, mockOrigin } from './request.js';
import { anyToken, journalEntry, mayUseTestApi, mockAccounts, NoAnswer, type Session, send } from './session.js';
import { getToken } from './token-steps.js';

/** What the reader filled in, kept while the page lives (the page may draw an operation again). */
interface Filled {
  parameters: Record<string, string>;
  body: string;
  zaaid: string;
}

const filled = new Map<string, Filled>();

/** A zaaid that is none of the own account's customers or business units (the state lists theirs). */
const strangerZaaid = '1';

type Accounts = Pick<MockState, 'customers' | 'business_units'>;

class OperationConsole {
  readonly root: HTMLDetailsElement;
  private readonly id: string;
  private readonly state: Filled;
  /** The accounts the simulator's state lists: known once the page, served by the mock, has read them. */
  private accounts: Accounts | undefined;
  private readonly address: HTMLInputElement;
  private readonly token: HTMLInputElement;
  private readonly tokenButton = h('button', { type: 'button', class: 'dc-secondary' }, 'Get a token from the mock');
  private readonly tokenHint: HTMLParagraphElement;
  private readonly steps = h('ol', { class: 'dc-steps', hidden: true });
  private readonly account: HTMLSelectElement;
  private readonly accountHint: HTMLParagraphElement;
  private readonly inputs: { name: string; input: HTMLInputElement; element: HTMLElement }[];
  private readonly body: HTMLTextAreaElement;
  private readonly scenarios: { scenario: Scenario; button: HTMLButtonElement }[];
  private readonly curl: HTMLPreElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly status = h('p', { class: 'dc-status', role: 'status' });
  private readonly answer = h('div', { class: 'dc-answer', hidden: true });

  constructor(
    private readonly operation: ConsoleOperation,
    private readonly session: Session,
    private readonly scopes: string[],
  ) {
    const id = (this.id = `docs-console-${operation.operationId}`);
    this.state = filled.get(operation.operationId) ?? {
      parameters: Object.fromEntries(operation.parameters.map((parameter) => [parameter.name, parameter.value])),
      body: operation.body?.examples[0]?.value ?? '',
      zaaid: '',
    };
    filled.set(operation.operationId, this.state);
    this.address = textInput(`${id}-address`);
    this.address.inputMode = 'url';
    this.token = textInput(`${id}-token`);
    this.tokenHint = h('p', { class: 'dc-hint', id: `${id}-token-hint` });
    this.token.setAttribute('aria-describedby', this.tokenHint.id);
    this.account = h('select', { id: `${id}-account`, 'aria-describedby': `${id}-account-hint` });
    this.accountHint = h('p', { class: 'dc-hint', id: `${id}-account-hint` });
    this.inputs = operation.parameters.map((parameter) => {
      const input = textInput(`${id}-${parameter.name}`);
      input.value = this.state.parameters[parameter.name] ?? '';
      input.addEventListener('input', () => {
        this.state.parameters[parameter.name] = input.value;
        this.update();
      });
      const label = `${parameter.name} (${parameter.in}${parameter.required ? ', required' : ''})`;
      return { name: parameter.name, input, element: field(input.id, label, withExamples(input, parameter.examples, parameter.name)) };
    });
    this.body = h('textarea', { id: `${id}-body`, rows: '6', spellcheck: 'false', autocomplete: 'off' });
    this.body.value = this.state.body;
    this.body.addEventListener('input', () => {
      this.state.body = this.body.value;
      this.update();
    });
    this.scenarios = operation.scenarios.map((scenario) => {
      const button = h('button', { type: 'button', class: 'dc-secondary' }, `${scenario.label}: ${scenario.status}`);
      button.addEventListener('click', () => void this.apply(scenario).then(() => this.run()));
      return { scenario, button };
    });
    this.curl = h('pre', { class: 'dc-code', tabindex: '0', 'aria-labelledby': `${id}-curl-label` });
    this.sendButton = h('button', { type: 'submit', class: 'dc-primary' }, `Send ${operation.method} ${operation.path}`);
    this.root = this.render();
    this.listen();
    this.showAccounts();
    this.update();
  }

  private render(): HTMLDetailsElement {
    const { id, operation } = this;
    const form = h(
      'form',
      { class: 'dc-form', novalidate: true, 'aria-label': `Try ${operation.summary}` },
      h('p', { class: 'dc-hint' }, this.session.served ? 'Sends to the mock that serves this page.' : 'Sends to a mock on this machine.'),
      field(this.address.id, 'Mock address', this.address),
      operation.secured &&
        field(this.token.id, 'Access token (Service-oauthtoken)', this.token, this.tokenHint, this.tokenButton, this.steps),
      operation.account && field(this.account.id, 'Account to act on', this.account, this.accountHint),
      this.scenarios.length > 0 &&
        h(
          'fieldset',
          { class: 'dc-scenarios' },
          h('legend', {}, 'One click away (fills in and sends)'),
          ...this.scenarios.map((entry) => entry.button),
        ),
      ...this.inputs.map((entry) => entry.element),
      operation.body &&
        field(this.body.id, `Body (${operation.body.mediaType})`, withExamples(this.body, operation.body.examples, 'the body')),
      h('p', { class: 'dc-label', id: `${id}-curl-label` }, 'The request, as curl'),
      this.curl,
      h('div', { class: 'dc-actions' }, this.sendButton),
      this.status,
      this.answer,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
    const root = h(
      'details',
      { class: 'docs-console', 'data-operation': operation.operationId },
      h('summary', {}, 'Try it: send it to the mock'),
      form,
    );
    root.addEventListener('toggle', () => {
      if (root.open) void this.loadAccounts();
    });
    return root;
  }

  private listen() {
    const { session } = this;
    this.address.addEventListener('input', () => {
      session.address = this.address.value;
      session.changed();
    });
    this.address.addEventListener('change', () => void this.loadAccounts());
    this.token.addEventListener('input', () => {
      session.token = this.token.value;
      session.tokenFrom = 'typed';
      session.changed();
    });
    this.tokenButton.addEventListener('click', () => void this.getToken());
    this.account.addEventListener('change', () => {
      this.state.zaaid = this.account.value;
      this.update();
    });
    session.listen(() => this.update());
  }

  /** The mock's origin when it serves this page (its test API answers the page), else undefined. */
  private testApiOrigin(): string | undefined {
    const origin = mockOrigin(this.session.address);
    return 'origin' in origin && mayUseTestApi(this.session, origin.origin) ? origin.origin : undefined;
  }

  /** The request for what is filled in now, or the fault that keeps it from being sent. */
  private request(): ConsoleRequest | { fault: string } {
    const origin = mockOrigin(this.session.address);
    if ('fault' in origin) return origin;
    const { parameters, body, zaaid } = this.state;
    return buildRequest(this.operation, { origin: origin.origin, token: this.session.token, zaaid, parameters, body });
  }

  /** Shows what changed: the curl command, the shared address and token, what the page may do with this mock. */
  private update() {
    const { session } = this;
    const built = this.request();
    this.curl.textContent = 'fault' in built ? `(${built.fault})` : curlCommand(built);
    if (this.address.value !== session.address && document.activeElement !== this.address) this.address.value = session.address;
    if (this.token.value !== session.token && document.activeElement !== this.token) this.token.value = session.token;
    const served = this.testApiOrigin();
    const simulator = served !== undefined && this.accounts !== undefined;
    this.tokenButton.hidden = !simulator;
    this.tokenHint.textContent =
      session.tokenFrom === 'mock'
        ? 'The access token the mock issued in the steps of “Get a token from the mock”, held in this page’s memory only (gone when you leave or reload it).'
        : `The mock accepts any token (${anyToken}) unless started with --strict-tokens${simulator ? '; or get one it issues, as the guide “Get a token” does' : ': then paste one it issued'}.`;
    this.account.disabled = !simulator;
    const origin = mockOrigin(session.address);
    const lists =
      this.operation.account === 'lists'
        ? 'This list takes no zaaid (the zaaids come from it): the mock refuses a list call sent with one (403). '
        : '';
    this.accountHint.textContent = `${lists}${
      simulator
        ? 'Sent as the cookie zaaid (Cookie: zaaid=...), which acts on a customer or business unit; the mock’s state lists them.'
        : served
          ? 'The mock’s test API did not answer this page (a mock started with --examples has none, one given MOCK_TEST_API_TOKEN answers that token only): your own account only.'
          : `Acting on a customer or business unit sends Cookie: zaaid=..., which a page may not set for another origin: open the page the mock serves (${'origin' in origin ? origin.origin : 'http://127.0.0.1:4010'}/docs/), or run the curl command below.`
    }`;
    for (const { scenario, button } of this.scenarios) button.disabled = scenario.account !== undefined && !simulator;
  }

  /** Reads the accounts of the simulator's state, when the page may (it is served by this mock). */
  private async loadAccounts() {
    const origin = this.testApiOrigin();
    this.accounts = origin ? await mockAccounts(origin) : undefined;
    this.showAccounts();
    this.update();
  }

  private showAccounts() {
    const entries = [
      ...(this.accounts?.customers ?? []).map((entry) => [entry, 'customer'] as const),
      ...(this.accounts?.business_units ?? []).map((entry) => [entry, 'business unit'] as const),
    ];
    this.account.replaceChildren(
      h('option', { value: '' }, 'Your own account'),
      ...entries.map(([entry, kind]) => h('option', { value: entry.zaaid }, `${entry.name} (${kind}, ${entry.zaaid})`)),
      h('option', { value: strangerZaaid }, `An account that is not yours (${strangerZaaid})`),
    );
    this.account.value = this.state.zaaid;
  }

  /** Fills in a request one click away. */
  private async apply(scenario: Scenario) {
    if (scenario.parameter) {
      const input = this.inputs.find((entry) => entry.name === scenario.parameter?.name)?.input;
      if (input) setField(input, scenario.parameter.value);
    }
    if (scenario.body !== undefined) setField(this.body, scenario.body);
    if (scenario.account === 'managed' && !this.accounts) await this.loadAccounts();
    if (scenario.account === 'stranger') this.state.zaaid = strangerZaaid;
    if (scenario.account === 'managed')
      this.state.zaaid = (this.accounts?.customers[0] ?? this.accounts?.business_units[0])?.zaaid ?? strangerZaaid;
    this.account.value = this.state.zaaid;
    this.update();
  }

  private async getToken() {
    const origin = this.testApiOrigin();
    if (!origin) return;
    this.tokenButton.disabled = true;
    try {
      this.session.token = await getToken(origin, this.scopes, (made) => showSteps(this.steps, made));
      this.session.tokenFrom = 'mock';
      this.session.changed();
    } catch (error) {
      this.steps.append(h('li', { class: 'dc-fault' }, (error as Error).message));
    } finally {
      this.tokenButton.disabled = false;
    }
  }

  /** Sends the request and shows the answer, or says why it could not be sent. */
  private async run() {
    const built = this.request();
    if ('fault' in built) return this.showFault(built.fault);
    const origin = new URL(built.url).origin;
    this.sendButton.disabled = true;
    this.status.className = 'dc-status';
    this.status.textContent = `Sending ${built.method} ${new URL(built.url).pathname} ...`;
    try {
      const answer = await readAnswer(await send(built, origin === this.session.served, origin));
      const served = this.testApiOrigin();
      const entry = served ? await journalEntry(served, built) : undefined;
      this.status.textContent = `Answer: ${answer.status} ${answer.statusText}`.trim();
      this.status.className = `dc-status ${answer.status < 400 ? 'dc-ok' : 'dc-fault'}`;
      showAnswer(this.answer, answer, entry, served !== undefined);
    } catch (error) {
      this.showFault(error instanceof NoAnswer ? error.message : `The request failed: ${(error as Error).message}`);
    } finally {
      this.sendButton.disabled = false;
    }
  }

  private showFault(message: string) {
    this.status.textContent = message;
    this.status.className = 'dc-status dc-fault';
    this.answer.hidden = true;
  }
}

/** The console of an operation, as an element to put under it. */
export const createConsole = (operation: ConsoleOperation, session: Session, scopes: string[]): HTMLElement =>
  new OperationConsole(operation, session, scopes).root;
