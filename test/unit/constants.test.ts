/**
 * Holds the constants schemas (openapi/components/schemas/constants/*.yaml, loaded as plain YAML, nothing resolved)
 * against the independent transcription of the constants document in test/support/constants-document.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as doc from '../support/constants-document.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = any;

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'openapi', 'components', 'schemas', 'constants');
const FILES = Object.keys(doc.sections);

const files: Record<string, Schema> = Object.fromEntries(
  FILES.map((f) => [f, parse(readFileSync(join(DIR, `${f}.yaml`), 'utf8')) as Record<string, Schema>]),
);
const all: Record<string, Schema> = Object.assign({}, ...Object.values(files));
const enumSchemaNames = Object.entries(all)
  .filter(([, s]) => Array.isArray(s.enum))
  .map(([n]) => n);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await'
  ).split(' '),
);

describe('constants files', () => {
  it('has exactly one file per section of the document', () => {
    const onDisk = readdirSync(DIR)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.replace(/\.yaml$/, ''))
      .sort();
    expect(onDisk).toEqual([...FILES].sort());
  });

  it('uses schema names that are PascalCase and unique across all files', () => {
    const names = Object.values(files).flatMap((f) => Object.keys(f));
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n, n).toMatch(/^[A-Z][A-Za-z0-9]*$/);
  });

  it('gives every schema a title and a short prose description without a table of values', () => {
    for (const [name, s] of Object.entries(all)) {
      expect(typeof s.title, `${name}.title`).toBe('string');
      expect(s.title.length, `${name}.title`).toBeGreaterThan(0);
      expect(typeof s.description, `${name}.description`).toBe('string');
      expect(s.description.length, `${name}.description`).toBeGreaterThan(10);
      expect(s.description, `${name}.description has a Markdown table`).not.toMatch(/^\s*\|/m);
    }
  });

  it('holds, per file, exactly the enumerations of that section', () => {
    for (const f of FILES) {
      const inFile = Object.entries<Schema>(files[f])
        .filter(([, s]) => Array.isArray(s.enum))
        .map(([n]) => n);
      expect(inFile.sort(), f).toEqual([...doc.sections[f]!.enums].sort());
    }
  });

  it('has no enum schema that is missing from the transcription, and vice versa', () => {
    const transcribed = Object.keys(doc.enumerations).sort();
    expect(enumSchemaNames.sort()).toEqual(transcribed);
    const bySection = Object.values(doc.sections)
      .flatMap((s) => s.enums)
      .sort();
    expect(bySection).toEqual(transcribed);
  });
});

describe.each(Object.entries(doc.enumerations))('%s', (name, entries) => {
  const s = all[name];
  const values = entries.map(([v]) => v);
  const meanings = entries.map(([, m]) => m);

  it('exists', () => {
    expect(s, name).toBeDefined();
  });

  it('lists every value of the document, exactly and in order', () => {
    expect(s.enum).toEqual(values);
    expect(new Set(s.enum).size).toBe(s.enum.length);
  });

  it('keeps integers integers and codes strings', () => {
    const type = typeof values[0] === 'number' ? 'integer' : 'string';
    expect(s.type).toBe(type);
    for (const v of s.enum) {
      if (type === 'integer') expect(Number.isInteger(v), String(v)).toBe(true);
      else expect(typeof v, String(v)).toBe('string');
    }
  });

  it("gives every value the document's meaning, in order", () => {
    expect(s['x-enum-descriptions']).toEqual(meanings);
  });

  it('names every value with a valid, unique identifier', () => {
    const names: string[] = s['x-enum-varnames'];
    expect(Array.isArray(names)).toBe(true);
    expect(names.length).toBe(s.enum.length);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) {
      expect(n, n).toMatch(IDENTIFIER);
      expect(RESERVED.has(n), n).toBe(false);
    }
  });
});

describe('open sets', () => {
  it.each(Object.entries(doc.openSets))('%s is the known enum or any string', (open, known) => {
    const s = all[open];
    expect(s.anyOf).toHaveLength(2);
    expect(s.anyOf[0]).toEqual({ $ref: `#/${known}` });
    expect(s.anyOf[1].type).toBe('string');
    expect(all[known].enum).toBeDefined();
    expect(files[Object.keys(files).find((f) => open in files[f])!][known]).toBeDefined();
  });

  it('MonitorType and HttpMethod accept any other string', () => {
    expect(all.MonitorType.anyOf[1]).toEqual({ type: 'string' });
    expect(all.HttpMethod.anyOf[1]).toEqual({ type: 'string' });
  });

  it('TimeWindow takes a particular date as SD/dd.mm.yyyy', () => {
    const re = new RegExp(all.TimeWindow.anyOf[1].pattern);
    for (const v of doc.timeWindowDates.valid) expect(re.test(v), v).toBe(true);
    for (const v of doc.timeWindowDates.invalid) expect(re.test(v), v).toBe(false);
  });

  it('KnownMonitorType groups the IDs by the sub-groups of the document', () => {
    expect(all.KnownMonitorType['x-monitor-type-groups']).toEqual(doc.monitorTypeGroups);
    expect(Object.values(doc.monitorTypeGroups).flat()).toEqual(all.KnownMonitorType.enum);
  });
});

describe('periods and granularity', () => {
  const period = all.Period;
  const expanded: Record<string, number[]> = {};
  for (const [periods, units] of doc.granularityRows) for (const p of periods) expanded[String(p)] = units;

  it('Period has the range of every period', () => {
    const ranges = Object.fromEntries(Object.entries(doc.periodRanges).map(([k, v]) => [String(k), v]));
    expect(period['x-period-ranges']).toEqual(ranges);
    expect(
      Object.keys(period['x-period-ranges'])
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...period.enum].sort((a: number, b: number) => a - b));
  });

  it('x-supported-granularities holds every row of the table, and only those', () => {
    expect(period['x-supported-granularities']).toEqual(expanded);
    const units = all.UnitOfTime.enum;
    for (const [p, us] of Object.entries<number[]>(period['x-supported-granularities'])) {
      expect(period.enum, p).toContain(Number(p));
      for (const u of us) expect(units, `${p}/${u}`).toContain(u);
    }
    // every period but the custom one is in the table
    expect(period.enum.filter((p: number) => !(String(p) in expanded))).toEqual([doc.customPeriod.period]);
  });

  it('x-custom-period-rule states the custom-period rule', () => {
    const rule = period['x-custom-period-rule'];
    expect(rule.period).toBe(doc.customPeriod.period);
    expect(rule['raw-data-unit-of-time']).toBe(doc.customPeriod.rawUnitOfTime);
    expect(rule['raw-data-within-last-days']).toBe(doc.customPeriod.rawWithinLastDays);
    expect(rule.text).toBe(
      'For a custom period the granularity is derived from the start and end dates. ' +
        'Raw granularity applies only if both dates lie within the last 30 days.',
    );
    expect(period.description).toContain(rule.text);
  });

  it('ReportPeriodGranularity has one branch per table row, restricting both fields, plus the custom period', () => {
    const branches: Schema[] = all.ReportPeriodGranularity.oneOf;
    expect(branches).toHaveLength(doc.granularityRows.length + 1);
    doc.granularityRows.forEach(([periods, units], i) => {
      expect(branches[i].properties.period.enum).toEqual(periods);
      expect(branches[i].properties.unit_of_time.enum).toEqual(units);
      expect(branches[i].required).toEqual(['period', 'unit_of_time']);
      // the restricted enums keep the names and meanings of Period and UnitOfTime
      for (const [prop, source] of [
        ['period', 'Period'],
        ['unit_of_time', 'UnitOfTime'],
      ] as const) {
        const sub = branches[i].properties[prop];
        const at = sub.enum.map((v: number) => all[source].enum.indexOf(v));
        expect(at, `${i} ${prop}`).not.toContain(-1);
        expect(sub['x-enum-varnames']).toEqual(at.map((j: number) => all[source]['x-enum-varnames'][j]));
        expect(sub['x-enum-descriptions']).toEqual(at.map((j: number) => all[source]['x-enum-descriptions'][j]));
      }
    });
    const custom = branches[doc.granularityRows.length];
    expect(custom.properties.period.const).toBe(doc.customPeriod.period);
    expect(custom.properties.unit_of_time).toEqual({ $ref: '#/UnitOfTime' });
  });
});

describe('check interval', () => {
  it('x-unsupported-monitor-types holds every row of the table', () => {
    const expanded: Record<string, string[]> = {};
    for (const [intervals, types] of doc.unsupportedRows) for (const i of intervals) expanded[String(i)] = types;
    expect(all.CheckInterval['x-unsupported-monitor-types']).toEqual(expanded);
    expect(Object.keys(expanded).map(Number)).toEqual(all.CheckInterval.enum);
    for (const t of Object.values(expanded).flat()) expect(all.KnownMonitorType.enum, t).toContain(t);
  });
});

describe('HTTP monitor', () => {
  it('BrowserType has the browser version per browser type', () => {
    const versions = Object.fromEntries(Object.entries(doc.browserVersions).map(([k, v]) => [String(k), v]));
    expect(all.BrowserType['x-browser-versions']).toEqual(versions);
  });
});

describe('DNS monitor', () => {
  const lookup = all.DnsLookupType;
  const idOf = (name: string) => doc.enumerations.DnsLookupType.find(([, m]) => m === name)![0] as number;
  const toSchemaType = (t: doc.FieldType) => (t === 'int' ? 'integer' : 'string');
  const expected: Record<string, [string, doc.FieldType][]> = { [String(idOf('ALL'))]: [] };
  for (const [types, fields] of doc.dnsFieldRows) for (const t of types) expected[String(idOf(t))] = fields;

  it('every lookup type is in the table or is ALL', () => {
    expect(
      Object.keys(expected)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...lookup.enum].sort((a, b) => a - b));
  });

  it('x-search-config-fields holds every row of the table plus ttlo and ttl', () => {
    const x = lookup['x-search-config-fields'];
    expect(Object.keys(x).sort()).toEqual(Object.keys(expected).sort());
    for (const [id, fields] of Object.entries(expected)) {
      const want = Object.fromEntries([...fields, ...doc.dnsCommonFields].map(([f, t]) => [f, toSchemaType(t)]));
      expect(x[id], id).toEqual(want);
    }
  });

  it('DnsSearchConfig has one branch per lookup type, tagged by lookup_type, with the fields and types of the table', () => {
    const refs: string[] = all.DnsSearchConfig.oneOf.map((b: Schema) => b.$ref);
    expect(refs).toHaveLength(lookup.enum.length);
    const seen = new Set<number>();
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/DnsSearchConfig[A-Z][a-z]*$/);
      const b = files['dns-monitor'][ref.slice(2)];
      expect(b, ref).toBeDefined();
      expect(b.type).toBe('object');
      expect(b.required).toEqual(['lookup_type']);
      const tag = b.properties.lookup_type;
      expect(tag.type).toBe('integer');
      const id: number = tag.const;
      expect(lookup.enum).toContain(id);
      seen.add(id);
      const fields = expected[String(id)]!;
      expect(Object.keys(b.properties)).toEqual(['lookup_type', ...fields.map(([f]) => f), 'ttlo', 'ttl']);
      for (const [f, t] of fields) {
        if (id === idOf('DNSKEY') && f === 'flg') expect(b.properties.flg).toEqual({ $ref: '#/DnsKeyFlag' });
        else expect(b.properties[f].type, `${ref} ${f}`).toBe(toSchemaType(t));
      }
      expect(b.properties.ttlo).toEqual({ $ref: '#/TtlOperation' });
      expect(b.properties.ttl.type).toBe('integer');
    }
    expect(seen.size).toBe(lookup.enum.length);
  });
});

describe('APM and roles', () => {
  it('ApmTransactionGraph has the transaction types per graph', () => {
    expect(all.ApmTransactionGraph['x-transaction-types']).toEqual(doc.transactionGraphTypes);
    for (const t of Object.values(doc.transactionGraphTypes).flat()) expect(all.ApmTransactionType.enum).toContain(t);
  });

  it('ServiceRole carries the permissions of the core document, one sentence group per role', () => {
    const perms = Object.fromEntries(Object.entries(doc.rolePermissions).map(([k, v]) => [String(k), v]));
    expect(all.ServiceRole['x-role-permissions']).toEqual(perms);
    const prose: string = all.ServiceRole.description.replace(/\s+/g, ' ');
    expect(prose).toContain('Super Admin');
    for (const p of Object.values(doc.rolePermissions)) {
      const firstWords = p.split(' ').slice(0, 4).join(' ').replace(/\.$/, '').toLowerCase();
      expect(prose.toLowerCase(), p).toContain(firstWords);
    }
  });
});

describe('validating schemas (local refs of one file only)', () => {
  const keywords = new Set<string>();
  const collect = (o: unknown): void => {
    if (Array.isArray(o)) o.forEach(collect);
    else if (o && typeof o === 'object') {
      for (const [k, v] of Object.entries(o)) {
        if (k.startsWith('x-')) keywords.add(k);
        collect(v);
      }
    }
  };
  collect(all);
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addVocabulary([...keywords]);
  const compile = (file: string, name: string) => {
    const text = JSON.stringify(files[file]).replaceAll('"$ref":"#/', '"$ref":"#/$defs/');
    const defs = JSON.parse(text);
    return ajv.compile({ $id: `urn:${file}:${name}`, $defs: defs, $ref: `#/$defs/${name}` });
  };

  it('ReportPeriodGranularity accepts exactly the supported pairs (custom period: any unit)', () => {
    const validate = compile('periods', 'ReportPeriodGranularity');
    const supported = new Map<number, number[]>();
    for (const [ps, us] of doc.granularityRows) for (const p of ps) supported.set(p, us);
    for (const [p] of doc.enumerations.Period) {
      for (const [u] of doc.enumerations.UnitOfTime) {
        const ok = p === doc.customPeriod.period || (supported.get(p as number) ?? []).includes(u as number);
        expect(validate({ period: p, unit_of_time: u }), `${p}/${u}`).toBe(ok);
      }
    }
    expect(validate({ period: 6, unit_of_time: 1 })).toBe(false);
    expect(validate({ period: 0 })).toBe(false);
  });

  it('DnsSearchConfig accepts each lookup type with its fields and rejects wrong types', () => {
    const validate = compile('dns-monitor', 'DnsSearchConfig');
    for (const [name, id] of doc.enumerations.DnsLookupType.map(([v, m]) => [m, v] as const)) {
      const row = doc.dnsFieldRows.find(([ts]) => ts.includes(name))?.[1] ?? [];
      const good: Record<string, unknown> = { lookup_type: id, ttlo: 1, ttl: 300 };
      for (const [f, t] of row) good[f] = t === 'int' ? (f === 'flg' && name === 'DNSKEY' ? 257 : 1) : 'x';
      expect(validate(good), `${name} ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({ ...good, ttl: 'soon' }), name).toBe(false);
      expect(validate({ ...good, ttlo: 4 }), name).toBe(false);
      for (const [f, t] of row) expect(validate({ ...good, [f]: t === 'int' ? 'x' : 1 }), `${name}.${f}`).toBe(false);
    }
    expect(validate({ lookup_type: 48, flg: 255 })).toBe(false);
    expect(validate({ lookup_type: 3 })).toBe(false);
    expect(validate({ addr: '192.0.2.1' })).toBe(false);
  });

  it('TimeWindow, MonitorType and HttpMethod stay open', () => {
    const tw = compile('status', 'TimeWindow');
    for (const [v] of doc.enumerations.KnownTimeWindow) expect(tw(v)).toBe(true);
    expect(tw('SD/21.11.2026')).toBe(true);
    expect(tw('X')).toBe(false);
    expect(tw('SD/21.11.26')).toBe(false);
    const mt = compile('monitor-types', 'MonitorType');
    expect(mt('URL')).toBe(true);
    expect(mt('SOMETHING_NEW')).toBe(true);
    expect(mt(7)).toBe(false);
    const hm = compile('http-monitor', 'HttpMethod');
    expect(hm('P')).toBe(true);
    expect(hm('PURGE')).toBe(true);
  });
});
