// Releases the description: snapshots the bundled document as releases/<info.version>.json, the base that the
// breaking-change gate (test/integration/breaking-changes.test.ts) compares every later description with, and the
// package's TypeScript API as releases/<info.version>.api.json.
//
//   tsx scripts/release.ts            build, check, snapshot (needs a new CHANGELOG.md entry)
//   tsx scripts/release.ts --amend    replace the last release with the current description, under its own
//                                     CHANGELOG entry (to correct a release that has not been published yet)
//   tsx scripts/release.ts --check    only say what a release would do; write nothing. Exits 1 only when the
//                                     gate refuses a change; says what the CHANGELOG still lacks for a release
//
// A release needs, at the top of CHANGELOG.md, an entry "## <info.version> (<YYYY-MM-DD>)" with some text that
// no earlier release used. Within the version of the last release, the description and the package must not break
// their users (judged by the direction data flows: CONTRIBUTING.md, "How the gate judges a change"); a breaking
// change needs a new info.version.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runScript, type ScriptLine } from '../src/cli/args.js';
import { build } from './build.js';
import { apiChanges } from './lib/api-changes.js';
import { apiSnapshotFile, packageApiReport } from './lib/api-report.js';
import {
  acknowledgedChanges,
  type Change,
  changelogEntries,
  changelogFile,
  checkCompatibility,
  compareVersions,
  describeGate,
  type Release,
  readReleases,
  releaseIndexFile,
  releasesDir,
  sha256,
} from './lib/breaking-changes.js';
import { outputs } from './lib/paths.js';

