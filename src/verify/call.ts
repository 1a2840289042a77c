// One call of verify, as a plan says: the request built from the description's examples (and values learned from
// earlier answers), sent with a token, and its answer judged against the contract and against what the call aimed at.
import { isPathValue } from '../client/request-values.js';
import { exampleOf, requestTarget, serializeBody } from '../description/examples.js';
import { apiRoot } from '../description/mock-document.js';
import { deref, isRecord, type OpenApiDocument } from '../description/openapi.js';
import type { RouteOperation } from '../description/routes.js';
import { splitTarget } from '../http/exchange.js';
import { option, say, wording } from '../options.js';
import type { Judge, Judgement } from './judge.js';
import type { ResourceOperation, Settings } from './options.js';
import type { Pacer } from './pace.js';
import { redirectNote, type Sender, type SendResult, type Sent } from './send.js';
import type { AccessTokens } from './sign-in.js';
import type { CheckPurpose, CheckReport } from './types.js';

export interface CallPlan {
  entry: ResourceOperation;
  purpose: CheckPurpose;
  label: string;
  account?: { kind: 'customer' | 'business unit'; zaaid: string } | undefined;
  /** Values of path parameters, by name (else: learned from earlier answers, else the documented example). */
  pathValues?: Record<string, string>;
  withToken: boolean;
  headers?: Record<string, string>;
}

/** A check with the parsed body of its answer, which later steps read (the accounts of a listing). */
export type CheckWithBody = CheckReport & { body?: unknown };

/** The request of a plan, before its token. */
interface PlannedRequest {
  /** Path and query, relative to the API root. */
  target: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The body as a value, for the judge. */
  bodyValue: unknown;
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * Values of path parameters learned from earlier answers (e.g. monitor_id from the list of monitors), per account:
 * a call on one monitor addresses one the service has, rather than the description's example.
 */
export class PathValues {
  private readonly names: Set<string>;
  private readonly learned = new Map<string, Map<string, string>>();

  constructor(
    operations: ResourceOperation[],
    private readonly notes: string[],
  ) {
    this.names = new Set(
      operations.flatMap((entry) => entry.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name)),
    );
  }

  get(scope: string, name: string): string | undefined {
    return this.learned.get(scope)?.get(name);
  }

  /** Takes the path parameters' values of the first item of a successful answer's `data`. */
  learn(scope: string, body: unknown): void {
    const data = isRecord(body) ? body.data : undefined;
    const first = Array.isArray(data) ? data[0] : data;
    if (!isRecord(first)) return;
    const values = this.learned.get(scope) ?? new Map<string, string>();
    for (const [key, value] of Object.entries(first)) {
      if (!this.names.has(key) || values.has(key) || (typeof value !== 'string' && typeof value !== 'number')) continue;
      // A value from the service goes into a path only when it cannot address another path.
      if (isPathValue(value)) values.set(key, String(value));
      else
        this.notes.push(
          `The service gave ${key} ${JSON.stringify(value)}, which would address another path: it was not used in a request.`,
        );
    }
    this.learned.set(scope, values);
  }
}

