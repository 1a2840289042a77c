// The mock's command line: one process that runs until SIGTERM, Ctrl-C (SIGINT to the job) or SIGHUP, whoever
// started it (the end of the process that started it stops it only with --stop-with-parent, as npm start and npm run
// mock ask), with nothing left behind; --detach and --pid-file for scripts (decision 0019).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { sampleToken } from '../../scripts/lib/sample-requests.js';
import { send } from '../support/http-client.js';
import {
  type Command,
  commandLine,
  compiledBin,
  descendants,
  isRunning,
  signalTree,
  startCommand,
  waitUntil,
} from '../support/processes.js';

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const started: Command[] = [];
const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  const entry = startCommand(command, args, env);
  started.push(entry);
  return entry;
};

/** A file's text, '' while it does not exist. */
const readText = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');

/** The session of a process (its sixth field in /proc/PID/stat). */
const sessionOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[3]);

/** Mocks that no longer belong to a command under test (started in the background): stopped after each test. */
const loose: number[] = [];

afterEach(() => {
  // Whatever a failed test left.
  for (const command of started.splice(0)) signalTree(command.child.pid!, 'SIGKILL');
  for (const pid of loose.splice(0)) signalTree(pid, 'SIGKILL');
});

/** Waits for the banner, checks that the mock answers, and gives its address and every process of the command. */
async function serving(command: Command) {
  const [, baseUrl] = await command.waitFor(/API root \(\{base_url\}\): +(\S+)/);
  const [, pid] = await command.waitFor(/Process: pid (\d+)/);
  const reply = await fetch(`${baseUrl}/monitors`, { headers: { Authorization: sampleToken } });
  expect(reply.status).toBe(200);
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
  return { baseUrl: baseUrl!, pid: Number(pid), tree: [command.child.pid!, ...descendants(command.child.pid!)] };
}

async function expectAllGone(command: Command, pids: number[]) {
  await command.exited;
  expect(await waitUntil(() => pids.every((pid) => !isRunning(pid)), 5_000), `left running: ${pids.filter(isRunning)}`).toBe(true);
}

describe('npm run mock', () => {
  // One run for both facts: each run of npm run mock costs about a second of CPU (npm, tsx and the mock).
  it('runs one process: npm, its shell and the mock, no other; Ctrl-C (SIGINT to every process of the job) stops it', async () => {
    const command = run('npm', ['run', 'mock', '--', '--port', '0']);
    const { pid, tree } = await serving(command);
    expect(tree).toContain(pid);
    // The mock's process starts no other Node process (no second server, no supervisor).
    const nodeChildren = descendants(pid).filter((child) => /\bnode\b/.test(commandLine(child)));
    expect(nodeChildren).toEqual([]);
    signalTree(command.child.pid!, 'SIGINT');
    await expectAllGone(command, tree);
    expect(command.output()).toMatch(/SIGINT: stopping the mock/);
  });

  it('SIGTERM to npm alone: the mock sees its launcher go and stops', async () => {
    const command = run('npm', ['run', 'mock', '--', '--port', '0']);
    const { pid, tree } = await serving(command);
    process.kill(command.child.pid!, 'SIGTERM');
    expect(await waitUntil(() => !isRunning(pid), 10_000), 'the mock process stopped').toBe(true);
    await expectAllGone(command, tree);
  });

  it('options written before "--": exit 2, saying how npm passes them', async () => {
    const command = run('npm', ['run', 'mock', '--port', '4103']);
    expect((await command.exited).code).not.toBe(0);
    expect(command.output()).toMatch(/Unexpected argument "4103"[\s\S]*npm run mock -- --port \.\.\. \(npm took --port as its own\)/);
  });
});

