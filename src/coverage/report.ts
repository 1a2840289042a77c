// The coverage report from its counts, pure: what it covers item by item, the tallies and the percent, the uncovered
// list in the order production meets it; the merge of several reports (one per test worker or CI shard) into their
// union; and the gate of a minimum percent and required items. A report's derived parts (tallies, percent,
// uncovered) are always made again from its counts: a merge trusts only the counts of what it merges.
import { OptionError, option, wording } from '../options.js';
import type {
  CoverageCheck,
  CoverageItem,
  CoverageKind,
  CoverageReport,
  CoverageTally,
  NamedCoverage,
  NearMissCoverage,
  OperationCoverage,
  StatusCoverage,
} from './types.js';

/** A report's counts: everything but what summarize derives from them. */
export type CoverageCounts = Omit<CoverageReport, 'covered' | 'total' | 'percent' | 'tally' | 'uncovered'>;

/** An item and whether it is covered. */
interface Judged {
  item: CoverageItem;
  covered: boolean;
}

/** An item's name for a status of an operation: `getMonitor:404`. */
export const statusItemName = (operation: string, status: number) => `${operation}:${status}`;

/** Every item of the counts, in the order of the uncovered list: behaviours, errors, operations, statuses, global statuses. */
function judgedItems(counts: CoverageCounts): Judged[] {
  const named = (kind: CoverageKind, entries: NamedCoverage[]): Judged[] =>
    entries.map(({ name, description, calls }) => ({ item: { kind, name, description, counted: true }, covered: calls > 0 }));
  const statuses = (global: boolean): Judged[] =>
    counts.operations.flatMap((operation) =>
      operation.statuses
        .filter((status) => status.documented && status.global_table === global)
        .map((status) => ({
          item: {
            kind: 'status' as const,
            name: statusItemName(operation.operation, status.status),
            description: `${operation.method} ${operation.path} answering ${status.status}${global ? ' (a status of the global table, section 7)' : ''}`,
            counted: !global,
          },
          covered: status.calls > 0,
        })),
    );
  return [
    ...named('behaviour', counts.behaviours),
    ...named('error', counts.errors),
    ...counts.operations.map((operation) => ({
      item: {
        kind: 'operation' as const,
        name: operation.operation,
        description: `${operation.method} ${operation.path}${operation.summary ? `: ${operation.summary}` : ''}`,
        counted: true,
      },
      covered: operation.calls - operation.refused > 0,
    })),
    ...statuses(false),
    ...statuses(true),
  ];
}

const tallyOf = (judged: Judged[]): CoverageTally => ({
  covered: judged.filter((entry) => entry.covered).length,
  total: judged.length,
});

/** A share in percent, rounded down to one decimal (79.96 is 79.9: never more than was covered). */
const percentOf = (covered: number, total: number) => (total === 0 ? 100 : Math.floor((covered * 1000) / total) / 10);

/** The report of some counts: its tallies, its percent and its uncovered list made from them. */
export function summarize(counts: CoverageCounts): CoverageReport {
  const judged = judgedItems(counts);
  const of = (kind: CoverageKind, global = false) =>
    tallyOf(judged.filter(({ item }) => item.kind === kind && (kind !== 'status' || item.counted !== global)));
  const counted = judged.filter(({ item }) => item.counted);
  const { covered, total } = tallyOf(counted);
  return {
    report: counts.report,
    format: counts.format,
    contract: counts.contract,
    exchanges: counts.exchanges,
    covered,
    total,
    percent: percentOf(covered, total),
    tally: {
      operations: of('operation'),
      statuses: of('status'),
      errors: of('error'),
      behaviours: of('behaviour'),
      global_statuses: of('status', true),
    },
    operations: counts.operations,
    errors: counts.errors,
    behaviours: counts.behaviours,
    unmatched: counts.unmatched,
    uncovered: judged.filter((entry) => !entry.covered).map((entry) => entry.item),
  };
}

/** A map's value of a key, made by `make` the first time. */
function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/** The statuses of an operation in the report's order: the documented ones as first met, then the others by number. */
const orderedStatuses = (statuses: Iterable<StatusCoverage>): StatusCoverage[] => {
  const all = [...statuses];
  return [...all.filter((status) => status.documented), ...all.filter((status) => !status.documented).sort((a, b) => a.status - b.status)];
};

/** Named counts added up by name, in the order first met. */
function mergeNamed(lists: NamedCoverage[][]): NamedCoverage[] {
  const merged = new Map<string, NamedCoverage>();
  for (const list of lists)
    for (const { name, description, calls } of list) entryOf(merged, name, () => ({ name, description, calls: 0 })).calls += calls;
  return [...merged.values()];
}

