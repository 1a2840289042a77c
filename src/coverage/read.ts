// A coverage report read back from JSON (a file a test worker or CI shard saved, a mock's answer): its counts checked
// one by one, each fault named by its JSON pointer, and its derived parts (tallies, percent, uncovered list) made
// again from them, so that nothing but the counts is trusted. Texts are bounded here and escaped where they are
// shown (format.ts).
import { isRecord } from '../description/openapi.js';
import { type CoverageCounts, summarize } from './report.js';
import type { CoverageReport, NamedCoverage, NearMissCoverage, OperationCoverage, StatusCoverage } from './types.js';

/** A value that is not a coverage report, with where it came from and the JSON pointer of its fault. */
export class CoverageReportError extends TypeError {
  override readonly name = 'CoverageReportError';
}

/** The longest text of a report that is read: names, paths, descriptions. */
const maxText = 1000;

const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 60);

/** The reader of one value: its pointer, and the checks that throw naming it. */
class At {
  constructor(
    readonly source: string,
    readonly pointer: string,
  ) {}

  fail(rule: string, value: unknown): never {
    throw new CoverageReportError(
      `${this.source} is not a coverage report: ${this.pointer || '(the whole)'} must be ${rule}, not ${shown(value)}`,
    );
  }

  child(key: string | number): At {
    return new At(this.source, `${this.pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`);
  }

  object(value: unknown): Record<string, unknown> {
    return isRecord(value) ? value : this.fail('an object', value);
  }

  list<T>(value: unknown, read: (item: unknown, at: At) => T): T[] {
    if (!Array.isArray(value)) this.fail('a list', value);
    return value.map((item, index) => read(item, this.child(index)));
  }

  text(value: unknown): string {
    return typeof value === 'string' && value.length <= maxText ? value : this.fail(`a text of at most ${maxText} characters`, value);
  }

  count(value: unknown): number {
    return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : this.fail('a whole number >= 0', value);
  }

  flag(value: unknown): boolean {
    return typeof value === 'boolean' ? value : this.fail('true or false', value);
  }
}

/** A field of an object, read by its own reader. */
const field = <T>(at: At, object: Record<string, unknown>, key: string, read: (value: unknown, at: At) => T): T =>
  read(object[key], at.child(key));

const text = (value: unknown, at: At) => at.text(value);
const count = (value: unknown, at: At) => at.count(value);
const flag = (value: unknown, at: At) => at.flag(value);

function status(value: unknown, at: At): StatusCoverage {
  const object = at.object(value);
  const code = field(at, object, 'status', count);
  if (code < 100 || code > 599) at.child('status').fail('a status from 100 to 599', code);
  return {
    status: code,
    documented: field(at, object, 'documented', flag),
    global_table: field(at, object, 'global_table', flag),
    calls: field(at, object, 'calls', count),
  };
}

function operation(value: unknown, at: At): OperationCoverage {
  const object = at.object(value);
  const calls = field(at, object, 'calls', count);
  const refused = field(at, object, 'refused', count);
  if (refused > calls) at.child('refused').fail(`at most the calls (${calls})`, refused);
  return {
    operation: field(at, object, 'operation', text),
    method: field(at, object, 'method', text),
    path: field(at, object, 'path', text),
    summary: field(at, object, 'summary', text),
    calls,
    refused,
    statuses: field(at, object, 'statuses', (list, where) => where.list(list, status)),
  };
}

function named(value: unknown, at: At): NamedCoverage {
  const object = at.object(value);
  return {
    name: field(at, object, 'name', text),
    description: field(at, object, 'description', text),
    calls: field(at, object, 'calls', count),
  };
}

const differences = new Set(['method', 'path', 'server']);

function nearMiss(value: unknown, at: At): NearMissCoverage {
  const object = at.object(value);
  return {
    operation: field(at, object, 'operation', text),
    method: field(at, object, 'method', text),
    path: field(at, object, 'path', text),
    differs: field(at, object, 'differs', (list, where) =>
      where.list(list, (item, one) =>
        typeof item === 'string' && differences.has(item) ? item : one.fail('method, path or server', item),
      ),
    ) as NearMissCoverage['differs'],
    calls: field(at, object, 'calls', count),
  };
}

/**
 * A parsed JSON value read as a coverage report (`source` names it in errors: a file, a mock's address): its counts
 * checked, its tallies, percent and uncovered list made again. Throws a CoverageReportError naming the fault.
 */
export function readCoverageReport(value: unknown, source: string): CoverageReport {
  const at = new At(source, '');
  const object = at.object(value);
  if (object.report !== 'contract coverage') at.child('report').fail('"contract coverage"', object.report);
  if (object.format !== 1) at.child('format').fail('1 (the format this version reads)', object.format);
  const contract = field(at, object, 'contract', (item, where) => {
    const fields = where.object(item);
    return { title: field(where, fields, 'title', text), version: field(where, fields, 'version', text) };
  });
  const counts: CoverageCounts = {
    report: 'contract coverage',
    format: 1,
    contract,
    exchanges: field(at, object, 'exchanges', count),
    operations: field(at, object, 'operations', (list, where) => where.list(list, operation)),
    errors: field(at, object, 'errors', (list, where) => where.list(list, named)),
    behaviours: field(at, object, 'behaviours', (list, where) => where.list(list, named)),
    unmatched: field(at, object, 'unmatched', (item, where) => {
      const fields = where.object(item);
      return {
        calls: field(where, fields, 'calls', count),
        near_misses: field(where, fields, 'near_misses', (list, inner) => inner.list(list, nearMiss)),
      };
    }),
  };
  return summarize(counts);
}
