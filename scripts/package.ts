// npm run package: builds everything (generated/ and dist/), then packs the package (`npm pack`) into the
// repository's root: the tarball that the README's Install section installs.
import { execFileSync } from 'node:child_process';
import { runScript, type ScriptLine } from '../src/cli/args.js';
import { build } from './build.js';
import { root } from './lib/paths.js';

export const packageLine = {
  usage: `Usage: npm run package
Builds generated/ and dist/ (what changed), then writes monitoring-service-api-<version>.tgz here with npm pack.
  -h, --help   this help.`,
  options: {},
} satisfies ScriptLine;

runScript(packageLine, import.meta.url, async () => {
  await build({ log: (line) => console.log(line) });
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', root], { cwd: root, encoding: 'utf8' })) as {
    filename: string;
    size: number;
    unpackedSize: number;
  }[];
  console.log(
    `Packed ${packed!.filename} (${(packed!.size / 1024 / 1024).toFixed(1)} MB, ${(packed!.unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked).`,
  );
});
