// A coverage report read back from JSON (a file a test worker or CI shard saved, a mock's answer): its counts checked
// one by one, each fault named by its JSON pointer, and its derived parts (tallies, percent, uncovered list) made
// again from them, so that nothing but the counts is trusted. Texts are bounded here and escaped where they are
// shown (format.ts).
import { isRecord } from '../description/openapi.js';
import { summarize } from './report.js';
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

type Reader<T> = (value: unknown, at: At) => T;

/** An object's fields, each read by its own reader (and only those: a later format may add others). */
function fields<R extends Record<string, Reader<unknown>>>(value: unknown, at: At, readers: R): { [K in keyof R]: ReturnType<R[K]> } {
  const object = at.object(value);
  return Object.fromEntries(Object.entries(readers).map(([key, read]) => [key, read(object[key], at.child(key))])) as {
    [K in keyof R]: ReturnType<R[K]>;
  };
}

const text: Reader<string> = (value, at) => at.text(value);
const count: Reader<number> = (value, at) => at.count(value);
const flag: Reader<boolean> = (value, at) => at.flag(value);
const listOf =
  <T>(read: Reader<T>): Reader<T[]> =>
  (value, at) =>
    at.list(value, read);

const status: Reader<StatusCoverage> = (value, at) => {
  const read = fields(value, at, { status: count, documented: flag, global_table: flag, calls: count });
  if (read.status < 100 || read.status > 599) at.child('status').fail('a status from 100 to 599', read.status);
  return read;
};

const operation: Reader<OperationCoverage> = (value, at) => {
  const read = fields(value, at, {
    operation: text,
    method: text,
    path: text,
    summary: text,
    calls: count,
    refused: count,
    statuses: listOf(status),
  });
  if (read.refused > read.calls) at.child('refused').fail(`at most the calls (${read.calls})`, read.refused);
  return read;
};

const named: Reader<NamedCoverage> = (value, at) => fields(value, at, { name: text, description: text, calls: count });

const differences = new Set(['method', 'path', 'server']);
const difference: Reader<NearMissCoverage['differs'][number]> = (value, at) =>
  typeof value === 'string' && differences.has(value)
    ? (value as NearMissCoverage['differs'][number])
    : at.fail('method, path or server', value);

const nearMiss: Reader<NearMissCoverage> = (value, at) =>
  fields(value, at, { operation: text, method: text, path: text, differs: listOf(difference), calls: count });

/**
 * A parsed JSON value read as a coverage report (`source` names it in errors: a file, a mock's address): its counts
 * checked, its tallies, percent and uncovered list made again. Throws a CoverageReportError naming the fault.
 */
export function readCoverageReport(value: unknown, source: string): CoverageReport {
  const at = new At(source, '');
  const object = at.object(value);
  if (object.report !== 'contract coverage') at.child('report').fail('"contract coverage"', object.report);
  if (object.format !== 1) at.child('format').fail('1 (the format this version reads)', object.format);
  const counts = fields(object, at, {
    contract: (item, where) => fields(item, where, { title: text, version: text }),
    exchanges: count,
    operations: listOf(operation),
    errors: listOf(named),
    behaviours: listOf(named),
    unmatched: (item, where) => fields(item, where, { calls: count, near_misses: listOf(nearMiss) }),
  });
  return summarize({ report: 'contract coverage', format: 1, ...counts });
}
