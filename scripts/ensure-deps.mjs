// Installs what the project needs before `npm start` / `npm test`, so that a fresh clone works with one command.
// Plain JavaScript: it runs before the TypeScript tooling is installed.
//   node scripts/ensure-deps.mjs            npm packages, when package-lock.json changed since the last install
//   node scripts/ensure-deps.mjs --browser  also Debian's chromium, for the browser test of the docs
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'node_modules', '.cache', 'deps-stamp');
const lockHash = createHash('sha256').update(readFileSync(path.join(root, 'package-lock.json'))).digest('hex');

if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lockHash) {
  console.log('Installing npm packages (npm ci) ...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, lockHash);
}

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (process.argv.includes('--browser') && !existsSync(chromiumPath)) {
  if (process.getuid?.() !== 0) {
    console.error(`The docs browser test needs Chromium at ${chromiumPath}: install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log("Installing Debian's chromium for the docs browser test ...");
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}
