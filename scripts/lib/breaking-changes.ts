// The breaking-change gate (core document, section 9): within a version, attributes are never removed and their
// types never change; a breaking change needs a new version (info.version).
//
// releases/ keeps the bundled description as it was released, one file per API version (releases/2.0.json), and
// releases/index.json lists the releases in order. The gate judges each change by the direction data flows, with
// rules of its own run on the two documents side by side:
// - contract-rules.ts over every named schema, used by an operation or not, and operation-rules.ts over every
//   operation and the schemas written inline in it: what a client sends may widen and not narrow; what the service
//   answers may gain an attribute or a value of an open set, and not lose or widen;
// - `ownChecks`: an enum value removed, additionalProperties or unevaluatedProperties narrowed to false, wherever
//   they are (`redocly diff` rates both "patch").
// `redocly diff` with the rules of `diff-recommended` (releases/diff.redocly.yaml) adds what those do not judge: a
// removed path, operation, parameter, response or header, a changed security requirement or combinator. Its rules
// that judge schemas without knowing open sets or every direction (`supersededRedoclyRules`) are left to ours.
// Every change has an impact: `major` (refused within a version), `notice` (passes, and belongs in the release
// notes), `minor` or `patch` (passes). The table of rules is in CONTRIBUTING.md ("How the gate judges a change").
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OpenApiDocument } from '../../src/description/openapi.js';
import { componentChanges } from './contract-rules.js';
import { operationChanges } from './operation-rules.js';
import { root } from './paths.js';
import { run, withoutBanner } from './run.js';

export const releasesDir = path.join(root, 'releases');
export const releaseIndexFile = path.join(releasesDir, 'index.json');
export const diffConfigFile = path.join(releasesDir, 'diff.redocly.yaml');
export const changelogFile = path.join(root, 'CHANGELOG.md');

export interface Release {
  /** info.version of the released description. */
  version: string;
  /** The snapshot, relative to releases/. */
  file: string;
  /** The day of the release (YYYY-MM-DD), as in its CHANGELOG heading. */
  date: string;
  /** The CHANGELOG heading of the release, e.g. "## 2.0 (2026-11-22)". */
  changelog: string;
  /** SHA-256 of the snapshot file. */
  sha256: string;
}

/** Which way the data of a place flows: in answers of the service, in requests of a client, or both. */
export type Direction = 'answer' | 'request' | 'both';

export interface Change {
  ruleId: string;
  /** `major` breaks users; `notice` passes and belongs in the release notes; `minor` and `patch` pass. */
  impact: 'major' | 'minor' | 'patch' | 'notice' | string;
  /** The direction the gate judged the place in (its own rules; Redocly's do not say). */
  direction?: Direction | 'input' | 'output';
  message: string;
  /** Where, in the description that has it (the revision, or the base for a removal). */
  pointer: string;
}

export interface GateResult {
  baseVersion: string;
  revisionVersion: string;
  versionChanged: boolean;
  /** Changes of impact "major". */
  breaking: Change[];
  /** Changes that pass but belong in the release notes (impact "notice"). */
  notices: Change[];
  /** Every change found (by Redocly, and by the gate's own rules), with its impact. */
  changes: Change[];
  /** False when the revision breaks the base without a new version. */
  ok: boolean;
}

export function readReleases(): Release[] {
  if (!existsSync(releaseIndexFile)) return [];
  return (JSON.parse(readFileSync(releaseIndexFile, 'utf8')) as { releases: Release[] }).releases;
}

export function latestRelease(): Release | undefined {
  return readReleases().at(-1);
}

export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** Compares dotted versions numerically: "2.0" < "2.1" < "10.0". */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0 && !Number.isNaN(difference)) return difference;
  }
  return a.localeCompare(b);
}

