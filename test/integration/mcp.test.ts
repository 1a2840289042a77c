// The MCP server over stdio, driven by the MCP SDK's own client as an assistant would: its tools are the
// description's resource operations; calls go through the package's client to the mock (or a local service that
// answers what the mock does not play: an unknown monitor, a customer's account); writes need --allow-writes;
// constants are looked up without a call; no secret reaches anything it sends or prints; a bad configuration exits 2.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { startFaultServer, type FaultServer } from '../support/fault-server.js';
import { loadBundle, operationsOf } from '../support/bundle.js';

const secret = '1000.mcp-access-token-keep-private';
const command = [process.execPath, ['--import', 'tsx', 'src/bin.ts', 'mcp']] as const;

let mock: RunningMock;
let service: FaultServer;
beforeAll(async () => {
  [mock, service] = await Promise.all([
    startMock(),
    startFaultServer((request) => {
      if (request.path === '/api/monitors/1') return { status: 404, json: { code: 1002, message: 'Monitor does not exist.' } };
      if (request.path === '/api/monitors') {
        return {
          status: 200,
          json: {
            code: 0,
            message: 'success',
            data: [{ monitor_id: '700', seen_with: request.headers.cookie ?? 'no cookie', echoed: request.headers.authorization }],
          },
        };
      }
      return { status: 404, json: { code: 404, message: 'URL Not found' } };
    }),
  ]);
});
afterAll(() => Promise.all([mock?.stop(), service?.stop()]));

/** An assistant's session with the server: connected over stdio, its stderr kept. */
async function session(baseUrl: string, extra: string[] = []) {
  const transport = new StdioClientTransport({
    command: command[0],
    args: [...command[1], '--base-url', baseUrl, ...extra],
    cwd: root,
    env: { ...process.env, ACCESS_TOKEN: secret },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
    return { isError: result.isError === true, text: result.content.map((part) => part.text).join('\n') };
  };
  return { client, call, stderr: () => stderr, close: () => client.close() };
}

describe('the MCP server (stdio)', () => {
  it('lists one tool per resource operation (read-only: no write), and the constants lookup', async () => {
    const { client, close } = await session(mock.baseUrl);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      const reads = operationsOf(loadBundle())
        .filter(({ path, method }) => !path.startsWith('/oauth/') && method === 'get')
        .map(({ operation }) => String(operation.operationId));
      expect(names.sort()).toEqual([...reads, 'lookupConstant'].sort());
    } finally {
      await close();
    }
  });

  it('lists and gets through the mock; an unknown monitor is a tool error with 1002; acts on a customer with zaaid', async () => {
    const onMock = await session(mock.baseUrl);
    const onService = await session(`${service.origin}/api`);
    try {
      const monitors = await onMock.call('listMonitors');
      expect(monitors.isError).toBe(false);
      expect(JSON.parse(monitors.text)[0]).toHaveProperty('monitor_id');
      const monitor = await onMock.call('getMonitor', { monitor_id: '169863000000025001' });
      expect(JSON.parse(monitor.text)).toHaveProperty('monitor_id');
      expect(await onService.call('getMonitor', { monitor_id: '1' })).toEqual({ isError: true, text: '404 1002 Monitor does not exist.' });
      const customer = await onService.call('listMonitors', { zaaid: '700000123' });
      expect(JSON.parse(customer.text)[0].seen_with).toBe('zaaid=700000123');
      // The service echoed the token: the server does not pass it on.
      expect(customer.text).not.toContain(secret);
      expect(customer.text).toContain('[redacted]');
    } finally {
      await Promise.all([onMock.close(), onService.close()]);
    }
  });

  it('refuses a write unless --allow-writes, and does it with it', async () => {
    const readOnly = await session(mock.baseUrl);
    const writing = await session(mock.baseUrl, ['--allow-writes']);
    try {
      const refused = await readOnly.call('createMonitorGroup', { body: { display_name: 'Payments' } });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/read-only: start it with --allow-writes/);
      expect((await writing.client.listTools()).tools.map((tool) => tool.name)).toContain('createMonitorGroup');
      const done = await writing.call('createMonitorGroup', { body: { display_name: 'Payments' } });
      expect(done.isError).toBe(false);
    } finally {
      await Promise.all([readOnly.close(), writing.close()]);
    }
  });

  it('looks up constants and reads guides and enumerations as resources, without a call', async () => {
    const { client, call, stderr, close } = await session(mock.baseUrl);
    try {
      const status = JSON.parse((await call('lookupConstant', { enumeration: 'MonitorStatus', value: 10 })).text);
      expect(status).toEqual([expect.objectContaining({ enumeration: 'MonitorStatus', value: 10, meaning: 'Configuration Error' })]);
      const period = JSON.parse((await call('lookupConstant', { enumeration: 'Period', value: 7 })).text)[0];
      expect(Object.keys(period.facts)).toContain('supported-granularities');
      const uris = (await client.listResources()).resources.map((resource) => resource.uri);
      expect(uris).toEqual(expect.arrayContaining(['constants://MonitorStatus', 'guide://data-centers', 'guide://limits']));
      const guide = await client.readResource({ uri: 'guide://data-centers' });
      expect((guide.contents[0] as { text: string }).text).toMatch(/^## Data centers/);
      expect(stderr()).not.toContain(secret);
    } finally {
      await close();
    }
  });
});

describe('a bad configuration exits 2 before serving', () => {
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(command[0], [...command[1], ...args], {
        cwd: root,
        env: { ...process.env, REFRESH_TOKEN: '', CLIENT_ID: '', CLIENT_SECRET: '', ACCESS_TOKEN: '', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('close', (code) => resolve({ code, output }));
    });

  it('no credentials, a placeholder host, plain http to another machine', async () => {
    const [none, placeholder, plain] = await Promise.all([
      run(['--base-url', mock.baseUrl], {}),
      run(['--data-center', 'eu'], { ACCESS_TOKEN: secret }),
      run(['--base-url', 'http://api.example.com/api'], { ACCESS_TOKEN: secret }),
    ]);
    expect(none).toMatchObject({ code: 2, output: expect.stringMatching(/mcp needs credentials from the environment/) });
    expect(placeholder).toMatchObject({ code: 2, output: expect.stringMatching(/placeholder host of the description/) });
    expect(plain).toMatchObject({ code: 2, output: expect.stringMatching(/--base-url http:\/\/api\.example\.com is plain http/) });
    for (const result of [none, placeholder, plain]) expect(result.output).not.toContain(secret);
  });
});
