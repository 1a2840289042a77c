// What the MCP server knows without a call (src/mcp/knowledge.ts): every fact an enumeration's extensions hold reaches
// its resource, each value another enumeration's value names is that enumeration's, and the guides are the
// description's `##` sections.
import { describe, expect, it } from 'vitest';
import { enumerations, guides, lookupConstant } from '../../src/mcp/knowledge.js';
import { type Json, loadBundle } from '../support/bundle.js';

interface Entry {
  value: unknown;
  name: string;
  meaning: string;
  facts: Record<string, unknown>;
}

const schemas: Record<string, Json> = loadBundle().components.schemas;
const resources = new Map(
  enumerations().map((resource) => [resource.name, JSON.parse(resource.text) as { values: Entry[]; rules?: Record<string, unknown> }]),
);

describe('the enumerations as the MCP server gives them', () => {
  it('keeps every fact of every extension of an enumeration, on its values or as a rule of the whole', () => {
    let facts = 0;
    for (const [name, schema] of Object.entries(schemas).filter(([, candidate]) => Array.isArray(candidate.enum))) {
      const resource = resources.get(name)!;
      expect(resource.values.map((entry) => entry.value)).toEqual(schema.enum);
      for (const key of Object.keys(schema).filter((k) => k.startsWith('x-') && k !== 'x-enum-varnames' && k !== 'x-enum-descriptions')) {
        const fact = key.slice(2);
        const kept = resource.values.some((entry) => fact in entry.facts) || (resource.rules !== undefined && fact in resource.rules);
        expect(kept, `${name}.${key}`).toBe(true);
        facts += 1;
      }
    }
    expect(facts).toBeGreaterThanOrEqual(9);
  });

  it("names each value of another enumeration that a fact holds, with that enumeration's meaning", () => {
    const references = [...resources.values()].flatMap((resource) =>
      resource.values.flatMap((entry) =>
        Object.values(entry.facts).flatMap((fact) =>
          Array.isArray(fact) ? fact.filter((item) => typeof item === 'object' && item !== null && 'enumeration' in item) : [],
        ),
      ),
    ) as { enumeration: string; value: unknown; meaning: string }[];
    expect(new Set(references.map((reference) => reference.enumeration))).toEqual(
      new Set(['UnitOfTime', 'KnownMonitorType', 'ApmTransactionType']),
    );
    for (const reference of references) {
      const target = schemas[reference.enumeration]!;
      const index = target.enum.indexOf(reference.value);
      expect(index, `${reference.enumeration} ${String(reference.value)}`).toBeGreaterThanOrEqual(0);
      expect(reference.meaning).toBe(target['x-enum-descriptions'][index]);
    }
  });

  it('groups a value by the lists that hold it (monitor types), and keeps the custom period rule whole', () => {
    const groups = schemas.KnownMonitorType!['x-monitor-type-groups'] as Record<string, string[]>;
    for (const entry of resources.get('KnownMonitorType')!.values) {
      const expected = Object.keys(groups).filter((group) => groups[group]!.includes(String(entry.value)));
      if (expected.length > 0) expect(entry.facts['monitor-type-groups']).toEqual(expected);
    }
    expect(resources.get('Period')!.rules).toEqual({ 'custom-period-rule': schemas.Period!['x-custom-period-rule'] });
  });

  it('answers a lookup by enumeration and value, by value name, by part of a name, and by words', () => {
    const answer = (input: Record<string, unknown>) => JSON.parse(lookupConstant(input)) as (Entry & { enumeration: string })[];
    expect(answer({ enumeration: 'monitorstatus', value: '10' })).toEqual([
      expect.objectContaining({ enumeration: 'MonitorStatus', value: 10, name: 'ConfigurationError', meaning: 'Configuration Error' }),
    ]);
    expect(answer({ value: 'configurationerror' }).map((entry) => entry.enumeration)).toEqual(['MonitorStatus']);
    expect(answer({ enumeration: 'MonitorType', value: 'DNS' })[0]!.enumeration).toBe('KnownMonitorType');
    expect(answer({ search: 'configuration error' }).map((entry) => `${entry.enumeration} ${String(entry.value)}`)).toContain(
      'MonitorStatus 10',
    );
    expect(lookupConstant({ enumeration: 'MonitorStatus', value: 99 })).toMatch(/^No value matches/);
  });

  it('gives every guide of the description, each from its heading to the next', () => {
    const description = String(loadBundle().info.description);
    const headings = description.match(/^## .+$/gm) ?? [];
    expect(guides().map((guide) => `## ${guide.name}`)).toEqual(headings);
    for (const guide of guides()) {
      expect(guide.uri).toMatch(/^guide:\/\/[a-z0-9-]+$/);
      expect(description).toContain(guide.text);
    }
  });
});
