// What the docs page says, read from the bundled description it is built from: the guides agree with the servers,
// the scopes and the roles; the enumerations' tables; the code samples of every operation. (What a reader sees of it
// in a browser is test/e2e/docs.test.ts.)
import { describe, expect, it } from 'vitest';
import { type Json, loadBundle, operationsOf } from '../support/bundle.js';
import { codeSamplesOf } from '../support/code-samples.js';
import { codeBlocks, expandedUrl, guideSection, markdownTable } from '../support/guide.js';

const bundle = loadBundle();
const operations = operationsOf(bundle);
const guide = String(bundle.info.description);
/** Named schemas with enum meanings, as `[name, schema]`. */
const enumSchemas = Object.entries<Json>(bundle.components.schemas).filter(([, schema]) => Array.isArray(schema['x-enum-descriptions']));

describe('guides agree with the rest of the description', () => {
  it('the data-center list pairs each API root with its identity provider as the servers do', () => {
    const entries = [
      ...guideSection(guide, 'Data centers').matchAll(
        /^- \*\*(.+?)\*\* \(`(\w+)`\)\\\n\s+API root: `(\S+)`\\\n\s+Identity provider: `(\S+)`$/gm,
      ),
    ].map((match) => match.slice(1));
    const servers = (bundle.servers as Json[]).map((server) => [
      String(server.description).replace(/ data center.*$/, ''),
      String(server['x-data-center']),
      expandedUrl(server),
      String(server['x-auth-url']),
    ]);
    expect(entries).toEqual(servers);
    for (const [, , api, auth] of entries) expect(`${api} ${auth}`).toMatch(/^https:\/\/\S+\.invalid\/api https:\/\/\S+\.invalid$/);
    // Each server says which identity provider goes with it (the Servers panel of the page shows the description).
    for (const server of bundle.servers as Json[]) expect(String(server.description)).toContain(String(server['x-auth-url']));
  });

  it('the scope table names exactly the values of the Scope schema', () => {
    const rows = markdownTable(guide, 'Area', 'Covers', 'Actions');
    const scopes = rows.flatMap(([area, , actions]) =>
      String(actions)
        .split(', ')
        .map((action) => `Service.${area}.${action}`),
    );
    expect(scopes.sort()).toEqual([...bundle.components.schemas.Scope.enum].sort());
  });

  it('the role table gives the role IDs and permissions of the constants', () => {
    const rows = markdownTable(guide, 'Role', 'Role ID', 'Permission');
    const roles = Object.values<Json>(bundle.components.schemas).find((schema) => schema['x-role-permissions']);
    expect(roles, 'the schema of the service roles (x-role-permissions)').toBeDefined();
    expect(rows.map(([, id]) => Number(id)).sort((a, b) => a - b)).toEqual([...roles!.enum].sort((a: number, b: number) => a - b));
    for (const [role, id, permission] of rows) expect(roles!['x-role-permissions'][String(id)], `${role} (${id})`).toBe(permission);
  });

  it('cross-references are links: no "see *Section*" in italics', () => {
    const texts = [guide, ...(bundle.tags as Json[]).map((tag) => String(tag.description ?? ''))];
    for (const { operation } of operations) texts.push(String(operation.description ?? ''));
    const italic = texts.flatMap((text) => [...text.matchAll(/\b(?:see|under|in)\s+\*[A-Z][^*]+\*/g)].map((match) => match[0]));
    expect(italic).toEqual([]);
  });

  it('enum tables give a meaning only where it adds to the value (the decorator service/enum-tables)', () => {
    const schemas = bundle.components.schemas;
    expect(markdownTable(String(schemas.MonitorStatus.description), 'Value', 'Meaning')).toContainEqual(['10', 'Configuration Error']);
    // Every meaning repeats its value: the table lists the values only.
    expect(String(schemas.DefacementType.description)).toMatch(/^\| Value \|\n\|---\|$/m);
    const agents = markdownTable(String(schemas.ApmAgentType.description), 'Value', 'Meaning');
    expect(agents).toContainEqual(['"PHP"', 'PHP (Linux)']);
    expect(agents).toContainEqual(['"JAVA"', '']);
    // No table names the x- keys it was made from.
    for (const [name, schema] of enumSchemas) expect(String(schema.description), name).not.toMatch(/`x-[a-z-]+`/);
  });

  it('the Period table has a range and units of time per period (the decorator service/enum-tables)', () => {
    const period = bundle.components.schemas.Period as Json;
    const rows = markdownTable(String(period.description), 'Value', 'Meaning', 'Range', 'Units of time');
    expect(rows.map(([value]) => Number(value))).toEqual(period.enum);
    for (const [value, , range] of rows) expect(range).toBe(period['x-period-ranges'][String(value)]);
    expect(String(period.description)).not.toMatch(/`x-/);
  });
});

describe('code samples (x-codeSamples)', () => {
  const samples = codeSamplesOf(bundle);

  it('every operation has a curl and a TypeScript sample', () => {
    for (const { operation } of operations) {
      const labels = samples.filter((sample) => sample.operationId === operation.operationId).map((sample) => sample.label);
      expect(labels, String(operation.operationId)).toEqual(['curl', 'TypeScript']);
    }
  });

  it('curl samples work in any data center: addresses from $API_ROOT and $AUTH_URL, set once in the Quick start', () => {
    const quickStart = guideSection(guide, 'Quick start');
    expect(quickStart).toMatch(/export API_ROOT=\S+\/api\n/);
    expect(quickStart).toMatch(/export AUTH_URL=\S+\n/);
    for (const sample of samples.filter((candidate) => candidate.label === 'curl')) {
      const where = `${sample.operationId}: ${sample.source}`;
      const { operation } = operations.find((entry) => entry.operation.operationId === sample.operationId)!;
      const secured = (operation.security ?? bundle.security).length > 0;
      expect(sample.source, where).not.toMatch(/https?:\/\//);
      if (secured) {
        expect(sample.source, where).toContain(`"$API_ROOT${sample.path.replace('{monitor_id}', '')}`);
        expect(sample.source, where).toContain('Authorization: Service-oauthtoken $ACCESS_TOKEN');
        expect(sample.source, where).toContain('Accept: application/json; version=2.0');
      } else {
        expect(sample.source, where).toContain(`"$AUTH_URL${sample.path}"`);
        expect(sample.source, where).toMatch(/ -d \w+=/);
        expect(sample.source, where).not.toContain('Authorization');
      }
    }
  });

  it('curl samples act on an MSP customer with the zaaid cookie, and list customers without it', () => {
    const withCookie = samples.filter((sample) => sample.label === 'curl' && /-H 'Cookie: zaaid=\d+'/.test(sample.source));
    expect(withCookie.map((sample) => sample.operationId)).toEqual(expect.arrayContaining(['listMonitors', 'listMspCustomers']));
    for (const sample of samples.filter((candidate) => candidate.label === 'curl' && candidate.path.startsWith('/short/'))) {
      const listing = sample.source.split('\n\n').find((command) => command.includes(`"$API_ROOT${sample.path}"`));
      expect(listing, `${sample.operationId}: the list call`).not.toContain('Cookie');
    }
  });

  it('TypeScript samples take the addresses from API_ROOT and AUTH_URL, never a data-center default', () => {
    for (const sample of samples.filter((candidate) => candidate.lang === 'TypeScript')) {
      expect(sample.source, sample.operationId).not.toMatch(/dataCenter|https?:\/\//);
      expect(sample.source, sample.operationId).toMatch(/authUrl: process\.env\.AUTH_URL!/);
      if (sample.source.includes('createServiceClient('))
        expect(sample.source, sample.operationId).toContain('baseUrl: process.env.API_ROOT!');
    }
  });

  it('every line of a sample, and of the code of the guides, fits a 390 px phone (56 characters)', () => {
    const long: string[] = [];
    for (const sample of samples) {
      sample.source.split('\n').forEach((line, index) => {
        if (line.length > 56) long.push(`${sample.operationId} ${sample.label}:${index + 1} (${line.length}) ${line}`);
      });
    }
    const guides = [guide, ...(bundle.tags as Json[]).map((tag) => String(tag.description ?? ''))];
    for (const block of guides.flatMap(codeBlocks)) {
      for (const line of block.split('\n')) if (line.length > 56) long.push(`guide (${line.length}) ${line}`);
    }
    expect(long).toEqual([]);
  });
});
