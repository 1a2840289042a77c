// What a test suite exercised of the contract: counts of every exchange the mock handles since the start or the
// last clear (not only those the request journal keeps), bounded by the size of the contract, not by the traffic:
// per operation its calls, the statuses it answered and the calls the contract refused; each documented error the
// mock answered (errors.ts); each behaviour the simulator played, by the names it gives them (src/simulator/
// behaviours.ts); the calls that matched no operation, by the operation each came closest to. One counter belongs to
// one simulator; reports of several are merged by a pure function (report.ts), and read, checked and written for
// people by read.ts and format.ts.
import { deref, type OpenApiDocument, operationsOf, perDocument, type Response } from '../description/openapi.js';
import { type RouteMatch, routesOf } from '../description/routes.js';
import type { Answer, Call } from '../http/exchange.js';
import { nearMiss, nearMissRoutes } from '../journal/near-miss.js';
import type { NearMiss } from '../journal/types.js';
import { type DocumentedError, documentedErrorReader, documentedErrors } from './errors.js';
import { summarize } from './report.js';
import type { CoverageReport, OperationCoverage } from './types.js';

export { documentedErrors } from './errors.js';
export { type CoverageFormat, type CoverageFormatOptions, coverageFormats, formatCoverage } from './format.js';
export { CoverageReportError, readCoverageReport } from './read.js';
export { checkCoverage, mergeCoverage } from './report.js';
export type * from './types.js';

/** One exchange as the mock decided it: what the counter reads of it. */
export interface CountedExchange {
  call: Call;
  answer: Answer;
  /** The route and operation the call matched, if any. */
  match: RouteMatch | undefined;
  /** The contract refused the call before the simulator saw it. */
  refused: boolean;
  /** The behaviours the simulator played. */
  behaviours: readonly string[];
}

/** What the coverage's controls say when the mock counts nothing. */
export const coverageOff = 'this mock counts no coverage: it was started with coverage off';

export interface Coverage {
  /** Counts one exchange (not a call of the test API). */
  count(exchange: CountedExchange): void;
  /** The report of what was counted since the start or the last clear. */
  report(): CoverageReport;
  /** Starts counting again from nothing. */
  clear(): void;
}

/** An operation of the description as the report shows it, and its counts. */
interface OperationCounts {
  shown: Omit<OperationCoverage, 'calls' | 'refused' | 'statuses'>;
  documented: { status: number; global: boolean }[];
  calls: number;
  refused: number;
  statuses: Map<number, number>;
}

/** The statuses an operation documents, in the description's order: whether each comes from the global table. */
function documentedStatuses(document: OpenApiDocument, responses: Record<string, Response>): { status: number; global: boolean }[] {
  return Object.keys(responses)
    .filter((key) => /^[1-5]\d\d$/.test(key))
    .map((key) => {
      const response = deref(document, responses[key]);
      return { status: Number(key), global: response?.['x-global-status'] === true };
    });
}

/** What one counter has counted since the start or the last clear. */
interface Tally {
  exchanges: number;
  behaviours: Map<string, number>;
  errors: Map<DocumentedError, number>;
  unmatched: number;
  nearMisses: Map<string, { miss: NearMiss; calls: number }>;
}

const emptyTally = (): Tally => ({ exchanges: 0, behaviours: new Map(), errors: new Map(), unmatched: 0, nearMisses: new Map() });

const add = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** An operation of the document as the report shows it, and the statuses it documents. */
type CountedOperation = Pick<OperationCounts, 'shown' | 'documented'>;

/** What every counter of a document reads of it once: its operations, its routes' near misses, its errors. */
const perContract = perDocument((document) => {
  const operations: CountedOperation[] = [];
  for (const { path, method, operation } of operationsOf(document)) {
    if (typeof operation.operationId !== 'string') continue;
    const shown = { operation: operation.operationId, method: method.toUpperCase(), path, summary: operation.summary ?? '' };
    operations.push({ shown, documented: documentedStatuses(document, operation.responses ?? {}) });
  }
  return {
    operations,
    missRoutes: nearMissRoutes(routesOf(document)),
    errorOf: documentedErrorReader(document),
    contract: { title: String(document.info?.title ?? ''), version: String(document.info?.version ?? '') },
  };
});

/** The operations of a document with nothing counted, by operationId, in the document's order. */
const operationCounts = (operations: readonly CountedOperation[]): Map<string, OperationCounts> =>
  new Map(operations.map(({ shown, documented }) => [shown.operation, { shown, documented, calls: 0, refused: 0, statuses: new Map() }]));

/** An operation as the report shows it: its documented statuses in order, then those it answered undocumented. */
function operationCoverage(counts: OperationCounts): OperationCoverage {
  const documented = counts.documented.map(({ status, global }) => ({
    status,
    documented: true,
    global_table: global,
    calls: counts.statuses.get(status) ?? 0,
  }));
  const others = [...counts.statuses]
    .filter(([status]) => !counts.documented.some((entry) => entry.status === status))
    .sort(([a], [b]) => a - b)
    .map(([status, calls]) => ({ status, documented: false, global_table: false, calls }));
  return { ...counts.shown, calls: counts.calls, refused: counts.refused, statuses: [...documented, ...others] };
}

/**
 * A counter of the exchanges of a (mock) document's operations, with the names and meanings of the behaviours its
 * simulator plays, in the order the report lists them.
 */
export function createCoverage(document: OpenApiDocument, options: { behaviours: Readonly<Record<string, string>> }): Coverage {
  const { missRoutes, errorOf, contract, operations: counted } = perContract(document);
  let operations = operationCounts(counted);
  let tally = emptyTally();

  const countUnmatched = (call: Call) => {
    tally.unmatched++;
    const miss = nearMiss(missRoutes, call.method, call.segments);
    if (!miss) return;
    const key = `${miss.operation} ${miss.differs.join(',')}`;
    const entry = tally.nearMisses.get(key);
    if (entry) entry.calls++;
    else tally.nearMisses.set(key, { miss, calls: 1 });
  };

  return {
    count({ call, answer, match, refused, behaviours }) {
      tally.exchanges++;
      const counts = match?.operation && operations.get(match.operation.operationId);
      if (counts) {
        counts.calls++;
        if (refused) counts.refused++;
        add(counts.statuses, answer.status);
      } else countUnmatched(call);
      for (const behaviour of behaviours) add(tally.behaviours, behaviour);
      const error = answer.status >= 400 ? errorOf(answer, match) : undefined;
      if (error) add(tally.errors, error);
    },
    report: () =>
      summarize({
        report: 'contract coverage',
        format: 1,
        contract: { ...contract },
        exchanges: tally.exchanges,
        operations: [...operations.values()].map(operationCoverage),
        errors: Object.entries(documentedErrors).map(([name, description]) => ({
          name,
          description,
          calls: tally.errors.get(name as DocumentedError) ?? 0,
        })),
        behaviours: Object.entries(options.behaviours).map(([name, description]) => ({
          name,
          description,
          calls: tally.behaviours.get(name) ?? 0,
        })),
        unmatched: { calls: tally.unmatched, near_misses: [...tally.nearMisses.values()].map(({ miss, calls }) => ({ ...miss, calls })) },
      }),
    clear() {
      operations = operationCounts(counted);
      tally = emptyTally();
    },
  };
}
