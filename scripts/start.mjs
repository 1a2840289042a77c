// npm start: builds what changed (generated/ and dist/), then serves the mock from dist/ in this process, on
// 127.0.0.1:4010 or with the options of `monitoring-service-api mock` (--port, --host, --detach, ...). Stops on
// Ctrl-C, SIGTERM or SIGHUP, and when npm has gone (--stop-with-parent: npm stopped by SIGTERM leaves its children),
// leaving no process behind; with --detach it runs in the background until signalled. Plain JavaScript, so that the
// mock runs as users run it: one Node process, no TypeScript loader.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
if (!args.includes('--help') && !args.includes('-h')) {
  console.log('Building generated/ and dist/ ...');
  const build = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const { fail, runMock } = await import('../dist/src/cli/index.js');
const watch = args.includes('--detach') ? [] : ['--stop-with-parent'];
await runMock(
  [...watch, ...args],
  `API docs (one self-contained page, works offline): ${path.join('generated', 'docs', 'index.html')}`,
).catch(fail);
