// The breaking-change gate (core document, section 9): the current description may add to the last release, but
// may not remove an attribute or change its type without a new info.version. Proved on copies of the current
// bundle, one kind of change each: the kinds GitHub's REST description tests, and more.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changelogEntries,
  changelogFile,
  checkCompatibility,
  compareVersions,
  describeGate,
  judgeChanges,
  ownChecks,
  readReleases,
  releasesDir,
  sha256,
} from '../../scripts/lib/breaking-changes.js';
import { outputs } from '../../scripts/lib/paths.js';
import type { Json } from '../support/bundle.js';

const releases = readReleases();
const bundleFile = outputs().bundleJson;
const bundle: Json = JSON.parse(readFileSync(bundleFile, 'utf8'));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'breaking-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the current bundle, changed by `change`, written to a file for the gate. */
function variant(name: string, change: (document: Json) => void): string {
  const document = structuredClone(bundle);
  change(document);
  const file = path.join(scratch, `${name.replace(/[^a-z0-9]+/gi, '-')}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
}

describe('releases and the CHANGELOG', () => {
  it('releases/ holds the last release of each version, as index.json lists it', () => {
    expect(releases.length).toBeGreaterThan(0);
    const latestOfVersion = new Map(releases.map((release) => [release.version, release]));
    for (const release of latestOfVersion.values()) {
      expect(sha256(readFileSync(path.join(releasesDir, release.file))), `releases/${release.file} was edited after its release`).toBe(
        release.sha256,
      );
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
    expect(entries.map((entry) => entry.heading)).toEqual(
      [...entries].sort((a, b) => compareVersions(b.version, a.version) || b.date.localeCompare(a.date)).map((entry) => entry.heading),
    );
  });
});

// The gate on the current description and package against the last release is `npm run release -- --check`, run
// whole by test/integration/scripts.test.ts, and on a copy of the repository with changes by
// test/e2e/release-check.test.ts; the verdict of each rule is the corpus of test/unit/gate-corpus.test.ts.

// Each case changes a copy of the current bundle, and the gate judges the copy against the bundle. `rules`: the rule
// that must name the change: one of the gate's own (ownChecks in scripts/lib/breaking-changes.ts, the rules of
// scripts/lib/contract-rules.ts), judged in this process, or one of redocly diff's, with `at`, the place it names.
const breakingCases: { name: string; rules: string[]; at?: string; change: (document: Json) => void }[] = [
  {
    name: 'a constants schema removed (SlaType, exported as SlaType, SlaTypeValues, SlaTypeMeanings)',
    rules: ['schema-removed'],
    change: (document) => {
      delete document.components.schemas.SlaType;
    },
  },
  {
    name: 'a field of DnsSearchConfig removed (a table of the constants document)',
    rules: ['property-removed'],
    change: (document) => {
      delete document.components.schemas.DnsSearchConfigA.properties.addr;
    },
  },
  {
    name: 'the type of a property changed in a schema no operation references',
    rules: ['type-narrowed'],
    change: (document) => {
      document.components.schemas.DnsSearchConfigA.properties.addr.type = 'integer';
    },
  },
  {
    name: 'an enum value removed (from a constant no operation uses)',
    rules: ['enum-value-removed'],
    change: (document) => {
      const status = document.components.schemas.MonitorStatus;
      for (const key of ['enum', 'x-enum-varnames', 'x-enum-descriptions']) status[key].pop();
    },
  },
  {
    name: 'an enum value removed (from a request)',
    rules: ['enum-value-removed'],
    change: (document) => {
      const grant = document.components.schemas.GrantType;
      for (const key of ['enum', 'x-enum-varnames', 'x-enum-descriptions']) grant[key].pop();
    },
  },
  {
    name: 'additionalProperties narrowed to false (on a response schema)',
    rules: ['additional-properties-narrowed'],
    change: (document) => {
      document.components.schemas.Monitor.additionalProperties = false;
    },
  },
  {
    name: 'unevaluatedProperties narrowed to false (on a request body)',
    rules: ['additional-properties-narrowed'],
    change: (document) => {
      document.components.schemas.MonitorGroupCreate.unevaluatedProperties = false;
    },
  },
  {
    name: 'a oneOf member removed from a request',
    rules: ['schema-combinator-changed'],
    at: '#/components/schemas/TokenGrant/oneOf',
    change: (document) => {
      document.components.schemas.TokenGrant.oneOf.pop();
    },
  },
  {
    name: 'an operation removed',
    rules: ['path-removed'],
    at: '#/paths/~1device_key',
    change: (document) => {
      delete document.paths['/device_key'];
    },
  },
  {
    name: 'a request property made required',
    rules: ['required-added'],
    change: (document) => {
      document.components.schemas.MonitorGroupCreate.required.push('description');
    },
  },
  {
    name: 'a response property removed',
    rules: ['property-removed'],
    change: (document) => {
      delete document.components.schemas.DeviceKey.properties.device_key;
      document.components.schemas.DeviceKey.required = [];
    },
  },
  {
    name: 'a type changed',
    rules: ['type-narrowed'],
    change: (document) => {
      document.components.schemas.Error.properties.message.type = 'integer';
    },
  },
  {
    name: 'a parameter added as required',
    rules: ['required-parameter-added'],
    at: '#/paths/~1monitors/get',
    change: (document) => {
      document.paths['/monitors'].get.parameters.push({
        name: 'page',
        in: 'query',
        required: true,
        description: 'A page.',
        schema: { type: 'integer' },
      });
    },
  },
  {
    name: 'a success status removed',
    rules: ['response-removed'],
    at: '#/paths/~1monitor_groups/post',
    change: (document) => {
      delete document.paths['/monitor_groups'].post.responses['201'];
    },
  },
];

describe('the gate, on a copy of the current bundle', () => {
  const ownRuleCases = breakingCases.filter((entry) => entry.at === undefined);
  const redoclyCases = breakingCases.filter((entry) => entry.at !== undefined);

  it.each(ownRuleCases.map((entry) => [entry.name, entry] as const))('fails on %s', (_name, entry) => {
    const revision = structuredClone(bundle);
    entry.change(revision);
    const result = judgeChanges(bundle, revision, []);
    expect(result.ok, describeGate(result, 'the bundle')).toBe(false);
    const rules = result.breaking.map((change) => change.ruleId);
    for (const rule of entry.rules) expect(rules, describeGate(result, 'the bundle')).toContain(rule);
    expect(describeGate(result, 'the bundle')).toMatch(/info\.version is still/);
  });

  // One run of redocly diff for the changes that its rules name, each at its own place.
  it(`fails on each of: ${redoclyCases.map((entry) => entry.name).join('; ')}`, async () => {
    const result = await checkCompatibility(
      bundleFile,
      variant('redocly-rules', (document) => {
        for (const entry of redoclyCases) entry.change(document);
      }),
    );
    expect(result.ok, describeGate(result, 'the bundle')).toBe(false);
    for (const entry of redoclyCases) {
      const rules = result.breaking.filter((change) => change.pointer.startsWith(entry.at!)).map((change) => change.ruleId);
      for (const rule of entry.rules) expect(rules, `${entry.name}: ${describeGate(result, 'the bundle')}`).toContain(rule);
    }
    expect(describeGate(result, 'the bundle')).toMatch(/info\.version is still/);
  });

  // One run of redocly diff for every addition: a breaking verdict of Redocly's at any place would show.
  it('passes the additions of what the service answers and a client may send, and lists each as a change', async () => {
    const result = await checkCompatibility(
      bundleFile,
      variant('additions', (document) => {
        const schemas = document.components.schemas;
        schemas.Monitor.properties.note = { type: 'string', description: 'A new attribute.' };
        for (const [key, value] of [
          ['enum', 'EXAMPLE-TYPE'],
          ['x-enum-varnames', 'EXAMPLE_TYPE'],
          ['x-enum-descriptions', 'Cloud services'],
        ] as const)
          schemas.KnownMonitorType[key].push(value);
        const get = document.paths['/monitors/{monitor_id}'].get;
        document.paths['/monitors/{monitor_id}'].delete = {
          ...structuredClone(get),
          operationId: 'deleteMonitor',
          summary: 'Delete a monitor',
        };
        const list = document.paths['/monitors'].get;
        (list.parameters ??= []).push({ name: 'offset', in: 'query', description: 'Where to start.', schema: { type: 'integer' } });
        list.responses['200'].headers = { 'X-Total': { description: 'How many.', schema: { type: 'integer' } } };
        list.responses['429'] = structuredClone(list.responses['500']);
      }),
    );
    expect(result.breaking, describeGate(result, 'the bundle')).toEqual([]);
    expect(result.ok).toBe(true);
    const rules = result.changes.map((change) => `${change.ruleId} ${change.pointer}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        'property-added #/components/schemas/Monitor/properties/note',
        'open-set-value-added #/components/schemas/KnownMonitorType/enum',
        'operation-added #/paths/~1monitors~1{monitor_id}/delete',
        'optional-parameter-added #/paths/~1monitors/get/parameters/1',
        'response-header-added #/paths/~1monitors/get/responses/200/headers/X-Total',
      ]),
    );
    // A new documented status passes, and the gate asks for it in the release notes.
    expect(result.notices.map((change) => `${change.ruleId} ${change.pointer}`)).toEqual([
      'response-added #/paths/~1monitors/get/responses/429',
    ]);
    expect(describeGate(result, 'the bundle')).toMatch(
      /^No breaking change since the bundle\.\n1 change\(s\) that break no one but belong in the release notes/,
    );
  });

  it('passes the bundle unchanged, with no change at all', async () => {
    const result = await checkCompatibility(
      bundleFile,
      variant('unchanged', () => {}),
    );
    expect(result).toMatchObject({ ok: true, breaking: [], changes: [] });
  });

  it('a breaking change with a new info.version passes, and is listed', async () => {
    const result = await checkCompatibility(
      bundleFile,
      variant('new-version', (document) => {
        delete document.components.schemas.DeviceKey.properties.device_key;
        document.components.schemas.DeviceKey.required = [];
        document.info.version = '3.0';
      }),
    );
    expect(result).toMatchObject({ ok: true, versionChanged: true, revisionVersion: '3.0' });
    expect(describeGate(result, 'the bundle')).toMatch(
      /allowed by the new version 3\.0[\s\S]*Property device_key of #\/components\/schemas\/DeviceKey was removed\. \(property-removed, #\/components\/schemas\/DeviceKey\/properties\/device_key\)/,
    );
  });
});

