// One run of verify, from signing in to the report: the calls it plans, sends, paces and judges.
import { RefreshingTokens, fixedToken, type TokenSource } from '../client/auth.js';
import { parseRetryAfter, type FetchLike } from '../client/http.js';
import { isPathValue, isZaaid } from '../client/request-values.js';
import { ServiceError } from '../client/errors.js';
import { apiRoot } from '../description/mock-document.js';
import { deref, isRecord, type Json } from '../description/openapi.js';
import { exampleOf, requestTarget, serializeBody } from '../description/examples.js';
import type { RouteOperation } from '../description/routes.js';
import { splitTarget } from '../http/exchange.js';
import { describeFetchFailure } from '../http/fetch-failure.js';
import type { Redactor } from '../output/redact.js';
import { createJudge, type Judge } from './judge.js';
import { packagedBundle, resourceOperations, type ResourceOperation, type Settings } from './options.js';
import { Pacer } from './pace.js';
import {
  verifyExitCodes,
  type CheckOutcome,
  type CheckPurpose,
  type CheckReport,
  type OperationSummary,
  type VerifyReport,
} from './types.js';

interface Sent {
  status: number;
  headers: Record<string, string>;
  text: string;
}

type SendResult =
  | { ok: true; answer: Sent; attempts: number; durationMs: number }
  | { ok: false; outcome: 'incomplete' | 'skipped'; note: string; attempts: number; answer?: Sent };

const outcomeRank: Record<CheckOutcome, number> = { pass: 0, unconfirmed: 1, skipped: 2, incomplete: 3, fail: 4 };

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** Where a redirect points, as origin and path (its query may hold anything). */
function redirectTarget(location: string, base: string): string {
  try {
    const url = new URL(location, base);
    return `${url.origin}${url.pathname}`;
  } catch {
    return 'an address that is not a URL';
  }
}

/** The note of a redirect answer, or undefined for any other answer. */
function redirectNote(answer: { status: number; headers: Record<string, string> }, base: string): string | undefined {
  if (answer.status < 300 || answer.status >= 400 || answer.headers.location === undefined) return undefined;
  return `a redirect to ${redirectTarget(answer.headers.location, base)}, not followed: verify sends credentials only to the address it was given`;
}

