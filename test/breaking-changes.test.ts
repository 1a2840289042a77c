// The breaking-change gate (core document, section 9): the current description may add to the last release, but
// may not remove an attribute or change its type without a new info.version. Proved on copies of the release.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  changelogEntries,
  changelogFile,
  checkCompatibility,
  compareVersions,
  describeGate,
  readReleases,
  releasesDir,
  sha256,
} from '../scripts/lib/breaking-changes.js';
import { outputs } from '../scripts/lib/paths.js';
import type { Json } from './support/bundle.js';

const releases = readReleases();
const latest = releases.at(-1)!;
const releaseFile = path.join(releasesDir, latest.file);
const released: Json = JSON.parse(readFileSync(releaseFile, 'utf8'));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'breaking-'));

/** A copy of the release, changed by `change`, written to a file for redocly diff. */
function variant(name: string, change: (document: Json) => void): string {
  const document = structuredClone(released);
  change(document);
  const file = path.join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
}

describe('releases and the CHANGELOG', () => {
  it('releases/ holds the last release of each version, as index.json lists it', () => {
    expect(releases.length).toBeGreaterThan(0);
    const latestOfVersion = new Map(releases.map((release) => [release.version, release]));
    for (const release of latestOfVersion.values()) {
      expect(sha256(readFileSync(path.join(releasesDir, release.file))), `releases/${release.file} was edited after its release`).toBe(release.sha256);
      expect(JSON.parse(readFileSync(path.join(releasesDir, release.file), 'utf8')).info.version).toBe(release.version);
    }
    expect([...releases].sort((a, b) => compareVersions(a.version, b.version) || a.date.localeCompare(b.date))).toEqual(releases);
  });

  it('every release has its CHANGELOG.md entry, newest first', () => {
    const entries = changelogEntries(readFileSync(changelogFile, 'utf8'));
    for (const release of releases) {
      const entry = entries.find((candidate) => candidate.heading === release.changelog);
      expect(entry, `CHANGELOG.md has no entry "${release.changelog}"`).toBeDefined();
      expect(entry!.body).not.toBe('');
    }
    expect(entries.map((entry) => entry.heading)).toEqual([...entries].sort((a, b) => compareVersions(b.version, a.version) || b.date.localeCompare(a.date)).map((entry) => entry.heading));
  });
});

describe('the gate', () => {
  it(`the current description (generated/openapi.json) does not break release ${latest.version}, or has a new version`, async () => {
    const result = await checkCompatibility(releaseFile, outputs().bundleJson);
    expect(result.ok, describeGate(result, `release ${latest.version} (${latest.date})`)).toBe(true);
  });

  it('removing an attribute breaks the release', async () => {
    const result = await checkCompatibility(
      releaseFile,
      variant('removed', (document) => {
        delete document.components.schemas.DeviceKey.properties.device_key;
        document.components.schemas.DeviceKey.required = [];
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.breaking.map((change) => change.ruleId)).toContain('property-removed');
    expect(describeGate(result, 'the release')).toMatch(/Property `device_key` of `data` was removed[\s\S]*info\.version is still|info\.version is still[\s\S]*Property `device_key` of `data` was removed/);
  });

  it('changing the type of an attribute breaks the release', async () => {
    const result = await checkCompatibility(
      releaseFile,
      variant('retyped', (document) => {
        document.components.schemas.Error.properties.message.type = 'integer';
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.breaking.map((change) => change.ruleId)).toEqual(['schema-type-changed']);
  });

  it('making an optional request attribute required breaks the release', async () => {
    const result = await checkCompatibility(
      releaseFile,
      variant('required', (document) => {
        document.components.schemas.MonitorGroupCreate.required.push('description');
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.breaking.map((change) => change.ruleId)).toEqual(['required-properties-added']);
  });

  it('adding an optional attribute does not', async () => {
    const result = await checkCompatibility(
      releaseFile,
      variant('added', (document) => {
        document.components.schemas.DeviceKey.properties.region = { type: 'string', description: 'A new attribute.' };
      }),
    );
    expect(result.ok).toBe(true);
    expect(result.breaking).toEqual([]);
    expect(result.changes.length).toBeGreaterThan(0);
  });

  it('a breaking change with a new info.version passes, and is listed', async () => {
    const result = await checkCompatibility(
      releaseFile,
      variant('new-version', (document) => {
        delete document.components.schemas.DeviceKey.properties.device_key;
        document.components.schemas.DeviceKey.required = [];
        document.info.version = '3.0';
      }),
    );
    expect(result).toMatchObject({ ok: true, versionChanged: true, revisionVersion: '3.0' });
    expect(describeGate(result, 'the release')).toMatch(/allowed by the new version 3\.0/);
  });
});

describe('versions and CHANGELOG entries', () => {
  it('compares versions numerically', () => {
    expect(['10.0', '2.1', '2.0', '3.0'].sort(compareVersions)).toEqual(['2.0', '2.1', '3.0', '10.0']);
  });

  it('reads CHANGELOG entries', () => {
    expect(changelogEntries('# Changelog\n\n## 2.1 (2027-01-02)\n\n- Added x.\n\n## 2.0 (2026-11-22)\n\nFirst.\n')).toEqual([
      { heading: '## 2.1 (2027-01-02)', version: '2.1', date: '2027-01-02', body: '- Added x.' },
      { heading: '## 2.0 (2026-11-22)', version: '2.0', date: '2026-11-22', body: 'First.' },
    ]);
  });
});
