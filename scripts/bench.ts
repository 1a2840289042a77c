// npm run bench: measures the pipeline, the mock and the client on this machine and prints one table. Every figure
// comes from this one run; the anchors (the `prism mock` command line, plain fetch) are measured beside them, on the
// same document, with the same load generator and the same requests. Everything listens on 127.0.0.1 and is
// stopped at the end. Each part of the table is a section of scripts/lib/bench/: a new measure is a module there
// that exports a BenchSection, added to `sections` below.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { numberOption, runScript, type ScriptLine } from '../src/cli/args.js';
import { bundleSize } from './lib/bench/bundle-size.js';
import { client } from './lib/bench/client.js';
import { commandLines } from './lib/bench/command-lines.js';
import { consumerTypecheck } from './lib/bench/consumer-typecheck.js';
import { mcp } from './lib/bench/mcp.js';
import { mockInProcess } from './lib/bench/mock-in-process.js';
import { pipeline } from './lib/bench/pipeline.js';
import type { BenchContext, BenchSection } from './lib/bench/section.js';
import { createTable, formatTable } from './lib/bench/table.js';
import { outputs } from './lib/paths.js';
import { sampleRequests, type SampleRequest } from './lib/sample-requests.js';

export const benchLine = {
  usage: `Usage: npm run bench -- [--requests 2000] [--skip-build]
  --requests N   requests per load measurement (10 to 100000). Default 2000.
  --skip-build   measure generated/ and dist/ as they are, without the build rows.
  -h, --help     this help.
Prints a table of figures; the anchors are measured in the same run.`,
  options: { requests: { type: 'string', default: '2000' }, 'skip-build': { type: 'boolean', default: false } },
} satisfies ScriptLine;

/** The table's sections, in order. The build comes first: the others measure what it made. */
export const sections: BenchSection[] = [pipeline, mockInProcess, commandLines, client, bundleSize, consumerTypecheck, mcp];

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main(values: Record<string, string | boolean | undefined>) {
  const requests = numberOption('requests', values.requests, benchLine.usage, { whole: true, range: [10, 100_000] })!;
  console.error(`Benchmarks on ${os.cpus().length} CPU(s), Node ${process.version}; load average before: ${loadAverage()}`);
  const table = createTable();
  const context: BenchContext = { requests, skipBuild: values['skip-build'] === true, row: table.row, samples: bundleSamples() };
  for (const section of sections) {
    console.error(`${section.title}:`);
    await section.run(context);
  }
  console.error(`load average after: ${loadAverage()}`);
  console.log(`\n${formatTable(table.rows)}`);
}

/** The bundle's sample requests, read on first use (after the build sections) and kept. */
function bundleSamples(): () => SampleRequest[] {
  let samples: SampleRequest[] | undefined;
  return () => (samples ??= sampleRequests(JSON.parse(readFileSync(outputs().bundleJson, 'utf8'))));
}

runScript(benchLine, import.meta.url, main);