export async function run(settings: Settings, redactor: Redactor): Promise<VerifyReport> {
  const started = Date.now();
  const judge: Judge = await createJudge(settings.description);
  const bundleDocument = settings.description ?? packagedBundle();
  const document = judge.document;
  const version = String(document.info?.version ?? '');
  const accept = `application/json; version=${version}`;
  const pacer = new Pacer({ budget: settings.budget, ratePerSecond: settings.ratePerSecond, maxWaitMs: settings.maxWaitMs });
  const checks: CheckReport[] = [];
  const notes: string[] = [];

  const record = (check: CheckReport) => {
    checks.push(check);
    settings.onCheck?.(check);
  };

  /** One HTTP request within the budget, the rate and the time limit. */
  const once = async (request: Request): Promise<{ refused: string } | { response: Response; text: string } | { error: string }> => {
    const refusal = await pacer.slot();
    if (refusal) return { refused: refusal.message };
    try {
      // Never follow a redirect: the request carries credentials, and a 3xx is an answer to judge (and report).
      const response = await settings.fetch(new Request(request, { signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'manual' }));
      const text = await response.text();
      return { response, text };
    } catch (error) {
      return { error: describeFetchFailure(error, settings.timeoutMs) };
    }
  };

  /** Calls in a row that got no answer: after three, the service is taken to be down and the run ends. */
  let unanswered = 0;
  /** A call with up to two retries after 429 or 503, waiting as Retry-After says (or 1 s, then 2 s). */
  const send = async (build: () => Request): Promise<SendResult> => {
    const begun = performance.now();
    let attempts = 0;
    for (let retry = 0; ; retry++) {
      const result = await once(build());
      if ('refused' in result) return { ok: false, outcome: 'skipped', note: `not sent: ${result.refused}`, attempts };
      attempts += 1;
      if ('error' in result) {
        unanswered += 1;
        if (unanswered >= 3)
          pacer.stop({ reason: 'no-answer', message: `${unanswered} calls in a row got no answer (the last: ${result.error})` });
        return { ok: false, outcome: 'incomplete', note: `no answer: ${result.error}`, attempts };
      }
      unanswered = 0;
      const headers: Record<string, string> = {};
      result.response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const answer = { status: result.response.status, headers, text: result.text };
      if ((answer.status === 429 || answer.status === 503) && retry < 2) {
        const wait = parseRetryAfter(result.response.headers.get('Retry-After')) ?? 1000 * 2 ** retry;
        if (pacer.hold(wait)) continue;
        return {
          ok: false,
          outcome: 'incomplete',
          note: `answered ${answer.status}; ${pacer.stopped?.message ?? 'verify stopped'}`,
          attempts,
          answer,
        };
      }
      return { ok: true, answer, attempts, durationMs: Math.round(performance.now() - begun) };
    }
  };

  // Access tokens: one from the refresh token (the identity provider's answer is judged too), or the one given.
  let signIn: Sent | undefined;
  let tokens: TokenSource;
  let tokenFailure: string | undefined;
  if (settings.auth.refreshToken !== undefined) {
    const identityFetch: FetchLike = async (request) => {
      const result = await once(request);
      if ('refused' in result) throw new Error(`not sent: ${result.refused}`);
      if ('error' in result) throw new Error(result.error);
      const headers: Record<string, string> = {};
      result.response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      signIn = { status: result.response.status, headers, text: result.text };
      const empty = [101, 204, 205, 304].includes(result.response.status);
      return new Response(empty ? null : result.text, { status: result.response.status, headers: result.response.headers });
    };
    tokens = new RefreshingTokens({
      authUrl: settings.authUrl!,
      clientId: settings.auth.clientId,
      clientSecret: settings.auth.clientSecret,
      refreshToken: settings.auth.refreshToken,
      fetch: identityFetch,
      insecure: settings.insecure,
      timeoutMs: settings.timeoutMs,
      clock: Date.now,
      renewalMarginMs: 60_000,
      onTokenRenewed: (token) => redactor.add(token.accessToken),
    });
  } else {
    tokens = fixedToken(settings.auth.accessToken);
  }
  const tokenOperation = { method: 'POST', path: '/oauth/v2/token', operationId: 'requestToken' };
  let judgedSignIn = false;
  const accessToken = async (): Promise<string | undefined> => {
    if (tokenFailure) return undefined;
    try {
      return await tokens.get(undefined, tokenOperation);
    } catch (error) {
      tokenFailure = ServiceError.is(error) ? error.message : error instanceof Error ? error.message : String(error);
      return undefined;
    } finally {
      if (signIn && !judgedSignIn) {
        judgedSignIn = true;
        await judgeSignIn(signIn);
      }
    }
  };

  const judgeSignIn = async (answer: Sent) => {
    const judgement = await judge.judge(
      { method: 'POST', path: '/oauth/v2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      answer,
    );
    const check: CheckReport = {
      operation: judge.operation('post', '/oauth/v2/token')?.operationId ?? 'requestToken',
      method: 'POST',
      template: '/oauth/v2/token',
      path: '/oauth/v2/token',
      purpose: 'sign-in',
      label: 'refresh-token grant (verify signing in)',
      status: answer.status,
      outcome: 'pass',
      violations: judgement.violations,
      undescribed: judgement.undescribed,
      notes: [],
      attempts: 1,
    };
    const redirect = redirectNote(answer, settings.authUrl ?? settings.baseUrl);
    if (redirect) check.notes.push(redirect);
    if (check.violations.length > 0) check.outcome = 'fail';
    else if (answer.status >= 300) {
      check.outcome = 'incomplete';
      check.notes.push(`the identity provider answered ${answer.status}: no access token`);
    }
    record(check);
  };

  const operations = resourceOperations(bundleDocument);
  const byId = new Map(operations.map((entry) => [entry.operationId, entry]));
  const routeOf = (entry: ResourceOperation): RouteOperation | undefined => judge.operation(entry.method, `${apiRoot}${entry.template}`);
  const requiresToken = (entry: ResourceOperation) => (routeOf(entry)?.securityHeaders.length ?? 0) > 0;

  interface CallPlan {
    entry: ResourceOperation;
    purpose: CheckPurpose;
    label: string;
    account?: { kind: 'customer' | 'business unit'; zaaid: string } | undefined;
    /** Values of path parameters, by name (else: learned from earlier answers, else the documented example). */
    pathValues?: Record<string, string>;
    withToken: boolean;
    headers?: Record<string, string>;
  }

  const pathParameterNames = new Set(
    operations.flatMap((entry) =>
      entry.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => String(parameter.name)),
    ),
  );
  /** Values of path parameters learned from earlier answers (e.g. monitor_id from the list of monitors), per account. */
  const learned = new Map<string, Map<string, string>>();
  const learn = (scope: string, body: unknown) => {
    const data = isRecord(body) ? body.data : undefined;
    const first = Array.isArray(data) ? data[0] : data;
    if (!isRecord(first)) return;
    const values = learned.get(scope) ?? new Map<string, string>();
    for (const [key, value] of Object.entries(first)) {
      if (!pathParameterNames.has(key) || values.has(key) || (typeof value !== 'string' && typeof value !== 'number')) continue;
      // A value from the service goes into a path only when it cannot address another path.
      if (isPathValue(value)) values.set(key, String(value));
      else notes.push(`The service gave ${key} ${JSON.stringify(value)}, which would address another path: it was not used in a request.`);
    }
    learned.set(scope, values);
  };

  /** Renewing the token after a 401 happens once in a run: a service that refuses every token gets no more. */
  let renewedOnce = false;
  const call = async (plan: CallPlan): Promise<CheckReport & { body?: unknown }> => {
    const { entry } = plan;
    const scope = plan.account?.kind ?? 'own';
    const target = requestTarget(entry.template, entry.parameters, (parameter) =>
      parameter.in === 'path'
        ? (plan.pathValues?.[parameter.name] ?? learned.get(scope)?.get(parameter.name) ?? exampleOf(bundleDocument, parameter))
        : exampleOf(bundleDocument, parameter),
    );
    const check: CheckReport & { body?: unknown } = {
      operation: entry.operationId,
      method: entry.method.toUpperCase(),
      template: entry.template,
      path: target,
      purpose: plan.purpose,
      label: plan.label,
      account: plan.account?.kind,
      outcome: 'pass',
      violations: [],
      undescribed: [],
      notes: [],
      attempts: 0,
    };
    const headers: Record<string, string> = { Accept: accept, ...plan.headers };
    if (plan.account) headers.Cookie = `zaaid=${plan.account.zaaid}`;
    let body: string | undefined;
    let bodyValue: unknown;
    if (plan.purpose === 'write') {
      const requestBody = deref(bundleDocument, entry.node.requestBody);
      const [mediaType, media] = Object.entries<Json>(requestBody?.content ?? {})[0] ?? [];
      if (mediaType && media) {
        bodyValue = exampleOf(bundleDocument, media);
        if (bodyValue !== undefined) {
          body = serializeBody(mediaType, bodyValue as Json);
          headers['Content-Type'] = mediaType;
        }
      }
    }
    if (pacer.stopped) {
      check.outcome = 'skipped';
      check.notes.push(`not sent: ${pacer.stopped.message}`);
      return check;
    }
    let token: string | undefined;
    if (plan.withToken) {
      token = await accessToken();
      if (token === undefined) {
        check.outcome = 'skipped';
        check.notes.push(`not sent: no access token (${tokenFailure ?? 'the identity provider did not give one'})`);
        return check;
      }
    }
    let renewed = false;
    let result: SendResult;
    for (;;) {
      result = await send(
        () =>
          new Request(`${settings.baseUrl}${target}`, {
            method: check.method,
            headers: token ? { ...headers, Authorization: `Service-oauthtoken ${token}` } : headers,
            body: body ?? null,
          }),
      );
      // The token may have expired early or been revoked: renew once in the run (the identity provider's limit).
      if (result.ok && result.answer.status === 401 && plan.withToken && tokens.renewable && !renewed && !renewedOnce) {
        renewed = true;
        renewedOnce = true;
        tokens.invalidate(token!);
        token = await accessToken();
        if (token !== undefined) continue;
      }
      break;
    }
    check.attempts = result.attempts;
    if (!result.ok) {
      check.outcome = result.outcome;
      check.notes.push(result.note);
      if (result.answer) check.status = result.answer.status;
      return check;
    }
    const { answer } = result;
    check.status = answer.status;
    check.durationMs = result.durationMs;
    const redirect = redirectNote(answer, settings.baseUrl);
    if (redirect) check.notes.push(redirect);
    if (answer.status === 429) {
      check.outcome = 'incomplete';
      check.notes.push(`answered 429 (too many requests) ${plural(result.attempts, 'time')}: not judged`);
      return check;
    }
    if (answer.status >= 500 && answer.status !== 500 && !routeOf(entry)?.statuses.includes(String(answer.status))) {
      check.outcome = 'incomplete';
      check.notes.push(`answered ${answer.status}, a server or gateway error: not judged`);
      return check;
    }
    const judgement = await judge.judge(
      {
        method: entry.method,
        path: `${apiRoot}${splitTarget(target)[0]}`,
        query: Object.fromEntries(new URLSearchParams(splitTarget(target)[1])),
        headers: { ...headers, ...(token ? { authorization: 'Service-oauthtoken verify' } : {}) },
        body: bodyValue,
      },
      answer,
    );
    check.violations = judgement.violations;
    check.undescribed = judgement.undescribed;
    check.body = judgement.body;
    const status = answer.status;
    const success = status >= 200 && status < 300;
    switch (plan.purpose) {
      case 'no-token':
        if (success) {
          check.violations.push({
            rule: 'security',
            message: `answered ${status} to a call without a token: every resource call needs Authorization: Service-oauthtoken {access_token} (core document, section 5)`,
          });
        } else if (status !== 401) {
          check.outcome = 'unconfirmed';
          check.notes.push(`answered ${status} without a token; the documented answer is 401`);
        }
        break;
      case 'unknown-monitor':
        if (status === 404) {
          const found = isRecord(judgement.body) ? judgement.body : {};
          if (Number.isInteger(found.code) && found.code !== 1002) {
            check.violations.push({
              rule: 'error-code',
              pointer: '/code',
              message: `the code for a monitor that does not exist is 1002 (core document, section 7), not ${String(found.code)}`,
            });
          }
          if (typeof found.message === 'string' && found.message !== 'Monitor does not exist.') {
            check.notes.push(`the message is ${JSON.stringify(found.message)}; the documents show "Monitor does not exist."`);
          }
        } else if (success) {
          check.outcome = 'unconfirmed';
          check.notes.push(
            `monitor ${settings.unknownMonitorId} exists: give one that does not (--unknown-monitor-id) to see the 404 with code 1002`,
          );
        } else {
          check.outcome = 'unconfirmed';
          check.notes.push(`answered ${status}; the documented answer for a monitor that does not exist is 404 with code 1002`);
        }
        break;
      default:
        if (status === 401 && plan.withToken) {
          check.outcome = 'incomplete';
          check.notes.push('the service refused the access token (401)');
        } else if (status === 500) {
          check.outcome = 'incomplete';
          check.notes.push('answered 500, a server error: the documented success answer was not seen');
        } else if (!success && judgement.documentedStatus) {
          check.outcome = 'unconfirmed';
          check.notes.push(`answered ${status}, a documented status: the success answer was not seen`);
        }
        if (success) learn(scope, judgement.body);
        if (success && plan.purpose === 'write')
          check.notes.push('this call created or changed data in the account; verify does not undo it');
    }
    if (check.violations.length > 0) check.outcome = 'fail';
    return check;
  };

  const finish = (check: CheckReport & { body?: unknown }) => {
    const { body: _body, ...reported } = check;
    record(reported);
    return check;
  };

  // 1. Every documented GET, on the caller's own account.
  const gets = operations.filter((entry) => entry.method === 'get');
  const bodies = new Map<string, unknown>();
  for (const entry of gets) {
    const check = finish(await call({ entry, purpose: 'documented-call', label: 'documented call', withToken: requiresToken(entry) }));
    if (check.outcome !== 'skipped') bodies.set(entry.operationId, check.body);
  }

  // 2. The error paths that change nothing: no token (401), a monitor that does not exist (404, code 1002).
  const noTokenTarget = gets.find((entry) => requiresToken(entry) && !entry.parameters.some((parameter) => parameter.in === 'path'));
  if (noTokenTarget)
    finish(await call({ entry: noTokenTarget, purpose: 'no-token', label: 'without a token (expects 401)', withToken: false }));
  const monitorTarget = gets.find((entry) =>
    entry.parameters.some((parameter) => parameter.in === 'path' && parameter.name === 'monitor_id'),
  );
  if (monitorTarget) {
    finish(
      await call({
        entry: monitorTarget,
        purpose: 'unknown-monitor',
        label: 'a monitor that does not exist (expects 404, code 1002)',
        withToken: requiresToken(monitorTarget),
        pathValues: { monitor_id: settings.unknownMonitorId },
        // The mock plays the documented 404 on request; a real service ignores the header.
        headers: { Prefer: 'code=404' },
      }),
    );
  }

  // 3. Writes, only those named.
  for (const name of settings.allow) {
    const entry = byId.get(name)!;
    finish(await call({ entry, purpose: 'write', label: 'documented example (allowed write)', withToken: requiresToken(entry) }));
  }

  // 4. With accounts: every GET again for the first customer and business-unit account.
  if (settings.accounts) {
    const sources = [
      { kind: 'customer' as const, entry: gets.find((entry) => entry.template === '/short/msp/customers') },
      { kind: 'business unit' as const, entry: gets.find((entry) => entry.template === '/short/bu/business_units') },
    ];
    const listings = new Set(sources.map((source) => source.entry?.operationId));
    for (const source of sources) {
      if (!source.entry) continue;
      const body = bodies.get(source.entry.operationId);
      const data = isRecord(body) ? body.data : undefined;
      const first = Array.isArray(data) ? data[0] : undefined;
      const zaaid = isRecord(first) && typeof first.zaaid === 'string' ? first.zaaid : undefined;
      if (!zaaid) {
        notes.push(`--accounts: ${source.entry.operationId} gave no ${source.kind} account, so no call was made for one.`);
        continue;
      }
      if (!isZaaid(zaaid)) {
        // It would break the Cookie header or add a cookie of its own: the client refuses such a zaaid too.
        notes.push(
          `--accounts: ${source.entry.operationId} gave the ${source.kind} account ${JSON.stringify(zaaid)}, which is not a cookie value, so no call was made for it.`,
        );
        continue;
      }
      for (const entry of gets.filter((candidate) => !listings.has(candidate.operationId))) {
        finish(
          await call({
            entry,
            purpose: 'documented-call',
            label: `documented call, as the first ${source.kind} account`,
            account: { kind: source.kind, zaaid },
            withToken: requiresToken(entry),
          }),
        );
      }
    }
  }

  if (pacer.stopped) notes.push(`The run was cut short: ${pacer.stopped.message}.`);
  return assemble(settings, checks, notes, {
    title: String(document.info?.title ?? ''),
    version,
    started,
    requestsSent: pacer.sent.length,
  });
}