/** Runs `redocly diff` between two description files and returns every change it rates. */
export async function diffDescriptions(baseFile: string, revisionFile: string): Promise<Change[]> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'diff-'));
  try {
    const reportFile = path.join(scratch, 'diff.json');
    const result = await run(
      'redocly',
      ['diff', baseFile, revisionFile, '--config', diffConfigFile, '--format', 'json', '--fail-on', 'none', '-o', reportFile],
      { allowFailure: true },
    );
    if (result.code !== 0 || !existsSync(reportFile)) {
      throw new Error(
        `redocly diff ${baseFile} ${revisionFile} failed (exit ${result.code}):\n${result.stdout}${withoutBanner(result.stderr)}`,
      );
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const changes: Change[] = [];
    for (const change of report.changes ?? []) {
      const verdicts: { ruleId: string; impact: string; message: string; location?: { pointer?: string } }[] = change.verdicts ?? [];
      if (verdicts.length === 0) {
        changes.push({
          ruleId: `${change.kind}`,
          impact: change.impact,
          message: `${change.kind} ${change.path}`,
          pointer: change.revision?.pointer ?? change.base?.pointer ?? change.path,
        });
      }
      for (const verdict of verdicts) {
        changes.push({
          ruleId: verdict.ruleId,
          impact: verdict.impact,
          message: verdict.message,
          pointer: verdict.location?.pointer ?? change.path,
        });
      }
    }
    return changes;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** A JSON pointer segment (RFC 6901). */
const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The breaking changes that `redocly diff` rates as "patch": enum values removed and additionalProperties or
 * unevaluatedProperties narrowed to false, found by walking the two documents side by side (same JSON pointer).
 */
export function ownChecks(base: unknown, revision: unknown): Change[] {
  const changes: Change[] = [];
  const walk = (left: unknown, right: unknown, pointer: string) => {
    if (!isNode(left) || !isNode(right)) return;
    if (Array.isArray(left.enum) && Array.isArray(right.enum)) {
      const kept = new Set(right.enum.map((value) => JSON.stringify(value)));
      const removed = left.enum.filter((value) => !kept.has(JSON.stringify(value)));
      if (removed.length > 0) {
        changes.push({
          ruleId: 'enum-value-removed',
          impact: 'major',
          message: `Enum value${removed.length > 1 ? 's' : ''} ${removed.map((value) => JSON.stringify(value)).join(', ')} removed from ${pointer}.`,
          pointer: `${pointer}/enum`,
        });
      }
    }
    for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
      if (right[keyword] === false && left[keyword] !== false) {
        changes.push({
          ruleId: 'additional-properties-narrowed',
          impact: 'major',
          message: `${keyword} of ${pointer} narrowed to false: attributes that were allowed are now refused.`,
          pointer: `${pointer}/${keyword}`,
        });
      }
    }
    if (Array.isArray(left) && Array.isArray(right)) {
      left.forEach((item, index) => {
        walk(item, right[index], `${pointer}/${index}`);
      });
      return;
    }
    for (const [key, value] of Object.entries(left)) {
      if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue; // data, not schemas
      if (Object.hasOwn(right, key)) walk(value, right[key], `${pointer}/${escapePointer(key)}`);
    }
  };
  walk(base, revision, '#');
  return changes;
}

/** The gate: does `revisionFile` break `baseFile` without a new info.version? */
export async function checkCompatibility(baseFile: string, revisionFile: string): Promise<GateResult> {
  const redoclyChanges = await diffDescriptions(baseFile, revisionFile);
  return judgeChanges(JSON.parse(readFileSync(baseFile, 'utf8')), JSON.parse(readFileSync(revisionFile, 'utf8')), redoclyChanges);
}

/**
 * Redocly's rules that judge schemas without knowing an open set, or that a schema travels one way only: it rates
 * every enum value added to an answer, and every property removed or type changed, as breaking. The gate's own
 * rules judge those places (contract-rules.ts, operation-rules.ts, ownChecks); Redocly's verdicts there are listed
 * as changes, not as breaking ones.
 */
export const supersededRedoclyRules = new Set([
  'enum-values-added',
  'enum-values-removed',
  'property-removed',
  'required-properties-added',
  'required-properties-removed',
  'schema-type-changed',
  'parameter-became-required',
]);

/** The gate's own rules over the two documents: schemas, operations, and what `redocly diff` rates as patch. */
export function ownRules(base: OpenApiDocument, revision: OpenApiDocument): Change[] {
  return [...ownChecks(base, revision), ...componentChanges(base, revision), ...operationChanges(base, revision)];
}

/**
 * The gate's verdict on a revision: our named rules over the two documents, with what `redocly diff` found between
 * them (`redoclyChanges`). A breaking change passes only with a new info.version.
 */
export function judgeChanges(base: OpenApiDocument, revision: OpenApiDocument, redoclyChanges: Change[]): GateResult {
  const redocly = redoclyChanges.map((change) =>
    supersededRedoclyRules.has(change.ruleId) && change.impact === 'major'
      ? { ...change, impact: 'patch', message: `${change.message} (judged by the gate's own rules)` }
      : change,
  );
  // Our named rules first: where Redocly found the same place, its verdict is the one dropped.
  const changes = [...ownRules(base, revision), ...redocly];
  // One verdict per place: Redocly reports a schema once for each operation that uses it, and the component rules
  // may find at the same pointer what Redocly found.
  const seen = new Set<string>();
  const breaking = changes.filter((change) => {
    const key = change.pointer.startsWith('#/components/') ? change.pointer : `${change.ruleId} ${change.pointer} ${change.message}`;
    if (change.impact !== 'major' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const notices = changes.filter((change) => change.impact === 'notice');
  const baseVersion = String(base.info?.version ?? '');
  const revisionVersion = String(revision.info?.version ?? '');
  const versionChanged = baseVersion !== revisionVersion;
  return { baseVersion, revisionVersion, versionChanged, breaking, notices, changes, ok: breaking.length === 0 || versionChanged };
}

/**
 * The places that the top CHANGELOG entry declares not breaking, each on a line `- Not breaking: \`<pointer>\`: why`
 * (a correction of what the description said wrongly, which no user relied on). The release check accepts those.
 */
export function acknowledgedChanges(entryBody: string): Set<string> {
  const found = new Set<string>();
  for (const line of entryBody.split('\n')) {
    const text = line.trim();
    if (!text.startsWith('- Not breaking:')) continue;
    const parts = text.split('`');
    for (let index = 1; index < parts.length; index += 2) found.add(parts[index]!);
  }
  return found;
}

/** The ways forward from a breaking change, in the release check's words. */
export const wayForward =
  'Undo the change; or release it as a new version (set info.version in openapi/openapi.yaml, add a CHANGELOG.md entry, run ' +
  'npm run release); or, for a correction that breaks no user (the description was wrong and no service answer changes), ' +
  'add a line "- Not breaking: `<pointer>`: why" to the top CHANGELOG.md entry.';

/** The changes that pass but belong in the release notes, one line each (empty when there are none). */
export function describeNotices(notices: Change[]): string {
  if (notices.length === 0) return '';
  const lines = notices.map((change) => `  - ${change.message} (${change.ruleId}, ${change.pointer})`);
  return `${notices.length} change(s) that break no one but belong in the release notes (say them in CHANGELOG.md):\n${lines.join('\n')}`;
}

export function describeGate(
  result: Pick<GateResult, 'breaking' | 'notices' | 'versionChanged' | 'revisionVersion'>,
  baseLabel: string,
): string {
  const notices = describeNotices(result.notices);
  const lines = result.breaking.map((change) => `  - ${change.message} (${change.ruleId}, ${change.pointer})`);
  const verdict =
    result.breaking.length === 0
      ? `No breaking change since ${baseLabel}.`
      : result.versionChanged
        ? `${result.breaking.length} breaking change(s) since ${baseLabel}, allowed by the new version ${result.revisionVersion}:\n${lines.join('\n')}`
        : `${result.breaking.length} breaking change(s) since ${baseLabel}, and info.version is still ${result.revisionVersion}. ` +
          `Within a version attributes are never removed and their types never change (core document, section 9). ${wayForward}\n${lines.join('\n')}`;
  return notices ? `${verdict}\n${notices}` : verdict;
}

/** The CHANGELOG's release headings, in order: "## 2.0 (2026-11-22)" → { version: "2.0", date: "2026-11-22" }. */
export function changelogEntries(text: string): { heading: string; version: string; date: string; body: string }[] {
  const entries: { heading: string; version: string; date: string; body: string }[] = [];
  const headings = [...text.matchAll(/^## +(\S+) +\((\d{4}-\d{2}-\d{2})\)[ \t]*$/gm)];
  headings.forEach((match, index) => {
    const start = match.index! + match[0].length;
    const next = text.slice(start).search(/^## /m);
    const end = index + 1 < headings.length ? headings[index + 1]!.index! : next === -1 ? text.length : start + next;
    entries.push({ heading: match[0].trim(), version: match[1]!, date: match[2]!, body: text.slice(start, end).trim() });
  });
  return entries;
}