function mergeOperations(lists: OperationCoverage[][]): OperationCoverage[] {
  const merged = new Map<string, { operation: OperationCoverage; statuses: Map<number, StatusCoverage> }>();
  for (const list of lists) {
    for (const operation of list) {
      const entry = entryOf(merged, operation.operation, () => ({
        operation: { ...operation, calls: 0, refused: 0, statuses: [] },
        statuses: new Map<number, StatusCoverage>(),
      }));
      entry.operation.calls += operation.calls;
      entry.operation.refused += operation.refused;
      for (const status of operation.statuses) {
        const known = entryOf(entry.statuses, status.status, () => ({ ...status, calls: 0 }));
        known.calls += status.calls;
        known.documented ||= status.documented;
        known.global_table ||= status.global_table;
      }
    }
  }
  return [...merged.values()].map(({ operation, statuses }) => ({ ...operation, statuses: orderedStatuses(statuses.values()) }));
}

function mergeNearMisses(lists: NearMissCoverage[][]): NearMissCoverage[] {
  const merged = new Map<string, NearMissCoverage>();
  for (const list of lists) {
    for (const miss of list) {
      const differs = [...miss.differs].sort();
      const key = `${miss.operation} ${miss.method} ${miss.path} ${differs.join(',')}`;
      entryOf(merged, key, () => ({ ...miss, differs, calls: 0 })).calls += miss.calls;
    }
  }
  return [...merged.values()];
}

/**
 * The union of reports of the same contract (one per test worker, CI shard or mock): every count added up, each
 * item covered when one of them covered it; the tallies, percent and uncovered list made again. The reports are not
 * changed. Throws a TypeError when there is none, or when they are of different contracts.
 */
export function mergeCoverage(reports: readonly CoverageReport[]): CoverageReport {
  if (!Array.isArray(reports) || reports.length === 0) throw new TypeError('mergeCoverage takes a list of one coverage report or more');
  const [first] = reports as [CoverageReport, ...CoverageReport[]];
  const contract = (report: CoverageReport) => `${report.contract.title} ${report.contract.version}`;
  const other = reports.find((report) => contract(report) !== contract(first));
  if (other)
    throw new TypeError(
      `the reports are of different contracts (${contract(first)} and ${contract(other)}): merge the reports of each contract apart`,
    );
  return summarize({
    report: 'contract coverage',
    format: 1,
    contract: { ...first.contract },
    exchanges: reports.reduce((sum, report) => sum + report.exchanges, 0),
    operations: mergeOperations(reports.map((report) => report.operations)),
    errors: mergeNamed(reports.map((report) => report.errors)),
    behaviours: mergeNamed(reports.map((report) => report.behaviours)),
    unmatched: {
      calls: reports.reduce((sum, report) => sum + report.unmatched.calls, 0),
      near_misses: mergeNearMisses(reports.map((report) => report.unmatched.near_misses)),
    },
  });
}

/** The items of a report with whether each is covered, by name. */
export function coverageItems(report: CoverageReport): Map<string, Judged> {
  return new Map(judgedItems(report).map((entry) => [entry.item.name, entry]));
}

/** The kinds of items, as `--require` and `require` name them, for messages. */
export const itemNaming =
  'an operation (listMonitors), a status of one (getMonitor:404), a documented error (monitor-does-not-exist) or a behaviour (access-token-expired)';

/**
 * The gate: whether a report covers at least `min` percent of what the percent counts, and every item `require`
 * names. Throws an OptionError for a `min` out of 0 to 100 or a name that is none of the report's items.
 */
export function checkCoverage(
  report: CoverageReport,
  options: { min?: number | undefined; require?: readonly string[] | undefined } = {},
): CoverageCheck {
  const { min, require: required = [] } = options;
  if (min !== undefined && !(typeof min === 'number' && min >= 0 && min <= 100))
    throw new OptionError(wording`${option('min')} must be a number from 0 to 100 (a percent), not ${JSON.stringify(min)}`);
  const items = coverageItems(report);
  const unknown = [...new Set(required.filter((name) => !items.has(name)))];
  if (unknown.length > 0) {
    // At most ten named: the message stays short whatever the list.
    const named = unknown.slice(0, 10).map((name) => JSON.stringify(name.slice(0, 100)));
    const more = unknown.length > named.length ? ` and ${unknown.length - named.length} more` : '';
    throw new OptionError(wording`${option('require')} names ${named.join(', ')}${more}, not an item of the report: name ${itemNaming}`);
  }
  const failures: string[] = [];
  if (min !== undefined && report.covered * 100 < min * report.total)
    failures.push(`${report.percent}% covered (${report.covered} of ${report.total}), below the minimum of ${min}%`);
  const missing = [...new Set(required)]
    .map((name) => items.get(name)!)
    .filter((entry) => !entry.covered)
    .map((entry) => entry.item);
  for (const item of missing) failures.push(`${item.name} is not covered (${item.kind}: ${item.description})`);
  return { passed: failures.length === 0, failures, missing };
}
