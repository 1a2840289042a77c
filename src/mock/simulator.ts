// The mock's simulation of the service's state (`mode: 'simulate'`): accounts, their monitors and groups, seeded from
// the description's examples, and answers that depend on them. Prism's engine still validates every request first;
// the simulation decides the answer of a valid one. What the documents do not show is the mock's own choice, said
// where it is made: the status of a refused account (403, as the description's NotAuthorizedForAccount example), what
// each customer and business unit holds (a copy of the main account's monitors), the group creation answer (the
// documented example; the group is kept in the state).
//
// A test drives it over HTTP under `/__mock/` (`GET /__mock/state`, `POST /__mock/reset`, `POST /__mock/faults`) or
// through the same methods of what startMock() and createMockFetch() return.
import { deref, operationsOf, type Json } from '../description/openapi.js';
import { errorAnswer, errorContentType, type Answer, type Call } from '../http/exchange.js';
import type { RouteOperation } from '../description/routes.js';
import type { Account, Fault, SimulatedState } from './simulation-types.js';

/** The reserved prefix of the test API, beside `/api` and `/oauth`. */
export const controlPrefix = '/__mock/';

const json = (status: number, body: unknown, contentType: string, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': contentType, ...headers },
  body: Buffer.from(JSON.stringify(body)),
});

/** The value of a named example of an operation's answer (the first one when no name is given). */
function exampleOf(document: Json, operationId: string, status: string, name?: string): { value: unknown; mediaType: string } | undefined {
  const entry = operationsOf(document).find(({ operation }) => operation.operationId === operationId);
  const response = deref(document, entry?.operation.responses?.[status]);
  const [mediaType, media] = Object.entries<Json>(response?.content ?? {})[0] ?? [];
  if (!mediaType || !media) return undefined;
  const examples = Object.entries<Json>(media.examples ?? {});
  const chosen = name ? examples.find(([key]) => key === name) : examples[0];
  const value = chosen ? deref(document, chosen[1])?.value : media.example;
  return value === undefined ? undefined : { value: structuredClone(value), mediaType };
}

/** The values of a path's parameters: `/api/monitors/{monitor_id}` against `/api/monitors/123`. */
function pathValues(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const parts = path.split('?')[0]!.split('/');
  const values: Record<string, string> = {};
  names.forEach((name, index) => {
    if (name.startsWith('{') && name.endsWith('}')) values[name.slice(1, -1)] = decodeURIComponent(parts[index] ?? '');
  });
  return values;
}

/** The zaaid of a call's Cookie header, if any (`zaaid=700000123`). */
function zaaidOf(call: Call): string | undefined {
  const header = call.headers.cookie;
  for (const line of [header ?? []].flat()) {
    for (const pair of line.split(';')) {
      const equals = pair.indexOf('=');
      if (equals !== -1 && pair.slice(0, equals).trim() === 'zaaid') return pair.slice(equals + 1).trim();
    }
  }
  return undefined;
}

export class Simulation {
  private accounts = new Map<string, Account>();
  private faults: Fault[] = [];

  constructor(private readonly document: Json) {
    this.reset();
  }

  /** Back to the state seeded from the description's examples; no fault scripted. */
  reset(): void {
    const listed = (operationId: string) => (exampleOf(this.document, operationId, '200')?.value as Json | undefined)?.data ?? [];
    const monitors: Json[] = listed('listMonitors');
    this.accounts = new Map([
      ['main', { id: 'main', kind: 'main', name: 'main account', monitors: structuredClone(monitors), groups: [] }],
    ]);
    for (const [operationId, kind] of [
      ['listMspCustomers', 'customer'],
      ['listBusinessUnits', 'business unit'],
    ] as const) {
      for (const entry of listed(operationId) as Json[]) {
        this.accounts.set(String(entry.zaaid), {
          id: String(entry.zaaid),
          kind,
          name: String(entry.name),
          monitors: structuredClone(monitors),
          groups: [],
        });
      }
    }
    this.faults = [];
  }

  state(): SimulatedState {
    return structuredClone({ accounts: [...this.accounts.values()], faults: this.faults });
  }

