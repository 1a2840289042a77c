// The coverage's cost: the same build counting (the default) and not (`--no-coverage`, `coverage: false`), side by
// side in one run (on-and-off.ts), target 0.97x or better, beside two processes of the same command measured the same
// way (how far two alike differ in the run), and the counter's own time per exchange; and the merge of 32 reports of a full run (every item
// covered, undocumented statuses, near misses), as the vitest recipe's global setup or a CI step merges the reports of
// its workers or shards: in-process (read back, merged, written as a table) and by the command line end to end.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { distFile, root } from '../paths.js';
import { median } from './load.js';
import { commandLineRows, inProcessRow, type Part } from './on-and-off.js';
import { distBin, nodeFigures } from './processes.js';
import type { BenchContext, BenchSection } from './section.js';

const part: Part = { on: 'coverage on', offFlags: ['--no-coverage'], offOptions: { coverage: false }, target: '0.97x or better' };

/** Two processes of the same command, measured the same way: how far two alike differ in this run (no target). */
const alike: Part = {
  on: 'coverage on, two processes alike',
  offFlags: [],
  offOptions: {},
  target: 'none: the noise of the run, beside the rows above',
};

/** Reports merged, as many as a run of 32 test workers or CI shards writes. */
const reports = 32;

/**
 * Writes `reports` report files of a full run into `folder` (the built mock's report with every count set: each
 * documented status answered, two undocumented ones, every error and behaviour, a near miss of every operation),
 * then measures merging their texts in-process: read back and checked, merged, written as the terminal table.
 */
function writeAndMerge(folder: string): Promise<Record<string, number>> {
  const mock = distFile('mock', 'index.js');
  return nodeFigures(`
    import { writeFileSync } from 'node:fs';
    const { createMockFetch, formatCoverage, mergeCoverage, readCoverageReport } = await import(${JSON.stringify(mock)});
    const empty = createMockFetch().control.coverage();
    const texts = [];
    for (let worker = 1; worker <= ${reports}; worker++) {
      const report = structuredClone(empty);
      report.exchanges = 1000 * worker;
      for (const operation of report.operations) {
        operation.calls = 40 * worker;
        operation.refused = worker;
        for (const status of operation.statuses) status.calls = worker;
        for (const status of [429, 503]) operation.statuses.push({ status, documented: false, global_table: false, calls: worker });
      }
      for (const entry of [...report.errors, ...report.behaviours]) entry.calls = worker;
      const near = ({ operation, method, path }) => ({ operation, method, path, differs: ['path'], calls: worker });
      report.unmatched = { calls: 20 * worker, near_misses: report.operations.map(near) };
      texts.push(JSON.stringify(report));
      writeFileSync(${JSON.stringify(folder)} + '/worker-' + worker + '.json', texts.at(-1));
    }
    const once = () => {
      const begin = performance.now();
      formatCoverage(mergeCoverage(texts.map((text, index) => readCoverageReport(JSON.parse(text), 'worker-' + index))));
      return performance.now() - begin;
    };
    for (let i = 0; i < 3; i++) once();
    const times = Array.from({ length: 20 }, once).sort((a, b) => a - b);
    console.log(JSON.stringify({ ms: times[10], bytes: texts.reduce((sum, text) => sum + text.length, 0) }));
  `);
}

/**
 * The counter's own time per exchange, measured alone (the rows above move with the machine by more than it costs):
 * a list answered, a 401 that played a behaviour, a 404 of a path no operation has (its near miss searched).
 */
