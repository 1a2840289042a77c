// npm start: build everything that changed, then serve the mock on 127.0.0.1:4010 (or --port / --host).
import { parseArgs } from 'node:util';
import path from 'node:path';
import { build } from './build.js';
import { mockBanner, serveUntilSignal } from './mock.js';
import { startMock } from './lib/mock-server.js';
import { outputs, root } from './lib/paths.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4010' }, host: { type: 'string', default: '127.0.0.1' } } });

try {
  console.log('Building generated/ from openapi/ ...');
  await build({ log: (line) => console.log(`  ${line}`) });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
await serveUntilSignal(
  () => startMock({ port: Number(values.port), host: values.host }),
  (mock) => `${mockBanner(mock)}\nAPI docs (one self-contained page, works offline): ${path.relative(root, outputs().docs)}`,
);