describe('node dist/src/bin.js mock (what npx monitoring-service-api mock runs)', () => {
  it('is one process, and SIGHUP stops it with exit 0', async () => {
    const command = run(process.execPath, [compiledBin, 'mock', '--port', '0']);
    const { pid } = await serving(command);
    expect(pid).toBe(command.child.pid);
    expect(descendants(pid)).toEqual([]);
    process.kill(pid, 'SIGHUP');
    expect((await command.exited).code).toBe(0);
    expect(command.output()).toMatch(/SIGHUP: stopping the mock/);
  });

  it('outlives the process that started it, however that one ends; --stop-with-parent stops with it', async () => {
    const parentOf = (flags: string[]) =>
      run(process.execPath, [
        '-e',
        `const { spawn } = require('node:child_process');
         const child = spawn(process.execPath, [${JSON.stringify(compiledBin)}, 'mock', '--port', '0', ${flags.map((flag) => JSON.stringify(flag)).join(', ')}], { stdio: 'inherit' });
         setInterval(() => {}, 1000);`,
      ]);
    const [plain, watching] = [parentOf([]), parentOf(['--stop-with-parent'])];
    const [left, stopped] = [await serving(plain), await serving(watching)];
    loose.push(left.pid, stopped.pid);
    for (const parent of [plain, watching]) process.kill(parent.child.pid!, 'SIGKILL');
    expect(await waitUntil(() => !isRunning(stopped.pid), 10_000), 'the mock with --stop-with-parent stopped').toBe(true);
    // The other one still answers: only a signal stops it.
    const reply = await fetch(`${left.baseUrl}/monitors`, { headers: { Authorization: sampleToken } });
    expect(reply.status).toBe(200);
    process.kill(left.pid, 'SIGTERM');
    expect(await waitUntil(() => !isRunning(left.pid), 10_000), 'SIGTERM stopped it').toBe(true);
  });

  it('started in the background by a shell that then exits (a CI step), it answers a later process', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'mock-cli-'));
    const [plainLog, watchingLog] = [path.join(folder, 'plain.log'), path.join(folder, 'watching.log')];
    const mock = `${JSON.stringify(process.execPath)} ${JSON.stringify(compiledBin)} mock --port 0`;
    // Beside it, the same mock with --stop-with-parent: once that one has seen the shell go, the other has had the
    // same chance, and must still be there. The shell waits for both to answer (their banners), as a CI step would.
    const step = run('bash', [
      '-c',
      `${mock} > ${plainLog} 2>&1 & ${mock} --stop-with-parent > ${watchingLog} 2>&1 &
       until grep -q 'Process: pid' ${plainLog} && grep -q 'Process: pid' ${watchingLog}; do sleep 0.1; done`,
    ]);
    expect((await step.exited).code).toBe(0);
    const started = (log: string) => /Process: pid (\d+)/.exec(readText(log));
    expect(await waitUntil(() => started(plainLog) !== null && started(watchingLog) !== null, 30_000)).toBe(true);
    const [plain, watching] = [plainLog, watchingLog].map((log) => Number(started(log)![1]));
    loose.push(plain!, watching!);
    expect(await waitUntil(() => !isRunning(watching!), 10_000), readText(watchingLog)).toBe(true);
    expect(readText(watchingLog)).toMatch(/The process that started the mock has gone: stopping\./);
    const [, baseUrl] = /API root \(\{base_url\}\): +(\S+)/.exec(readText(plainLog))!;
    expect((await fetch(`${baseUrl}/monitors`, { headers: { Authorization: sampleToken } })).status).toBe(200);
    process.kill(plain!, 'SIGTERM');
    expect(await waitUntil(() => !isRunning(plain!), 10_000)).toBe(true);
    expect(readText(plainLog)).toMatch(/SIGTERM: stopping the mock/);
  });
});

