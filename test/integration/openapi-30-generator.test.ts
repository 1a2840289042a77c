// A generator that reads OpenAPI 3.0 only (openapi-typescript-codegen, the one many older TypeScript projects still
// run) reads generated/openapi-3.0.json, the file the package exports as monitoring-service-api/openapi-3.0.json: its
// client compiles under tsc --strict, and, given the Service-oauthtoken header the way its documentation gives
// headers (OpenAPI.HEADERS), it calls the mock and reads the documented answers and errors.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outputs, root } from '../../scripts/lib/paths.js';
import { type RunningMock, startMock } from '../../src/mock/index.js';
import { loadBundle } from '../support/bundle.js';
import { execOk } from '../support/consumer-project.js';
import { checkGeneratedCode } from '../support/tsc.js';
import { schemaValidator } from '../support/validator.js';

const validate = schemaValidator(loadBundle());
const accessToken = '1000.codegen-access-token';

/** Code of a project that uses the generated client as its documentation shows, compiled with it. */
const usage = `import { ApiError, MonitorGroupsService, MonitorsService, OpenAPI, type MonitorListResponse } from './index';

export async function listAndCreate(baseUrl: string, token: string): Promise<[MonitorListResponse, unknown, number]> {
  OpenAPI.BASE = baseUrl;
  OpenAPI.HEADERS = { Authorization: 'Service-oauthtoken ' + token, Accept: 'application/json; version=2.0' };
  const monitors: MonitorListResponse = await MonitorsService.listMonitors();
  const group = await MonitorGroupsService.createMonitorGroup({ display_name: 'Payment services' });
  try {
    await MonitorsService.getMonitor('1');
    return [monitors, group, 200];
  } catch (error) {
    if (error instanceof ApiError) return [monitors, group, error.status];
    throw error;
  }
}
`;

let outDir = '';
let mock: RunningMock;

beforeAll(async () => {
  // The generator refuses an output folder outside its working directory (this repository): a scratch folder inside.
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  outDir = await mkdtemp(path.join(cache, 'codegen-'));
  // By its own script: the `openapi` command of node_modules/.bin may be Redocly's alias of the same name.
  const generator = path.join(root, 'node_modules', 'openapi-typescript-codegen', 'bin', 'index.js');
  await execOk(
    process.execPath,
    [generator, '--input', outputs().openapi30Json, '--output', path.relative(root, outDir), '--client', 'fetch'],
    { cwd: root },
  );
  await writeFile(path.join(outDir, 'usage.ts'), usage);
  mock = await startMock({ port: 0 });
}, 60_000);

afterAll(async () => {
  await mock?.stop();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('openapi-typescript-codegen (reads OpenAPI 3.0 only) on the 3.0 document', () => {
  it('generates a service per tag and a model per schema, and its client compiles under tsc --strict', async () => {
    const index = await readFile(path.join(outDir, 'index.ts'), 'utf8');
    for (const service of ['MonitorsService', 'MonitorGroupsService', 'AuthenticationService', 'MspService'])
      expect(index).toContain(service);
    expect(index).toContain("export { MonitorStatus } from './models/MonitorStatus';");
    const result = await checkGeneratedCode([path.join(outDir, 'index.ts'), path.join(outDir, 'usage.ts')]);
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.code).toBe(0);
  });

  it('calls the mock with Authorization: Service-oauthtoken <token>, and reads answers and errors', async () => {
    const sent: { url: string; authorization: string | null }[] = [];
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      sent.push({ url: input, authorization: headers.get('Authorization') });
      // The documented 404 (code 1002) for the monitor `1`, as the mock plays it on demand.
      if (input.endsWith('/monitors/1')) headers.set('Prefer', 'code=404');
      return realFetch(input, { ...init, headers });
    });
    try {
      const { listAndCreate } = await import(path.join(outDir, 'usage.ts'));
      const [monitors, group, errorStatus] = await listAndCreate(mock.baseUrl, accessToken);
      expect(validate('MonitorListResponse', monitors)).toEqual([]);
      expect(validate('MonitorGroupCreatedResponse', group)).toEqual([]);
      expect(errorStatus).toBe(404);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(sent.map(({ url }) => new URL(url).pathname)).toEqual(['/api/monitors', '/api/monitor_groups', '/api/monitors/1']);
    for (const { authorization } of sent) expect(authorization).toBe(`Service-oauthtoken ${accessToken}`);
  });
});