export const releaseLine = {
  usage: `Usage: npm run release -- [--check] [--amend] [--no-build]
  --check      say what a release would do; write nothing (exit 1 only when the gate refuses a change).
  --amend      replace the last release with the current description, under its own CHANGELOG entry
               (to correct a release that has not been published yet).
  --no-build   use generated/ as it is, without building first.
  -h, --help   this help.
A release needs an entry "## <info.version> (<YYYY-MM-DD>)" at the top of CHANGELOG.md.`,
  options: {
    amend: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
} satisfies ScriptLine;

/** The breaking changes of the package's TypeScript API since a release (none when the release kept no report). */
function packageApiChanges(released: string): Change[] {
  const file = path.join(releasesDir, apiSnapshotFile(released));
  if (!existsSync(file)) {
    console.log(`Release ${released} has no API report (${path.basename(file)}): the package's TypeScript API is not compared.`);
    return [];
  }
  return apiChanges(JSON.parse(readFileSync(file, 'utf8')), packageApiReport());
}

const isBreaking = (change: Change) => change.impact === 'major';

type Entry = ReturnType<typeof changelogEntries>[number];

/** What the CHANGELOG lacks for a release of `version`, or undefined when its top entry will do. */
function changelogProblem(
  version: string,
  entry: Entry | undefined,
  releases: Release[],
  replacing: Release | undefined,
  previous: Release | undefined,
): string | undefined {
  if (!existsSync(changelogFile))
    return `${path.basename(changelogFile)} is missing: add an entry "## ${version} (YYYY-MM-DD)" saying what changed.`;
  if (!entry) return `CHANGELOG.md has no release entry: add "## ${version} (YYYY-MM-DD)" at the top, saying what changed.`;
  if (entry.version !== version)
    return `The top entry of CHANGELOG.md is "${entry.heading}", not one for info.version ${version}: add "## ${version} (YYYY-MM-DD)" at the top.`;
  if (entry.body === '') return `The CHANGELOG.md entry "${entry.heading}" says nothing: say what changed.`;
  const used = new Set(releases.filter((release) => release !== replacing).map((release) => release.changelog));
  if (used.has(entry.heading))
    return `The CHANGELOG.md entry "${entry.heading}" belongs to an earlier release: add a new entry at the top.`;
  if (previous && entry.date < previous.date)
    return `The CHANGELOG.md entry "${entry.heading}" is dated before the last release (${previous.date}).`;
  return undefined;
}

/** Stops the release with a message (runScript prints it; exit status 1). */
function fail(message: string): never {
  throw new Error(message);
}

/** The release (or, with --check, what it would do): the gate, the CHANGELOG entry, the snapshots. */
async function release(values: Record<string, string | boolean | undefined>): Promise<void> {
  if (!values['no-build']) {
    console.log('Building generated/ from openapi/ ...');
    await build({ log: (line) => console.log(`  ${line}`) }).catch((error: Error) => fail(error.message));
  }

  const bundleFile = outputs().bundleJson;
  const bundleText = readFileSync(bundleFile, 'utf8');
  const version = String(JSON.parse(bundleText).info?.version ?? '');
  if (!/^\d+(\.\d+)*$/.test(version)) fail(`info.version must be a dotted number such as 2.0, not "${version}".`);

  const releases = readReleases();
  const replacing = values.amend ? releases.at(-1) : undefined;
  if (values.amend && !replacing) fail('--amend replaces the last release, and there is none yet.');
  if (replacing && replacing.version !== version)
    fail(`--amend replaces release ${replacing.version}, but info.version is now ${version}: release it without --amend.`);
  const previous = values.amend ? releases.at(-2) : releases.at(-1);

  if (!values.amend && previous && previous.sha256 === sha256(bundleText)) {
    // The description is as released; the package's TypeScript API may not be.
    const api = packageApiChanges(previous.version);
    const gate = { breaking: api.filter(isBreaking), notices: [], versionChanged: false, revisionVersion: previous.version };
    if (api.length > 0) {
      console.log(describeGate(gate, `release ${previous.version} (${previous.date})`));
      console.log(`The description is the one released; the package's API changed (${api.length} change(s)).`);
      if (gate.breaking.length > 0) process.exitCode = 1;
      return;
    }
    console.log(
      `Nothing to release: the description and the package's API are the ones released as ${previous.version} (${previous.date}).`,
    );
    return;
  }
  if (previous && compareVersions(version, previous.version) < 0)
    fail(`info.version ${version} is lower than the last release, ${previous.version}.`);

  const [topEntry] = existsSync(changelogFile) ? changelogEntries(readFileSync(changelogFile, 'utf8')) : [];

  // The gate, against the release before this one: the description (every component, used or not) and the package's
  // TypeScript API (releases/<version>.api.json). Changes the top CHANGELOG entry declares not breaking are accepted.
  if (previous) {
    const result = await checkCompatibility(path.join(releasesDir, previous.file), bundleFile);
    const api = packageApiChanges(previous.version);
    const acknowledged = acknowledgedChanges(topEntry?.version === version ? topEntry.body : '');
    const breaking = [...result.breaking, ...api.filter(isBreaking)].filter((change) => !acknowledged.has(change.pointer));
    const gate = { ...result, breaking, ok: breaking.length === 0 || result.versionChanged };
    console.log(describeGate(gate, `release ${previous.version} (${previous.date})`));
    if (!gate.ok) {
      process.exitCode = 1;
      return;
    }
  }

  // The CHANGELOG entry: a release needs one; the check says so, and its verdict stays the gate's.
  const problem = changelogProblem(version, topEntry, releases, replacing, previous);
  if (problem && values.check) {
    console.log(`The gate passes. Before a release: ${problem}`);
    return;
  }
  if (problem) fail(problem);
  const entry = topEntry!;
  const release: Release = { version, file: `${version}.json`, date: entry.date, changelog: entry.heading, sha256: sha256(bundleText) };
  if (values.check) {
    console.log(`A release would write releases/${release.file} (${release.sha256.slice(0, 12)}) under "${entry.heading}".`);
    return;
  }
  mkdirSync(releasesDir, { recursive: true });
  copyFileSync(bundleFile, path.join(releasesDir, release.file));
  writeFileSync(path.join(releasesDir, apiSnapshotFile(version)), `${JSON.stringify(packageApiReport(), null, 2)}\n`);
  // The index keeps every release; a version's snapshot is its latest release (a compatible superset of the earlier ones).
  const next = [...releases.filter((existing) => existing !== replacing), release];
  writeFileSync(releaseIndexFile, `${JSON.stringify({ releases: next }, null, 2)}\n`);
  console.log(`Released ${version}: releases/${release.file} (${release.sha256.slice(0, 12)}), "${entry.heading}".`);
}

runScript(releaseLine, import.meta.url, release);
