// The report of a run, from its checks: what the contract does not describe, one line per operation, the statuses
// the contract does not document, and the verdict with its exit code.
import type { Settings } from './options.js';
import { type CheckOutcome, type CheckReport, type OperationSummary, type VerifyReport, verifyExitCodes } from './types.js';

const outcomeRank: Record<CheckOutcome, number> = { pass: 0, unconfirmed: 1, skipped: 2, incomplete: 3, fail: 4 };

// A pointer with its array indexes as `*` (`/data/3/x` is `/data/*/x`), segment by segment.
function pointerShape(pointer: string): string {
  return pointer
    .split('/')
    .map((token) => (token !== '' && [...token].every((char) => char >= '0' && char <= '9') ? '*' : token))
    .join('/');
}

/** The undescribed attributes of every check, once per operation, status and place: the items of a list are one place. */
function undescribedOf(checks: CheckReport[]): VerifyReport['undescribed'] {
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
  return undescribed;
}

/** One line per operation: its calls, its violations, its undescribed attributes and the worst outcome of its calls. */
function operationSummaries(checks: CheckReport[], undescribed: VerifyReport['undescribed']): OperationSummary[] {
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
  return [...operations.values()];
}

/** The statuses the service answered that their operation does not document, once per operation and status. */
function undocumentedStatusesOf(checks: CheckReport[]): VerifyReport['undocumentedStatuses'] {
  const undocumentedStatuses: VerifyReport['undocumentedStatuses'] = [];
  for (const check of checks) {
    if (
      check.status !== undefined &&
      check.violations.some((violation) => violation.rule === 'status') &&
      !undocumentedStatuses.some((entry) => entry.operation === check.operation && entry.status === check.status)
    ) {
      undocumentedStatuses.push({ operation: check.operation, status: check.status });
    }
  }
  return undocumentedStatuses;
}

/** A broken contract outweighs anything left unjudged. */
function resultOf(checks: CheckReport[]): VerifyReport['result'] {
  const broken = checks.some((check) => check.outcome === 'fail');
  const incomplete = checks.some((check) => check.outcome === 'incomplete' || check.outcome === 'skipped');
  return broken ? 'broken' : incomplete ? 'incomplete' : 'clean';
}

/** The report of a run. */
export function assemble(
  settings: Settings,
  checks: CheckReport[],
  notes: string[],
  facts: { title: string; version: string; started: number; requestsSent: number },
): VerifyReport {
  const undescribed = undescribedOf(checks);
  const operations = operationSummaries(checks, undescribed);
  const undocumentedStatuses = undocumentedStatusesOf(checks);
  const result = resultOf(checks);
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
    operations,
    undescribed,
    undocumentedStatuses,
    notes,
    result,
    exitCode: result === 'broken' ? verifyExitCodes.broken : result === 'incomplete' ? verifyExitCodes.incomplete : verifyExitCodes.clean,
  };
}