describe('ownChecks (what redocly diff rates as patch)', () => {
  it('finds removed enum values and narrowed additional properties at their JSON pointer', () => {
    const base = {
      components: {
        schemas: {
          A: { type: 'string', enum: ['x', 'y', 'z'] },
          B: { type: 'object', additionalProperties: true },
          'C/D': { type: 'object' },
        },
      },
    };
    const revision = structuredClone(base) as Json;
    revision.components.schemas.A.enum = ['x'];
    revision.components.schemas.B.additionalProperties = false;
    revision.components.schemas['C/D'].unevaluatedProperties = false;
    expect(ownChecks(base, revision)).toEqual([
      {
        ruleId: 'enum-value-removed',
        impact: 'major',
        message: 'Enum values "y", "z" removed from #/components/schemas/A.',
        pointer: '#/components/schemas/A/enum',
      },
      {
        ruleId: 'additional-properties-narrowed',
        impact: 'major',
        message: 'additionalProperties of #/components/schemas/B narrowed to false: attributes that were allowed are now refused.',
        pointer: '#/components/schemas/B/additionalProperties',
      },
      {
        ruleId: 'additional-properties-narrowed',
        impact: 'major',
        message: 'unevaluatedProperties of #/components/schemas/C~1D narrowed to false: attributes that were allowed are now refused.',
        pointer: '#/components/schemas/C~1D/unevaluatedProperties',
      },
    ]);
  });

  it('ignores added enum values, values in examples, and schemas that were already closed', () => {
    const base = { a: { enum: [1] }, b: { additionalProperties: false }, c: { examples: [{ enum: [1, 2] }] } };
    const revision = { a: { enum: [1, 2] }, b: { additionalProperties: false }, c: { examples: [{ enum: [1] }] } };
    expect(ownChecks(base, revision)).toEqual([]);
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