async function countingRow(context: BenchContext): Promise<void> {
  const dist = (file: string) => JSON.stringify(distFile(file));
  const figures = await nodeFigures(`
    const { createCoverage } = await import(${dist('coverage/index.js')});
    const { mockDocumentOf } = await import(${dist('description/mock-document.js')});
    const { compileRoutes, matchRoute } = await import(${dist('description/routes.js')});
    const { createCall } = await import(${dist('http/exchange.js')});
    const { behaviours } = await import(${dist('simulator/behaviours.js')});
    const { readFileSync } = await import('node:fs');
    const document = mockDocumentOf(JSON.parse(readFileSync(${JSON.stringify(path.join(root, 'generated', 'openapi.json'))}, 'utf8')));
    const routes = compileRoutes(document);
    const exchange = (method, url, status, body, played) => {
      const call = createCall({ method, url, headers: {}, body: Buffer.alloc(0) });
      const answer = { status, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
      return { call, answer, match: matchRoute(routes, call.segments, method), refused: false, behaviours: played };
    };
    const kinds = {
      list: exchange('GET', '/api/monitors', 200, { code: 0, message: 'success', data: [] }, []),
      expired: exchange('GET', '/api/monitors', 401, { code: 401, message: 'Unauthorized: the access token expired' }, ['access-token-expired']),
      unmatched: exchange('GET', '/api/monitor', 404, { code: 404, message: 'URL Not found' }, []),
    };
    const coverage = createCoverage(document, { behaviours });
    const figures = {};
    for (const [kind, one] of Object.entries(kinds)) {
      for (let i = 0; i < 20000; i++) coverage.count(one);
      const begin = performance.now();
      for (let i = 0; i < 200000; i++) coverage.count(one);
      figures[kind] = ((performance.now() - begin) * 1000) / 200000;
    }
    console.log(JSON.stringify(figures));
  `);
  const us = (value: number | undefined) => `${value!.toFixed(2)} µs`;
  context.row(
    'coverage: counting one exchange (count())',
    `a list ${us(figures.list)}; a 401 that played a behaviour ${us(figures.expired)}; a call no operation matched (its near miss searched) ${us(figures.unmatched)}`,
    'the mock: some 150 to 450 µs of CPU per request (the rows above)',
    'the counter alone (count()), 200,000 of each kind after 20,000 to warm up',
  );
}

/** The wall time of one run of the command line, to its exit. */
function wallMs(args: string[]): Promise<number> {
  const begin = performance.now();
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [distBin, ...args], (error) => (error ? reject(error) : resolve(performance.now() - begin))),
  );
}

/** The merge in-process, and the command line that reads the files, merges and writes Markdown. */
async function mergeRows(context: BenchContext): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-coverage-'));
  try {
    const inProcess = await writeAndMerge(folder);
    context.row(
      `coverage: the merge of ${reports} reports of a full run, in-process`,
      `${inProcess.ms!.toFixed(1)} ms (target: under 1 s)`,
      `${(inProcess.bytes! / 1024).toFixed(0)} KB of JSON`,
      'read back and checked, merged, written as the terminal table (readCoverageReport, mergeCoverage, formatCoverage); the median of 20',
    );
    const files = Array.from({ length: reports }, (_, index) => path.join(folder, `worker-${index + 1}.json`));
    const merged: number[] = [];
    const started: number[] = [];
    for (let round = 0; round < 3; round++) {
      started.push(await wallMs(['--version']));
      merged.push(await wallMs(['coverage', ...files, '--format', 'markdown', '--out', path.join(folder, 'merged.md')]));
    }
    context.row(
      `coverage: the command line merging ${reports} report files into Markdown`,
      `${median(merged).toFixed(0)} ms (target: under 1 s)`,
      `the command line's own start (--version): ${median(started).toFixed(0)} ms`,
      'monitoring-service-api coverage worker-*.json --format markdown --out FILE, end to end; the median of 3, alternating with the anchor',
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export const coverage: BenchSection = {
  part: 'coverage',
  title: 'the coverage: the mock counting and not, and the merge of the reports of a run',
  async run(context) {
    await inProcessRow(context, part);
    await inProcessRow(context, alike);
    await commandLineRows(context, part);
    await commandLineRows(context, alike);
    await countingRow(context);
    await mergeRows(context);
  },
};
