// npm start: build everything that changed, then serve the mock on 127.0.0.1:4010 (or --port / --host; the
// options of scripts/mock.ts). Stops on Ctrl-C, SIGTERM or SIGHUP, leaving no process behind.
import path from 'node:path';
import { build } from './build.js';
import { mockBanner, parseMockArgs, serveUntilSignal, type MockCliOptions } from './mock.js';
import { startMock } from './lib/mock-server.js';
import { outputs, root } from './lib/paths.js';

let options: MockCliOptions;
try {
  options = parseMockArgs(process.argv.slice(2));
} catch (error) {
  const exitCode = (error as { exitCode?: number }).exitCode ?? 2;
  (exitCode === 0 ? console.log : console.error)((error as Error).message.replaceAll('npm run mock --', 'npm start --'));
  process.exit(exitCode);
}

try {
  console.log('Building generated/ from openapi/ ...');
  await build({ log: (line) => console.log(`  ${line}`) });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
await serveUntilSignal(
  () => startMock(options),
  (mock) => `${mockBanner(mock)}\nAPI docs (one self-contained page, works offline): ${path.relative(root, outputs().docs)}`,
).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
