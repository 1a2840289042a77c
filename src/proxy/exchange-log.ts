// The proxy's log of exchanges: each call and answer read into a report (the operation reached, the violations by
// side and location, the exchange's credentials redacted), the last `maxReports` kept, and a tally of all.

import { matchRoute, type Route } from '../description/routes.js';
import { ruleOf } from '../engine/prism.js';
import { type Answer, type Call, isForm, type Violation } from '../http/exchange.js';
import { exchangeLimit, Redactor, redactTarget, secretsOfRequest } from '../output/redact.js';
import { addToTally, defaultMaxReports, type ExchangeReport, emptyTally, type ReportedViolation } from './reports.js';

function toReported(violation: Violation): ReportedViolation {
  const [first = 'request', ...rest] = violation.location;
  const side = first === 'response' ? 'response' : 'request';
  // The engine repeats the location in the message ("Response body property data.x must be string"): keep the rule.
  const message = ruleOf(violation.message);
  return {
    side,
    location: rest.length > 0 ? rest.join('.') : side === 'response' ? 'status' : 'request',
    severity: violation.severity === 'Error' ? 'Error' : 'Warning',
    message: message.charAt(0).toLowerCase() + message.slice(1),
  };
}

/** A form body as text, for reading its credential fields. */
const formOf = (call: Call) => (call.mediaType && isForm(call.mediaType.type) ? call.body.toString('utf8') : undefined);

/**
 * The reports of the exchanges, each naming the operation it reached, with the exchange's credentials redacted: the
 * last `maxReports` of them, and the tally of all.
 */
export class ExchangeLog {
  readonly reports: ExchangeReport[] = [];
  readonly tally = emptyTally();

  constructor(
    private readonly routes: Route[],
    private readonly onReport: ((report: ExchangeReport) => void) | undefined,
    private readonly maxReports = defaultMaxReports,
  ) {}

  record(call: Call | undefined, answer: Answer, forwarded: boolean, violations: Violation[]): void {
    const operation = call ? matchRoute(this.routes, call.segments, call.method)?.operation : undefined;
    // The credentials of the exchange never reach a line or the report file, in whatever form they are echoed. What
    // comes from the request (its target, the violations' texts) is redacted; a request that carries more secrets
    // than one redaction holds shows none of it.
    const secrets = call ? secretsOfRequest({ url: call.url, headers: call.headers, form: formOf(call) }) : [];
    const redactor = new Redactor(secrets, { limit: exchangeLimit });
    const report: ExchangeReport = {
      time: new Date().toISOString(),
      method: call?.method ?? '?',
      url: call ? redactor.text(redactTarget(call.url)) : '(not valid HTTP)',
      operation: operation ? `${operation.operationId} ${operation.method.toUpperCase()} ${operation.template}` : undefined,
      status: answer.status,
      forwarded,
      violations: violations.map(toReported).map((reported) => ({
        ...reported,
        location: redactor.text(reported.location),
        message: redactor.text(reported.message),
      })),
    };
    this.reports.push(report);
    if (this.reports.length > this.maxReports) this.reports.splice(0, this.reports.length - this.maxReports);
    addToTally(this.tally, report);
    this.onReport?.(report);
  }
}