describe('mock --detach and --pid-file (node dist/src/bin.js)', () => {
  it('returns once the mock answers, its output closed, the pid in the file; kill stops it and removes the file', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'mock-detach-'));
    const [pidFile, logFile] = [path.join(folder, 'mock.pid'), path.join(folder, 'mock.log')];
    const command = run(process.execPath, [compiledBin, 'mock', '--port', '0', '--detach', '--pid-file', pidFile, '--log-file', logFile]);
    // `closed`: its stdout and stderr are closed too, so a CI step (or $(...)) that runs it ends with it.
    await command.closed;
    expect((await command.exited).code).toBe(0);
    const [, baseUrl] = /API root \(\{base_url\}\): +(\S+)/.exec(command.output())!;
    const pid = Number(readText(pidFile).trim());
    loose.push(pid);
    expect(command.output()).toContain(`Process: pid ${pid}`);
    expect(command.output()).toContain(`It runs in the background: stop it with kill "$(cat ${pidFile})".`);
    // Answering already: no wait, no polling.
    const reply = await fetch(`${baseUrl}/monitors`, { headers: { Authorization: sampleToken } });
    expect(reply.status).toBe(200);
    // A session of its own: a Ctrl-C or a hang-up of the terminal that started it does not reach it.
    expect(sessionOf(pid)).toBe(pid);
    process.kill(pid, 'SIGTERM');
    expect(await waitUntil(() => !isRunning(pid), 10_000), 'SIGTERM stopped it').toBe(true);
    expect(existsSync(pidFile)).toBe(false);
    expect(readText(logFile)).toMatch(/is listening[\s\S]*SIGTERM: stopping the mock\.\n$/);
  });

  it('a mock that cannot start: the command says why with its exit status, and nothing is left running', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const pidFile = path.join(mkdtempSync(path.join(tmpdir(), 'mock-detach-')), 'mock.pid');
    try {
      const busy = run(process.execPath, [compiledBin, 'mock', '--port', String(port), '--detach', '--pid-file', pidFile]);
      const badToken = run(process.execPath, [compiledBin, 'mock', '--port', '0', '--detach'], { MOCK_TEST_API_TOKEN: 'short' });
      expect((await busy.exited).code).toBe(1);
      expect(busy.output()).toMatch(new RegExp(`^Port ${port} on 127\\.0\\.0\\.1 is in use`));
      expect((await badToken.exited).code).toBe(2);
      expect(badToken.output()).toMatch(/^MOCK_TEST_API_TOKEN must be 16 to 512 printable ASCII characters/);
      expect(existsSync(pidFile)).toBe(false);
      for (const command of [busy, badToken]) expect(descendants(command.child.pid!)).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('options that do not go together: exit 2 naming them, before anything starts', async () => {
    const cases: [string[], RegExp][] = [
      [['--log-file', 'mock.log'], /--log-file goes with --detach/],
      [['--detach', '--stop-with-parent'], /--detach and --stop-with-parent: a detached server outlives the command that starts it/],
      [['--pid-file', path.join(tmpdir(), 'no-such-folder', 'mock.pid')], /--pid-file \S+: cannot write it/],
    ];
    for (const [args, message] of cases) {
      const command = run(process.execPath, [compiledBin, 'mock', '--port', '0', ...args]);
      expect((await command.exited).code, args.join(' ')).toBe(2);
      expect(command.output()).toMatch(message);
      expect(command.output()).not.toMatch(/is listening/);
    }
  });

  it('--help says how the mock runs and how a script starts and stops it', async () => {
    const command = run(process.execPath, [compiledBin, 'mock', '--help']);
    await command.closed;
    const help = command.output();
    expect(help).toContain('It runs until SIGINT (Ctrl-C), SIGTERM or SIGHUP, whoever started it.');
    for (const flag of ['--detach', '--pid-file FILE', '--log-file FILE', '--stop-with-parent'])
      expect(help).toMatch(new RegExp(`^  ${flag} `, 'm'));
    expect(help).toContain('monitoring-service-api mock --port 4010 --detach --pid-file mock.pid\n  kill "$(cat mock.pid)"');
  });
});

describe('tsx src/bin.ts mock (what npm run mock runs, without npm)', () => {
  it('SIGTERM: stops and exits 0', async () => {
    const command = run(tsx, ['src/bin.ts', 'mock', '--port', '0']);
    const { tree } = await serving(command);
    process.kill(command.child.pid!, 'SIGTERM');
    await expectAllGone(command, tree);
    expect((await command.exited).code).toBe(0);
  });
});