  /** Scripts the next answers of an operation; throws a TypeError naming what is wrong. */
  fault(fault: Fault): void {
    const entry = operationsOf(this.document).find(({ operation }) => operation.operationId === fault?.operation);
    if (!entry) throw new TypeError(`operation must be an operationId of the description, not ${JSON.stringify(fault?.operation)}`);
    const documented = Object.hasOwn(entry.operation.responses ?? {}, String(fault.status)) || [429, 503].includes(fault.status);
    if (!Number.isInteger(fault.status) || !documented) {
      throw new TypeError(`status must be a status that ${fault.operation} documents (or 429, 503), not ${JSON.stringify(fault.status)}`);
    }
    for (const key of ['retry_after_s', 'delay_ms', 'count'] as const) {
      const value = fault[key];
      if (value !== undefined && (!Number.isInteger(value) || value < 0))
        throw new TypeError(`${key} must be a whole number >= 0, not ${JSON.stringify(value)}`);
    }
    this.faults.push({ ...fault, count: fault.count ?? 1 });
  }

  /** The scripted fault of an operation's next answer, used up by this call. */
  private nextFault(operationId: string): Fault | undefined {
    const fault = this.faults.find((candidate) => candidate.operation === operationId && (candidate.count ?? 1) > 0);
    if (!fault) return undefined;
    fault.count = (fault.count ?? 1) - 1;
    this.faults = this.faults.filter((candidate) => (candidate.count ?? 0) > 0);
    return fault;
  }

  /** The answer of a valid call that depends on the state, or undefined when the examples answer it. */
  async answer(call: Call, operation: RouteOperation): Promise<Answer | undefined> {
    const fault = this.nextFault(operation.operationId);
    if (fault) {
      if (fault.delay_ms) await new Promise((resolve) => setTimeout(resolve, fault.delay_ms));
      const documented = exampleOf(this.document, operation.operationId, String(fault.status));
      const headers: Record<string, string> = fault.retry_after_s === undefined ? {} : { 'retry-after': String(fault.retry_after_s) };
      return documented
        ? json(fault.status, documented.value, documented.mediaType, headers)
        : {
            ...errorAnswer(fault.status, `a fault scripted with POST ${controlPrefix}faults`),
            headers: { ...errorAnswer(fault.status, '').headers, ...headers },
          };
    }
    const zaaid = zaaidOf(call);
    const account = zaaid === undefined ? this.accounts.get('main') : this.accounts.get(zaaid);
    if (!account || (zaaid !== undefined && account.kind === 'main')) {
      // Not one of the caller's customers or business units: the documented message; the status is the mock's choice.
      const refused = exampleOf(this.document, operation.operationId, '403', 'NotAuthorizedForAccount');
      return refused ? json(403, refused.value, refused.mediaType) : undefined;
    }
    const success = (data: unknown) => {
      const documented = exampleOf(this.document, operation.operationId, '200');
      return documented ? json(200, { ...(documented.value as Json), data }, documented.mediaType) : undefined;
    };
    switch (operation.operationId) {
      case 'listMonitors':
        return success(account.monitors);
      case 'getMonitor': {
        const { monitor_id: id } = pathValues(operation.template, call.path);
        const monitor = account.monitors.find((candidate) => String(candidate.monitor_id) === id);
        if (monitor) return success(monitor);
        const missing = exampleOf(this.document, operation.operationId, '404', 'MonitorNotFound');
        return missing
          ? json(404, missing.value, missing.mediaType)
          : json(404, { code: 1002, message: 'Monitor does not exist.' }, errorContentType);
      }
      case 'createMonitorGroup': {
        // The answer's content is not shown in the documents: the mock answers the documented example, and keeps the
        // group (the body sent, with a group_id of its own) in the account's state.
        const body = call.body.length > 0 ? (JSON.parse(call.body.toString('utf8')) as Json) : {};
        account.groups.push({ group_id: String(account.groups.length + 1), ...body });
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** The answer of the test API (`/__mock/...`), or undefined for any other path. */
  control(call: Call): Answer | undefined {
    if (!call.path.startsWith(controlPrefix)) return undefined;
    const what = call.path.slice(controlPrefix.length).split('?')[0];
    const reply = (status: number, body?: unknown) =>
      body === undefined ? { status, headers: {}, body: Buffer.alloc(0) } : json(status, body, 'application/json');
    try {
      if (what === 'state' && call.method === 'GET') return reply(200, this.state());
      if (what === 'reset' && call.method === 'POST') {
        this.reset();
        return reply(204);
      }
      if (what === 'faults' && call.method === 'POST') {
        this.fault(JSON.parse(call.body.toString('utf8') || 'null') as Fault);
        return reply(201, { faults: this.state().faults });
      }
    } catch (error) {
      return errorAnswer(400, `${call.method} ${call.path}: ${(error as Error).message}`);
    }
    return errorAnswer(
      404,
      `${call.method} ${call.path} is not part of the mock's test API: GET ${controlPrefix}state, POST ${controlPrefix}reset, POST ${controlPrefix}faults`,
    );
  }
}
