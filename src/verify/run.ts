// One run of verify, from signing in to the report: the calls it plans, in order; each is made and judged by the
// run's Caller (call.ts), within the pacer's bounds (send.ts), and the report sums up their checks (summary.ts).
import { isZaaid } from '../client/request-values.js';
import { isRecord } from '../description/openapi.js';
import { type OptionNames, option, say, type Wording, wording } from '../options.js';
import type { Redactor } from '../output/redact.js';
import { Caller, PathValues } from './call.js';
import { createJudge, type Judge } from './judge.js';
import { packagedBundle, type ResourceOperation, resourceOperations, type Settings } from './options.js';
import { Pacer } from './pace.js';
import { Sender } from './send.js';
import { AccessTokens } from './sign-in.js';
import { assemble } from './summary.js';
import type { CheckReport, VerifyReport } from './types.js';

export async function run(settings: Settings, redactor: Redactor): Promise<VerifyReport> {
  const started = Date.now();
  const judge: Judge = await createJudge(settings.description);
  const bundle = settings.description ?? packagedBundle();
  const pacer = new Pacer({ budget: settings.budget, ratePerSecond: settings.ratePerSecond, maxWaitMs: settings.maxWaitMs });
  const checks: CheckReport[] = [];
  const notes: string[] = [];
  const record = (check: CheckReport) => {
    checks.push(check);
    settings.onCheck?.(check);
  };
  const sender = new Sender(pacer, settings.fetch, settings.timeoutMs);
  const tokens = new AccessTokens(settings, redactor, sender, judge, record);
  const operations = resourceOperations(bundle);
  const pathValues = new PathValues(operations, notes);
  const caller = new Caller({ settings, judge, bundle, pacer, sender, tokens, pathValues, record });

  const gets = operations.filter((entry) => entry.method === 'get');
  const bodies = await callEveryGet(caller, gets);
  await callErrorPaths(caller, gets, settings.unknownMonitorId);
  await callAllowedWrites(caller, operations, settings.allow);
  if (settings.accounts) await callAsAccounts(caller, gets, bodies, notes, settings.optionNames);

  if (pacer.stopped) notes.push(`The run was cut short: ${pacer.stopped.message}.`);
  return assemble(settings, checks, notes, {
    title: String(judge.document.info?.title ?? ''),
    version: String(judge.document.info?.version ?? ''),
    started,
    requestsSent: pacer.sent.length,
  });
}

/**
 * Step 1: every documented GET, on the caller's own account. GETs change nothing, so all are called; the bodies of
 * those sent are kept for step 4 (the accounts the listings give).
 */
async function callEveryGet(caller: Caller, gets: ResourceOperation[]): Promise<Map<string, unknown>> {
  const bodies = new Map<string, unknown>();
  for (const entry of gets) {
    const check = await caller.call({
      entry,
      purpose: 'documented-call',
      label: 'documented call',
      withToken: caller.requiresToken(entry),
    });
    if (check.outcome !== 'skipped') bodies.set(entry.operationId, check.body);
  }
  return bodies;
}

/**
 * Step 2: the error paths that change nothing, which the documents specify: a call without a token (401) and a
 * monitor that does not exist (404, code 1002).
 */
async function callErrorPaths(caller: Caller, gets: ResourceOperation[], unknownMonitorId: string): Promise<void> {
  const noTokenTarget = gets.find((entry) => caller.requiresToken(entry) && !entry.parameters.some((parameter) => parameter.in === 'path'));
  if (noTokenTarget)
    await caller.call({ entry: noTokenTarget, purpose: 'no-token', label: 'without a token (expects 401)', withToken: false });
  const monitorTarget = gets.find((entry) =>
    entry.parameters.some((parameter) => parameter.in === 'path' && parameter.name === 'monitor_id'),
  );
  if (monitorTarget) {
    await caller.call({
      entry: monitorTarget,
      purpose: 'unknown-monitor',
      label: 'a monitor that does not exist (expects 404, code 1002)',
      withToken: caller.requiresToken(monitorTarget),
      pathValues: { monitor_id: unknownMonitorId },
      // The mock plays the documented 404 on request; a real service ignores the header.
      headers: { Prefer: 'code=404' },
    });
  }
}

/** Step 3: the writes, only those the caller named (`allow`): they change data in the account, and nothing undoes them. */
async function callAllowedWrites(caller: Caller, operations: ResourceOperation[], allow: string[]): Promise<void> {
  const byId = new Map(operations.map((entry) => [entry.operationId, entry]));
  for (const name of allow) {
    const entry = byId.get(name)!;
    await caller.call({ entry, purpose: 'write', label: 'documented example (allowed write)', withToken: caller.requiresToken(entry) });
  }
}

/**
 * Step 4 (`accounts`): every GET again, through the zaaid cookie, as the first customer and the first business-unit
 * account that the listings of step 1 gave: what a service answers for another account may differ.
 */
async function callAsAccounts(
  caller: Caller,
  gets: ResourceOperation[],
  bodies: Map<string, unknown>,
  notes: string[],
  names: OptionNames,
): Promise<void> {
  const sources = [
    { kind: 'customer' as const, entry: gets.find((entry) => entry.template === '/short/msp/customers') },
    { kind: 'business unit' as const, entry: gets.find((entry) => entry.template === '/short/bu/business_units') },
  ];
  const listings = new Set(sources.map((source) => source.entry?.operationId));
  for (const source of sources) {
    if (!source.entry) continue;
    const zaaid = firstAccount(source.kind, source.entry, bodies.get(source.entry.operationId), (note) => notes.push(say(note, names)));
    if (!zaaid) continue;
    for (const entry of gets.filter((candidate) => !listings.has(candidate.operationId))) {
      await caller.call({
        entry,
        purpose: 'documented-call',
        label: `documented call, as the first ${source.kind} account`,
        account: { kind: source.kind, zaaid },
        withToken: caller.requiresToken(entry),
      });
    }
  }
}

/** The zaaid of the first account of a listing's body, or undefined (with a note saying why) when there is none to use. */
function firstAccount(kind: string, listing: ResourceOperation, body: unknown, note: (wording: Wording) => void): string | undefined {
  const data = isRecord(body) ? body.data : undefined;
  const first = Array.isArray(data) ? data[0] : undefined;
  const zaaid = isRecord(first) && typeof first.zaaid === 'string' ? first.zaaid : undefined;
  if (!zaaid) {
    note(wording`With ${option('accounts', true)}, ${listing.operationId} gave no ${kind} account, so no call was made for one.`);
    return undefined;
  }
  if (!isZaaid(zaaid)) {
    // It would break the Cookie header or add a cookie of its own: the client refuses such a zaaid too.
    note(
      wording`With ${option('accounts', true)}, ${listing.operationId} gave the ${kind} account ${JSON.stringify(zaaid)}, which is not a cookie value, so no call was made for it.`,
    );
    return undefined;
  }
  return zaaid;
}