/** The check of a plan before anything is known of its answer. */
function newCheck(plan: CallPlan, target: string): CheckWithBody {
  return {
    operation: plan.entry.operationId,
    method: plan.entry.method.toUpperCase(),
    template: plan.entry.template,
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
}

/** Why an answer is not judged (a rate limit or a gateway's error says nothing of the contract), or undefined. */
function unjudgedNote(answer: Sent, attempts: number, route: RouteOperation | undefined): string | undefined {
  if (answer.status === 429) return `answered 429 (too many requests) ${plural(attempts, 'time')}: not judged`;
  if (answer.status >= 500 && answer.status !== 500 && !route?.statuses.includes(String(answer.status)))
    return `answered ${answer.status}, a server or gateway error: not judged`;
  return undefined;
}

/** A call without a token must be refused: a success breaks the contract, a refusal other than 401 is unconfirmed. */
function judgeNoToken(check: CheckReport, status: number): void {
  if (status >= 200 && status < 300) {
    check.violations.push({
      rule: 'security',
      message: `answered ${status} to a call without a token: every resource call needs Authorization: Service-oauthtoken {access_token} (core document, section 5)`,
    });
  } else if (status !== 401) {
    check.outcome = 'unconfirmed';
    check.notes.push(`answered ${status} without a token; the documented answer is 401`);
  }
}

/** A monitor that does not exist is a 404 with code 1002 and the documents' message; another answer proves nothing. */
function judgeUnknownMonitor(
  check: CheckReport,
  status: number,
  body: unknown,
  settings: Pick<Settings, 'unknownMonitorId' | 'optionNames'>,
): void {
  const { unknownMonitorId } = settings;
  if (status === 404) {
    const found = isRecord(body) ? body : {};
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
  } else if (status >= 200 && status < 300) {
    check.outcome = 'unconfirmed';
    check.notes.push(
      say(
        wording`monitor ${unknownMonitorId} exists: give one that does not (${option('unknownMonitorId')}) to see the 404 with code 1002`,
        settings.optionNames,
      ),
    );
  } else {
    check.outcome = 'unconfirmed';
    check.notes.push(`answered ${status}; the documented answer for a monitor that does not exist is 404 with code 1002`);
  }
}

/** A documented call aims at its success answer: a refused token, a 500 or another documented status do not show it. */
function judgeDocumentedCall(check: CheckReport, plan: CallPlan, status: number, documentedStatus: boolean): void {
  const success = status >= 200 && status < 300;
  if (status === 401 && plan.withToken) {
    check.outcome = 'incomplete';
    check.notes.push('the service refused the access token (401)');
  } else if (status === 500) {
    check.outcome = 'incomplete';
    check.notes.push('answered 500, a server error: the documented success answer was not seen');
  } else if (!success && documentedStatus) {
    check.outcome = 'unconfirmed';
    check.notes.push(`answered ${status}, a documented status: the success answer was not seen`);
  }
  if (success && plan.purpose === 'write') check.notes.push('this call created or changed data in the account; verify does not undo it');
}

/** What a Caller needs of the run. */
export interface CallerContext {
  settings: Settings;
  judge: Judge;
  /** The bundled description, whose examples fill the requests. */
  bundle: OpenApiDocument;
  pacer: Pacer;
  sender: Sender;
  tokens: AccessTokens;
  pathValues: PathValues;
  record: (check: CheckReport) => void;
}

/** Makes the calls of a run, one plan at a time, and records their checks. */
export class Caller {
  /** Renewing the token after a 401 happens once in a run: a service that refuses every token gets no more. */
  private renewedOnce = false;
  /** The Accept header of every call: the description's version. */
  private readonly accept: string;

  constructor(private readonly context: CallerContext) {
    this.accept = `application/json; version=${String(context.judge.document.info?.version ?? '')}`;
  }

  /** The operation of the contract an entry reaches, as the judge knows it. */
  route(entry: ResourceOperation): RouteOperation | undefined {
    return this.context.judge.operation(entry.method, `${apiRoot}${entry.template}`);
  }

  /** Whether the operation's security asks for a token (a call without one then expects 401). */
  requiresToken(entry: ResourceOperation): boolean {
    return (this.route(entry)?.securityHeaders.length ?? 0) > 0;
  }

  /** Makes the call of a plan and records its check; gives the check with the answer's body. */
  async call(plan: CallPlan): Promise<CheckWithBody> {
    const check = await this.make(plan);
    const { body: _body, ...reported } = check;
    this.context.record(reported);
    return check;
  }

  /** One call: not sent once the run has stopped or without the token it needs; else sent, then judged. */
  private async make(plan: CallPlan): Promise<CheckWithBody> {
    const { pacer, tokens } = this.context;
    const request = this.plannedRequest(plan);
    const check = newCheck(plan, request.target);
    if (pacer.stopped) {
      check.outcome = 'skipped';
      check.notes.push(`not sent: ${pacer.stopped.message}`);
      return check;
    }
    let token: string | undefined;
    if (plan.withToken) {
      token = await tokens.get();
      if (token === undefined) {
        check.outcome = 'skipped';
        check.notes.push(`not sent: no access token (${tokens.failure ?? 'the identity provider did not give one'})`);
        return check;
      }
    }
    const sent = await this.send(plan, request, token);
    check.attempts = sent.result.attempts;
    if (!sent.result.ok) {
      check.outcome = sent.result.outcome;
      check.notes.push(sent.result.note);
      if (sent.result.answer) check.status = sent.result.answer.status;
      return check;
    }
    return this.judgeAnswer(plan, request, sent.token, check, sent.result);
  }

  /** The request of a plan: its path and query, headers and body from the description's examples. */
  private plannedRequest(plan: CallPlan): PlannedRequest {
    const { bundle, pathValues } = this.context;
    const { entry } = plan;
    const scope = plan.account?.kind ?? 'own';
    const target = requestTarget(entry.template, entry.parameters, (parameter) =>
      parameter.in === 'path'
        ? (plan.pathValues?.[parameter.name] ?? pathValues.get(scope, parameter.name) ?? exampleOf(bundle, parameter))
        : exampleOf(bundle, parameter),
    );
    const headers: Record<string, string> = { Accept: this.accept, ...plan.headers };
    if (plan.account) headers.Cookie = `zaaid=${plan.account.zaaid}`;
    let body: string | undefined;
    let bodyValue: unknown;
    if (plan.purpose === 'write') {
      const requestBody = isRecord(entry.node.requestBody) ? deref(bundle, entry.node.requestBody) : undefined;
      const [mediaType, media] = Object.entries(isRecord(requestBody?.content) ? requestBody.content : {})[0] ?? [];
      if (mediaType && isRecord(media)) {
        bodyValue = exampleOf(bundle, media);
        if (bodyValue !== undefined) {
          body = serializeBody(mediaType, bodyValue);
          headers['Content-Type'] = mediaType;
        }
      }
    }
    return { target, headers, body, bodyValue };
  }

  /**
   * Sends the request; after a 401 renews the token and sends it again, once in the run (the token may have expired
   * early or been revoked, and the identity provider limits renewals). Gives the token the last request carried.
   */
  private async send(
    plan: CallPlan,
    request: PlannedRequest,
    token: string | undefined,
  ): Promise<{ result: SendResult; token: string | undefined }> {
    const { settings, sender, tokens } = this.context;
    let renewed = false;
    for (;;) {
      const result = await sender.send(
        () =>
          new Request(`${settings.baseUrl}${request.target}`, {
            method: plan.entry.method.toUpperCase(),
            headers: token ? { ...request.headers, Authorization: `Service-oauthtoken ${token}` } : request.headers,
            body: request.body ?? null,
          }),
      );
      if (result.ok && result.answer.status === 401 && plan.withToken && tokens.renewable && !renewed && !this.renewedOnce) {
        renewed = true;
        this.renewedOnce = true;
        tokens.invalidate(token!);
        token = await tokens.get();
        if (token !== undefined) continue;
      }
      return { result, token };
    }
  }

  /** The answer against the contract (the judge), then against what the plan aimed at. */
  private async judgeAnswer(
    plan: CallPlan,
    request: PlannedRequest,
    token: string | undefined,
    check: CheckWithBody,
    result: Extract<SendResult, { ok: true }>,
  ): Promise<CheckWithBody> {
    const { answer } = result;
    check.status = answer.status;
    check.durationMs = result.durationMs;
    const redirect = redirectNote(answer, this.context.settings.baseUrl);
    if (redirect) check.notes.push(redirect);
    const unjudged = unjudgedNote(answer, result.attempts, this.route(plan.entry));
    if (unjudged) {
      check.outcome = 'incomplete';
      check.notes.push(unjudged);
      return check;
    }
    const judgement = await this.verdict(plan, request, token, answer);
    check.violations = judgement.violations;
    check.undescribed = judgement.undescribed;
    check.body = judgement.body;
    this.judgePurpose(plan, check, answer.status, judgement);
    if (check.violations.length > 0) check.outcome = 'fail';
    return check;
  }

  /** The judge's verdict on the answer, for the request as sent (the token itself stays out of it). */
  private verdict(plan: CallPlan, request: PlannedRequest, token: string | undefined, answer: Sent): Promise<Judgement> {
    const [path, query] = splitTarget(request.target);
    return this.context.judge.judge(
      {
        method: plan.entry.method,
        path: `${apiRoot}${path}`,
        query: Object.fromEntries(new URLSearchParams(query)),
        headers: { ...request.headers, ...(token ? { authorization: 'Service-oauthtoken verify' } : {}) },
        body: request.bodyValue,
      },
      answer,
    );
  }

  /** Whether the answer is the one the plan aimed at; a documented call's success also teaches path values. */
  private judgePurpose(plan: CallPlan, check: CheckReport, status: number, judgement: Judgement): void {
    switch (plan.purpose) {
      case 'no-token':
        judgeNoToken(check, status);
        break;
      case 'unknown-monitor':
        judgeUnknownMonitor(check, status, judgement.body, this.context.settings);
        break;
      default:
        judgeDocumentedCall(check, plan, status, judgement.documentedStatus);
        if (status >= 200 && status < 300) this.context.pathValues.learn(plan.account?.kind ?? 'own', judgement.body);
    }
  }
}