describe('the mock command: options, logging, the simulator (node dist/src/bin.js)', () => {
  it('--log prints one line per request', async () => {
    const command = run(process.execPath, [compiledBin, 'mock', '--port', '0', '--log']);
    const { baseUrl } = await serving(command); // its GET /api/monitors is the first request
    await fetch(`${baseUrl}/monitors/12ab`, { headers: { Authorization: sampleToken } });
    signalTree(command.child.pid!, 'SIGTERM');
    await command.closed; // every line it printed is read
    const lines = command
      .output()
      .split('\n')
      .filter((line) => line.includes(' → '));
    expect(lines).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/monitors → 200$/),
      expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/monitors\/12ab → 400$/),
    ]);
  });

  it('a malformed or unknown option: exit 2 with the usage', async () => {
    const command = run(process.execPath, [compiledBin, 'mock', '--port', 'abc']);
    expect((await command.exited).code).toBe(2);
    expect(command.output()).toMatch(/--port must be a number[\s\S]*Usage: monitoring-service-api mock/);
    const unknown = run(process.execPath, [compiledBin, 'mock', '--nope']);
    expect((await unknown.exited).code).toBe(2);
    expect(unknown.output()).toMatch(/Unknown option '--nope'/);
  });

  it('--help on the command and on each subcommand: exit 0', async () => {
    for (const args of [['--help'], ['mock', '--help'], ['proxy', '--help'], ['help', 'proxy']]) {
      const command = run(process.execPath, [compiledBin, ...args]);
      expect((await command.exited).code, args.join(' ')).toBe(0);
      expect(command.output()).toMatch(/Usage: monitoring-service-api/);
    }
  });

  it('a busy port: exit 1 saying so', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const command = run(process.execPath, [compiledBin, 'mock', '--port', String(port)]);
      expect((await command.exited).code).toBe(1);
      expect(command.output()).toMatch(
        new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is in use: give another --port \\(--port 0 takes a free one\\)\\.`),
      );
    } finally {
      blocker.close();
    }
  });

  it('simulates by default: the test API answers, and the banner says so; it prints the address of the docs page it serves', async () => {
    const command = run(process.execPath, [
      compiledBin,
      'mock',
      '--port',
      '0',
      '--strict-tokens',
      '--fault-rate',
      '0',
      '--latency-ms',
      '0-1',
      '--fault-seed',
      '9',
    ]);
    const [, baseUrl] = await command.waitFor(/API root \(\{base_url\}\): +(\S+)/);
    await command.waitFor(/Process: pid/);
    // The banner names every endpoint of the test API, the journal and PUT /__mock/state among them.
    expect(command.output()).toMatch(/Test API, at http:\/\/127\.0\.0\.1:\d+:\n( {4}.*\n)+/);
    for (const endpoint of [
      'GET, PUT /__mock/state',
      'GET, DELETE /__mock/requests',
      'GET /__mock/requests/{id}',
      'POST /__mock/faults',
      'GET, POST /__mock/worlds',
      'GET, DELETE /__mock/worlds/{id}',
    ])
      expect(command.output()).toContain(endpoint);
    expect(command.output()).toContain(
      'Worlds, each its own state, made on first use: /worlds/{id}/api ({base_url}), /worlds/{id} ({auth_url}).',
    );
    const [, docsUrl] = command.output().match(/API docs, with a console that sends to this mock: (\S+)/) ?? [];
    expect(docsUrl).toBe(baseUrl!.replace(/\/api$/, '/docs/'));
    const docs = await fetch(docsUrl!);
    expect([docs.status, docs.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(command.output()).toMatch(/Strict tokens: only tokens the mock issued are accepted/);
    expect(command.output()).toMatch(/Random faults: rate 0 \(500, 503\), latency 0-1 ms, seed 9/);
    const state = await (await fetch(`${baseUrl!.replace(/\/api$/, '')}/__mock/state`)).json();
    expect(state).toMatchObject({ strict_tokens: true, random_faults: { seed: 9, rate: 0, latency_ms: [0, 1] } });
    const refused = await fetch(`${baseUrl}/monitors`, { headers: { Authorization: sampleToken } });
    expect(refused.status).toBe(401);
  });

  it('--host beyond loopback: a warning line, the test API only with the token of MOCK_TEST_API_TOKEN, --allow-host and --allow-origin', async () => {
    const command = run(
      process.execPath,
      [compiledBin, 'mock', '--port', '0', '--host', '0.0.0.0', '--allow-host', 'mock', '--allow-origin', 'https://app.example.com'],
      { MOCK_TEST_API_TOKEN: 'cli-token-0123456789' },
    );
    const [, baseUrl] = await command.waitFor(/API root \(\{base_url\}\): +(\S+)/);
    await command.waitFor(/Warning: the mock listens on 0\.0\.0\.0, beyond this machine/);
    const origin = baseUrl!.replace('0.0.0.0', '127.0.0.1').replace(/\/api$/, '');
    const state = `${origin}/__mock/state`;
    expect((await fetch(state)).status).toBe(401);
    expect((await fetch(state, { headers: { Authorization: 'Bearer cli-token-0123456789' } })).status).toBe(200);
    const api = (headers: Record<string, string>) => send(origin, '/api/monitors', { headers: { Authorization: sampleToken, ...headers } });
    expect((await api({ Host: 'mock' })).status).toBe(200);
    expect((await api({ Host: 'other' })).status).toBe(421);
    expect((await api({ Origin: 'https://app.example.com' })).headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect((await api({ Origin: 'https://other.example.com' })).status).toBe(403);
  });

  it('--allow-origin and --allow-host: a value that is not an origin or a host name is exit 2 naming the flag', async () => {
    const origin = run(process.execPath, [compiledBin, 'mock', '--port', '0', '--allow-origin', 'https://app.example.com/app']);
    const host = run(process.execPath, [compiledBin, 'mock', '--port', '0', '--allow-host', 'http://mock:4010']);
    expect((await origin.exited).code).toBe(2);
    expect(origin.output()).toMatch(/--allow-origin: "https:\/\/app\.example\.com\/app" is not an origin/);
    expect((await host.exited).code).toBe(2);
    expect(host.output()).toMatch(/--allow-host: "http:\/\/mock:4010" is not a host name or address/);
  });

  it('the test API token: never an option (a process list shows those), and long enough not to be guessed', async () => {
    const option = run(process.execPath, [compiledBin, 'mock', '--port', '0', '--test-api-token', 'cli-token-0123456789']);
    const short = run(process.execPath, [compiledBin, 'mock', '--port', '0'], { MOCK_TEST_API_TOKEN: 'short' });
    expect((await option.exited).code).toBe(2);
    expect(option.output()).toMatch(/--test-api-token is not taken: a process list would show it\. Set MOCK_TEST_API_TOKEN/);
    expect((await short.exited).code).toBe(2);
    expect(short.output()).toMatch(/MOCK_TEST_API_TOKEN must be 16 to 512 printable ASCII characters without spaces/);
    for (const command of [option, short]) expect(command.output()).not.toMatch(/is listening/);
  });

  it('--seed with a wrong file: exit 2 naming the file, the pointer and the fault, and nothing listens', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'seed-')), 'accounts.json');
    writeFileSync(file, JSON.stringify({ business_units: [{ name: 'No zaaid' }] }));
    const command = run(process.execPath, [compiledBin, 'mock', '--port', '0', '--seed', file]);
    expect((await command.exited).code).toBe(2);
    expect(command.output()).toContain(
      `The seed file ${file} is not valid, so the mock did not start:\n  /business_units/0: must have the attribute "zaaid"`,
    );
    expect(command.output()).not.toMatch(/is listening/);
  });

  it('--examples with an option of the simulator: exit 2 saying which', async () => {
    const command = run(process.execPath, [compiledBin, 'mock', '--examples', '--strict-tokens', '--max-worlds', '4']);
    expect((await command.exited).code).toBe(2);
    expect(command.output()).toMatch(/--strict-tokens, --max-worlds: options of the simulator, which --examples turns off/);
  });
});
