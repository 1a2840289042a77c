// The MCP server's rows of `npm run bench`: what its tool list costs an assistant's context (on every turn), and how
// soon a freshly started server answers its first tools/list, over stdio and over Streamable HTTP, each from dist/ in
// a fresh process, beside a Node process that does nothing. Listing tools calls no service: the address given is a
// closed port of this machine.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { median } from './bench/load.js';
import { distFile, root } from './paths.js';

export interface BenchRow {
  measure: string;
  figure: string;
  anchor: string;
  notes: string;
}

const distBin = distFile('bin.js');
const httpToken = 'bench-http-token-0123456789abcdef';
const env = { ...process.env, ACCESS_TOKEN: 'bench-access-token', MCP_HTTP_TOKEN: httpToken };
const command = ['mcp', '--base-url', 'http://127.0.0.1:9/api'];
const rounds = 3;

type ToolList = Awaited<ReturnType<Client['listTools']>>;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
/** A common estimate for English and JSON: about four bytes a token. */
const sizeText = (bytes: number) => `${bytes.toLocaleString('en')} bytes, ~${Math.round(bytes / 4).toLocaleString('en')} tokens`;

/** Spawn to first tools/list answer over stdio, and the list. */
async function stdioFirstList(extra: string[] = []): Promise<{ ms: number; list: ToolList }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [distBin, ...command, ...extra],
    cwd: root,
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const list = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  return { ms, list };
}

/** Spawn to first tools/list answer over Streamable HTTP (the server's start line, a session, the list). */
async function httpFirstList(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [distBin, ...command, '--http', '--port', '0'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const found = output.match(/at (http:\/\/\S+\/mcp)/);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) => reject(new Error(`mcp --http exited ${code} before serving: ${output}`)));
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${httpToken}` } },
    });
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(transport);
    await client.listTools();
    const ms = performance.now() - started;
    await transport.terminateSession();
    await client.close();
    return ms;
  } finally {
    child.kill('SIGTERM');
  }
}

/** Spawn to exit of a Node process that does nothing: what any command pays before its own work. */
function bareNode(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - started));
  });
}

export async function mcpRows(): Promise<BenchRow[]> {
  const stdio: number[] = [];
  const http: number[] = [];
  const bare: number[] = [];
  let readOnly: ToolList | undefined;
  for (let round = 0; round < rounds; round++) {
    const first = await stdioFirstList();
    stdio.push(first.ms);
    readOnly = first.list;
    http.push(await httpFirstList());
    bare.push(await bareNode());
  }
  const { list: all } = await stdioFirstList(['--allow-writes']);
  const withoutOutput = (list: ToolList) => ({ tools: list.tools.map(({ outputSchema: _, ...tool }) => tool) });
  const listRow = (measure: string, list: ToolList): BenchRow => ({
    measure,
    figure: sizeText(bytesOf(list)),
    anchor: `without output schemas: ${sizeText(bytesOf(withoutOutput(list)))}`,
    notes: `${list.tools.length} tools; the JSON of the tools/list result; tokens estimated as bytes / 4`,
  });
  const node = `node -e '': ${median(bare).toFixed(0)} ms`;
  return [
    listRow('MCP tool list, read-only (default)', readOnly!),
    listRow('MCP tool list, --allow-writes', all),
    {
      measure: 'mcp start to first tools/list, stdio',
      figure: `${median(stdio).toFixed(0)} ms`,
      anchor: node,
      notes: `median of ${rounds}, fresh process from dist/`,
    },
    {
      measure: 'mcp --http start to first tools/list',
      figure: `${median(http).toFixed(0)} ms`,
      anchor: node,
      notes: `median of ${rounds}: start line, session, list`,
    },
  ];
}
