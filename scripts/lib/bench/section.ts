// What a section of `npm run bench` is given and gives back: the table's rows. A new measure is a module of this
// folder that exports a BenchSection; scripts/bench.ts lists the sections in the order of the table.
import type { SampleRequest } from '../sample-requests.js';

export interface BenchOptions {
  /** Requests per server and load measurement (`--requests`). */
  requests: number;
  /** `--skip-build`: measure generated/ and dist/ as they are. */
  skipBuild: boolean;
  /** `--profile DIR`: the folder where the mock's command line writes its CPU profile under the load. */
  profileDir: string | undefined;
}

export interface BenchContext extends BenchOptions {
  /** Adds a row to the table (and prints it at once on stderr). */
  row(measure: string, figure: string, anchor?: string, notes?: string): void;
  /** One valid request per operation of the bundle, read once the build sections have run. */
  samples(): SampleRequest[];
}

export interface BenchSection {
  /** The part of the bench it belongs to (build, mock, journal, coverage, hostile, client, types, mcp), for choosing parts to measure. */
  part: string;
  /** What the section measures, printed when it starts. */
  title: string;
  run(context: BenchContext): Promise<void>;
}

/** A duration for the table: milliseconds, or seconds from 10 s on. */
export const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(0)} ms`);
export const since = (start: number) => performance.now() - start;
