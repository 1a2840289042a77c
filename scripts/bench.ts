// npm run bench: measures the pipeline, the mock and the client on this machine and prints one table. Every figure
// comes from this one run; the anchors (the `prism mock` command line, plain fetch) are measured beside them, on the
// same document, with the same load generator and the same requests. Everything listens on 127.0.0.1 and is
// stopped at the end. Each part of the table is a section of scripts/lib/bench/: a new measure is a module there
// that exports a BenchSection, added to `sections` below; its `part` is the name `--only` chooses it by.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { numberOption, runScript, type ScriptLine, UsageError } from '../src/cli/args.js';
import { bundleSize } from './lib/bench/bundle-size.js';
import { client } from './lib/bench/client.js';
import { commandLines } from './lib/bench/command-lines.js';
import { consumerTypecheck } from './lib/bench/consumer-typecheck.js';
import { coverage } from './lib/bench/coverage.js';
import { docsPage } from './lib/bench/docs-page.js';
import { hostile } from './lib/bench/hostile.js';
import { journal } from './lib/bench/journal.js';
import { mcp } from './lib/bench/mcp.js';
import { mockInProcess } from './lib/bench/mock-in-process.js';
import { pipeline } from './lib/bench/pipeline.js';
import type { BenchContext, BenchSection } from './lib/bench/section.js';
import { createTable, formatTable } from './lib/bench/table.js';
import { worlds } from './lib/bench/worlds.js';
import { outputs } from './lib/paths.js';
import { type SampleRequest, sampleRequests } from './lib/sample-requests.js';

/** The table's sections, in order. The build comes first: the others measure what it made. */
export const sections: BenchSection[] = [
  pipeline,
  mockInProcess,
  commandLines,
  journal,
  coverage,
  hostile,
  worlds,
  client,
  bundleSize,
  consumerTypecheck,
  mcp,
  docsPage,
];

/** The parts `--only` chooses among, in the table's order. */
export const benchParts = [...new Set(sections.map((section) => section.part))];

export const benchLine = {
  usage: `Usage: npm run bench -- [--requests 4000] [--skip-build] [--only PARTS] [--profile DIR]
  --requests N   requests per server and load measurement (10 to 100000). Default 4000.
  --skip-build   measure generated/ and dist/ as they are, without the build rows.
  --only PARTS   measure only these parts, comma-separated: ${benchParts.join(', ')} (e.g. --only mock: the
                 mock's rows beside prism mock; without build, generated/ and dist/ are measured as they are).
  --profile DIR  run the mock's command line with node --cpu-prof, write its profile to DIR and print where its
                 busy time went, by package and by function (needs the mock part).
  -h, --help     this help.
Prints a table of figures; the anchors are measured in the same run.`,
  options: {
    requests: { type: 'string', default: '4000' },
    'skip-build': { type: 'boolean', default: false },
    only: { type: 'string' },
    profile: { type: 'string' },
  },
} satisfies ScriptLine;

/** The sections of the parts `--only` names (every section without it); a part it does not know is a usage error. */
export function chosenSections(only: string | undefined): BenchSection[] {
  if (only === undefined) return sections;
  const names = only.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !benchParts.includes(name));
  if (unknown !== undefined)
    throw new UsageError(`--only takes parts among ${benchParts.join(', ')}; not "${unknown}".\n${benchLine.usage}`);
  return sections.filter((section) => names.includes(section.part));
}

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main(values: Record<string, string | boolean | undefined>) {
  const requests = numberOption('requests', values.requests, benchLine.usage, { whole: true, range: [10, 100_000] })!;
  const chosen = chosenSections(typeof values.only === 'string' ? values.only : undefined);
  const profileDir = typeof values.profile === 'string' ? values.profile : undefined;
  if (profileDir !== undefined && !chosen.some((section) => section.part === 'mock'))
    throw new UsageError(`--profile profiles the mock's command line: it needs the mock part.\n${benchLine.usage}`);
  console.error(`Benchmarks on ${os.cpus().length} CPU(s), Node ${process.version}; load average before: ${loadAverage()}`);
  const table = createTable();
  const context: BenchContext = {
    requests,
    skipBuild: values['skip-build'] === true,
    profileDir,
    row: table.row,
    samples: bundleSamples(),
  };
  for (const section of chosen) {
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