// A pointer with its array indexes as `*` (`/data/3/x` is `/data/*/x`), segment by segment.
function pointerShape(pointer: string): string {
  return pointer
    .split('/')
    .map((token) => (token !== '' && [...token].every((char) => char >= '0' && char <= '9') ? '*' : token))
    .join('/');
}

function assemble(
  settings: Settings,
  checks: CheckReport[],
  notes: string[],
  facts: { title: string; version: string; started: number; requestsSent: number },
): VerifyReport {
  const undescribed: VerifyReport['undescribed'] = [];
  for (const check of checks) {
    for (const attribute of check.undescribed) {
      const shape = pointerShape(attribute.pointer);
      const known = undescribed.find(
        (entry) => entry.operation === check.operation && entry.status === check.status && pointerShape(entry.pointer) === shape,
      );
      if (known) {
        known.calls += 1;
        known.count += attribute.count;
        for (const type of attribute.types) if (!known.types.includes(type)) known.types.push(type);
      } else {
        undescribed.push({ operation: check.operation, status: check.status ?? 0, ...attribute, types: [...attribute.types], calls: 1 });
      }
    }
  }
  const operations = new Map<string, OperationSummary>();
  for (const check of checks) {
    const summary = operations.get(check.operation) ?? {
      operation: check.operation,
      method: check.method,
      template: check.template,
      calls: 0,
      outcome: 'pass',
      violations: 0,
      undescribed: 0,
    };
    summary.calls += 1;
    summary.violations += check.violations.length;
    summary.undescribed = undescribed.filter((entry) => entry.operation === check.operation).length;
    if (outcomeRank[check.outcome] > outcomeRank[summary.outcome]) summary.outcome = check.outcome;
    operations.set(check.operation, summary);
  }
  const undocumentedStatuses: { operation: string; status: number }[] = [];
  for (const check of checks) {
    if (
      check.status !== undefined &&
      check.violations.some((violation) => violation.rule === 'status') &&
      !undocumentedStatuses.some((entry) => entry.operation === check.operation && entry.status === check.status)
    ) {
      undocumentedStatuses.push({ operation: check.operation, status: check.status });
    }
  }
  const broken = checks.some((check) => check.outcome === 'fail');
  const incomplete = checks.some((check) => check.outcome === 'incomplete' || check.outcome === 'skipped');
  const result = broken ? 'broken' : incomplete ? 'incomplete' : 'clean';
  return {
    target: {
      baseUrl: settings.baseUrl,
      authUrl: settings.authUrl,
      dataCenter: settings.dataCenter,
      auth: settings.auth.refreshToken !== undefined ? 'refresh token' : 'access token',
    },
    contract: { title: facts.title, version: facts.version },
    startedAt: new Date(facts.started).toISOString(),
    finishedAt: new Date().toISOString(),
    limits: {
      budget: settings.budget,
      ratePerSecond: settings.ratePerSecond,
      maxWaitMs: settings.maxWaitMs,
      requestsSent: facts.requestsSent,
    },
    options: { accounts: settings.accounts, allow: settings.allow, unknownMonitorId: settings.unknownMonitorId },
    checks,
    operations: [...operations.values()],
    undescribed,
    undocumentedStatuses,
    notes,
    result,
    exitCode: result === 'broken' ? verifyExitCodes.broken : result === 'incomplete' ? verifyExitCodes.incomplete : verifyExitCodes.clean,
  };
}
