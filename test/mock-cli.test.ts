// `npm run mock`: one command, stopped by SIGTERM or Ctrl-C (SIGINT to the job), with no process left behind.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { root } from '../scripts/lib/paths.js';
import { sampleToken } from '../scripts/lib/sample-requests.js';
import { descendants, isRunning, startCommand, waitUntil, type Command } from './support/processes.js';

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const started: Command[] = [];
const run = (command: string, args: string[]) => {
  const started_ = startCommand(command, args);
  started.push(started_);
  return started_;
};

afterEach(async () => {
  // Whatever a failed test left: its whole process group.
  for (const command of started.splice(0)) {
    try {
      process.kill(-command.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function serving(command: Command) {
  const [, baseUrl] = await command.waitFor(/API root \(\{base_url\}\): +(\S+)/);
  const [, mockPid, prismPid] = await command.waitFor(/Processes: mock pid (\d+), Prism pid (\d+)/);
  const reply = await fetch(`${baseUrl}/monitors`, { headers: { Authorization: sampleToken } });
  expect(reply.status).toBe(200);
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
  return { baseUrl: baseUrl!, mock: Number(mockPid), prism: Number(prismPid), tree: descendants(command.child.pid!) };
}

async function expectAllGone(command: Command, pids: number[]) {
  const exit = await Promise.race([command.exited, new Promise<undefined>((resolve) => setTimeout(resolve, 10_000))]);
  expect(exit, command.output()).toBeDefined();
  expect(await waitUntil(() => pids.every((pid) => !isRunning(pid)), 5_000), `left running: ${pids.filter(isRunning)}`).toBe(true);
}

describe('npm run mock', () => {
  it('SIGTERM to npm stops the mock and Prism: no orphan process', async () => {
    const command = run('npm', ['run', 'mock', '--', '--port', '0']);
    const { prism, tree } = await serving(command);
    expect(tree).toContain(prism);
    process.kill(command.child.pid!, 'SIGTERM');
    await expectAllGone(command, tree);
    expect(isRunning(prism)).toBe(false);
  });

  it('Ctrl-C (SIGINT to the job) stops it the same way', async () => {
    const command = run('npm', ['run', 'mock', '--', '--port', '0']);
    const { prism, tree } = await serving(command);
    process.kill(-command.child.pid!, 'SIGINT');
    await expectAllGone(command, tree);
    expect(command.output()).toMatch(/SIGINT: stopping the mock/);
    expect(isRunning(prism)).toBe(false);
  });
});

describe('tsx scripts/mock.ts', () => {
  it('SIGTERM: stops Prism and exits 0', async () => {
    const command = run(tsx, ['scripts/mock.ts', '--port', '0']);
    const { prism, tree } = await serving(command);
    process.kill(command.child.pid!, 'SIGTERM');
    await expectAllGone(command, tree);
    expect((await command.exited).code).toBe(0);
    expect(isRunning(prism)).toBe(false);
  });

  it('SIGKILL of the mock process: Prism stops by itself', async () => {
    const command = run(tsx, ['scripts/mock.ts', '--port', '0']);
    const { mock, prism } = await serving(command);
    process.kill(mock, 'SIGKILL');
    expect(await waitUntil(() => !isRunning(prism), 10_000)).toBe(true);
  });

  it('a malformed option: exit 2 with the usage', async () => {
    const command = run(tsx, ['scripts/mock.ts', '--port', 'abc']);
    expect((await command.exited).code).toBe(2);
    expect(command.output()).toMatch(/--port must be a number[\s\S]*Usage: npm run mock/);
    const unknown = run(tsx, ['scripts/mock.ts', '--nope']);
    expect((await unknown.exited).code).toBe(2);
    expect(unknown.output()).toMatch(/Unknown option '--nope'/);
  });

  it('a busy port: exit 1 saying so, and no Prism started', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const command = run(tsx, ['scripts/mock.ts', '--port', String(port)]);
      expect((await command.exited).code).toBe(1);
      expect(command.output()).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is in use`));
      expect(command.output()).not.toMatch(/Prism pid/);
    } finally {
      blocker.close();
    }
  });
});
