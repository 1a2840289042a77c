// Type-checking a small strict consumer of the types and the client, from a cold start.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bin, root } from '../paths.js';
import { type BenchSection, ms, since } from './section.js';

const consumer = `import { createServiceClient, type Monitor } from '../../../dist/src/index.js';
import type { components } from '../../../dist/generated/types.js';

type DeviceKey = components['schemas']['DeviceKey'];
export async function run(): Promise<[DeviceKey, Monitor[]]> {
  const client = createServiceClient({ dataCenter: 'eu', auth: { accessToken: 'x' } });
  return [await client.GET('/device_key'), await client.GET('/monitors')];
}
`;

export const consumerTypecheck: BenchSection = {
  part: 'types',
  title: 'tsc of a consumer',
  async run({ row }) {
    const dir = path.join(root, 'node_modules', '.cache', 'bench-consumer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'consumer.ts'), consumer);
    const tsconfig = {
      extends: '../../../tsconfig.json',
      include: [],
      files: ['consumer.ts'],
      compilerOptions: { noEmit: true, incremental: false },
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const started = performance.now();
    const code = await new Promise<number>((resolve) => {
      const child = spawn(bin('tsc'), ['-p', path.join(dir, 'tsconfig.json'), '--noEmit'], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.on('exit', (exitCode) => resolve(exitCode ?? 1));
    });
    row(
      'tsc --noEmit of a small consumer',
      ms(since(started)),
      '',
      code === 0 ? 'strict; the compiled declarations of dist/; whole program from a cold start' : `tsc failed (exit ${code})`,
    );
  },
};
