/**
 * scripts/lib/constants-source.ts: bundles the constants schemas with Redocly (the project's config, so the enum-table
 * decorator runs as in the real pipeline), generates the TypeScript module, type-checks it and holds its runtime
 * values and helpers against the bundled document and against the transcription of the constants document.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateConstants } from '../../scripts/lib/constants-source.js';
import * as doc from '../support/constants-document.js';
import { tsc7Args, tsc7Path } from '../support/tsc.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONSTANTS = path.join(ROOT, 'openapi', 'components', 'schemas', 'constants');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const DAY = 86_400_000;

let scratch = '';
let bundle: Any;
let source = '';
let mod: Any;

function bundleConstants(dir: string): Any {
  const schemas: Record<string, { $ref: string }> = {};
  for (const file of readdirSync(CONSTANTS)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const rel = path.relative(dir, path.join(CONSTANTS, file)).split(path.sep).join('/');
    for (const name of Object.keys(parse(readFileSync(path.join(CONSTANTS, file), 'utf8')))) {
      schemas[name] = { $ref: `${rel}#/${name}` };
    }
  }
  const root = path.join(dir, 'root.yaml');
  writeFileSync(root, stringify({ openapi: '3.1.0', info: { title: 'constants', version: '0' }, paths: {}, components: { schemas } }));
  const out = path.join(dir, 'bundle.json');
  execFileSync(path.join(BIN, 'redocly'), ['bundle', root, '--config', path.join(ROOT, 'redocly.yaml'), '-o', out], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    stdio: 'pipe',
  });
  rmSync(root);
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** TypeScript 7's tsc (test/support/tsc.ts), found before the tests. */
let tsc7 = '';
function tsc(args: string[]): { ok: boolean; output: string } {
  try {
    execFileSync(tsc7, [...args, ...tsc7Args, '--pretty', 'false'], { cwd: scratch, stdio: 'pipe' });
    return { ok: true, output: '' };
  } catch (error: any) {
    return { ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` };
  }
}

beforeAll(async () => {
  tsc7 = await tsc7Path();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'constants-generated-'));
  bundle = bundleConstants(scratch);
  source = generateConstants(bundle, { source: 'bundle.json' });
  writeFileSync(path.join(scratch, 'constants.ts'), source);
  mod = await import(pathToFileURL(path.join(scratch, 'constants.ts')).href);
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const schemas = (): Record<string, Any> => bundle.components.schemas;
const enumNames = () => Object.keys(schemas()).filter((n) => 'x-enum-varnames' in schemas()[n]);

describe('the generated module', () => {
  it('is deterministic', () => {
    expect(generateConstants(JSON.parse(JSON.stringify(bundle)), { source: 'bundle.json' })).toBe(source);
  });

  it('passes tsc --strict --noEmit', () => {
    const result = tsc(['--strict', '--noEmit', 'constants.ts']);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  });

  it('types values, open sets and helpers as intended (checked by tsc)', () => {
    writeFileSync(
      path.join(scratch, 'usage.ts'),
      `import {
  MonitorStatus, MonitorType, KnownMonitorType, HttpMethod, TimeWindow, Period, UnitOfTime, CheckInterval,
  ActionRuleMeanings, browserVersion, isGranularitySupported, isCheckIntervalSupported, supportedGranularities,
} from './constants.js';
const down: MonitorStatus = MonitorStatus.Down;
const up: MonitorStatus = 1;
// @ts-expect-error 4 is not a monitor status
const four: MonitorStatus = 4;
const known: MonitorType = KnownMonitorType.URL_SEQ;
const other: MonitorType = 'SOME_NEW_TYPE';
// @ts-expect-error a monitor type is a string
const numeric: MonitorType = 7;
const post: HttpMethod = 'P';
const purge: HttpMethod = 'PURGE';
const hour: TimeWindow = 'H';
const date: TimeWindow = 'SD/21.11.2026';
// @ts-expect-error neither a known time window nor SD/...
const bad: TimeWindow = 'yesterday';
const p: Period = 50;
const u: UnitOfTime = 1;
const i: CheckInterval = 15;
const v83: 83 = browserVersion(1);
const meaning: string = ActionRuleMeanings[-1];
const ok: boolean = isGranularitySupported(p, u, { start: new Date(), end: Date.now() }) && isCheckIntervalSupported(i, other);
const units: readonly UnitOfTime[] | undefined = supportedGranularities(2);
// @ts-expect-error 6 is not a period
supportedGranularities(6);
export { down, up, four, known, other, numeric, post, purge, hour, date, bad, v83, meaning, ok, units };
`,
    );
    const result = tsc([
      '--strict',
      '--noEmit',
      '--target',
      'ES2022',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--noUncheckedIndexedAccess',
      'usage.ts',
    ]);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  });

  it('rejects an enum whose names do not match its values', () => {
    const broken = { components: { schemas: { X: { type: 'integer', enum: [1, 2], 'x-enum-varnames': ['One'] } } } };
    expect(() => generateConstants(broken)).toThrow(/2 values but 1 x-enum-varnames/);
  });

  it('also runs on the pipeline bundle, when there is one', () => {
    const file = path.join(ROOT, 'generated', 'openapi.json');
    if (!existsSync(file)) return;
    expect(() => generateConstants(JSON.parse(readFileSync(file, 'utf8')))).not.toThrow();
  });
});

describe('runtime values agree with the bundled document', () => {
  it('exports an object, a value list and a meaning map for every enum with x-enum-varnames', () => {
    expect(enumNames().length).toBeGreaterThan(100);
    for (const name of enumNames()) {
      const s = schemas()[name];
      const names: string[] = s['x-enum-varnames'];
      expect(mod[name], name).toEqual(Object.fromEntries(names.map((n, i) => [n, s.enum[i]])));
      expect(Object.keys(mod[name]), name).toEqual(names); // identifiers keep the document's order
      expect(mod[`${name}Values`], name).toEqual(s.enum);
      expect(mod[`${name}Meanings`], name).toEqual(
        Object.fromEntries(s.enum.map((v: string | number, i: number) => [String(v), s['x-enum-descriptions'][i]])),
      );
    }
  });

  it('documents every value with its meaning', () => {
    for (const name of enumNames()) {
      const s = schemas()[name];
      s['x-enum-varnames'].forEach((n: string, i: number) => {
        const comment = `/** ${s['x-enum-descriptions'][i].replace(/\*\//g, '*\\/')} */\n  ${n}: ${JSON.stringify(s.enum[i])},`;
        expect(source, `${name}.${n}`).toContain(comment);
      });
    }
  });

  it('agrees with the transcription of the constants document', () => {
    for (const [name, entries] of Object.entries(doc.enumerations)) {
      expect(mod[`${name}Values`], name).toEqual(entries.map(([v]) => v));
      expect(Object.values(mod[`${name}Meanings`]).sort(), name).toEqual(entries.map(([, m]) => m).sort());
      for (const [v, m] of entries) expect(mod[`${name}Meanings`][String(v)], `${name} ${v}`).toBe(m);
    }
  });

  it('keeps the open sets open', () => {
    expect(source).toContain('export type MonitorType = KnownMonitorType | (string & {});');
    expect(source).toContain('export type HttpMethod = KnownHttpMethod | (string & {});');
    expect(source).toContain('export type TimeWindow = KnownTimeWindow | `SD/${string}`;');
    for (const v of doc.timeWindowDates.valid) expect(mod.isTimeWindow(v), v).toBe(true);
    for (const v of doc.timeWindowDates.invalid) expect(mod.isTimeWindow(v), v).toBe(false);
    for (const [v] of doc.enumerations.KnownTimeWindow) expect(mod.isTimeWindow(v)).toBe(true);
  });
});

describe('table helpers, row by row', () => {
  it('supportedGranularities and isGranularitySupported follow the table of granularities per period', () => {
    const units = doc.enumerations.UnitOfTime.map(([u]) => u);
    for (const [periods, supported] of doc.granularityRows) {
      for (const p of periods) {
        expect(mod.supportedGranularities(p), `period ${p}`).toEqual(supported);
        for (const u of units) expect(mod.isGranularitySupported(p, u), `${p}/${u}`).toBe(supported.includes(u as number));
      }
    }
  });

  it('isGranularitySupported applies the custom-period rule', () => {
    const { period, rawUnitOfTime, rawWithinLastDays } = doc.customPeriod;
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(mod.supportedGranularities(period)).toBeUndefined();
    expect(mod.isGranularitySupported(period, rawUnitOfTime)).toBe(false);
    const recent = { start: new Date(now - 10 * DAY), end: new Date(now - DAY) };
    expect(mod.isGranularitySupported(period, rawUnitOfTime, recent, now)).toBe(true);
    const edge = { start: now - rawWithinLastDays * DAY, end: now };
    expect(mod.isGranularitySupported(period, rawUnitOfTime, edge, now)).toBe(true);
    const old = { start: new Date(now - (rawWithinLastDays + 1) * DAY), end: new Date(now - DAY) };
    expect(mod.isGranularitySupported(period, rawUnitOfTime, old, now)).toBe(false);
    const future = { start: new Date(now - DAY), end: new Date(now + DAY) };
    expect(mod.isGranularitySupported(period, rawUnitOfTime, future, now)).toBe(false);
    expect(mod.isGranularitySupported(period, rawUnitOfTime, { start: 'not a date', end: now }, now)).toBe(false);
    expect(mod.isGranularitySupported(period, rawUnitOfTime, { start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z' }, now)).toBe(
      true,
    );
    for (const [u] of doc.enumerations.UnitOfTime.filter(([u]) => u !== rawUnitOfTime)) {
      expect(mod.isGranularitySupported(period, u, old, now), `unit ${u}`).toBe(true);
    }
  });

  it('unsupportedMonitorTypes and isCheckIntervalSupported follow the check interval table', () => {
    const types = doc.enumerations.KnownMonitorType.map(([t]) => t as string);
    for (const [intervals, unsupported] of doc.unsupportedRows) {
      for (const i of intervals) {
        expect(mod.unsupportedMonitorTypes(i), `interval ${i}`).toEqual(unsupported);
        for (const t of types) expect(mod.isCheckIntervalSupported(i, t), `${i}/${t}`).toBe(!unsupported.includes(t));
        expect(mod.isCheckIntervalSupported(i, 'A_TYPE_NOT_LISTED')).toBe(true);
      }
    }
  });

  it('browserVersion gives the version per browser type', () => {
    for (const [t, v] of Object.entries(doc.browserVersions)) expect(mod.browserVersion(Number(t))).toBe(v);
  });
});
