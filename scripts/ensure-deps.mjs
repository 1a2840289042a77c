// Installs what the project needs before `npm start` / `npm test`, so that a fresh clone works with one command.
// Plain JavaScript: it runs before the TypeScript tooling is installed.
//   node scripts/ensure-deps.mjs            npm packages, when node_modules does not hold what package-lock.json lists
//   node scripts/ensure-deps.mjs --browser  also Debian's chromium, for the browser test of the docs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Whether node_modules holds every package of package-lock.json at its version, as npm's own record of the
 * installed tree (node_modules/.package-lock.json, written by `npm install` and `npm ci` alike) says. Optional
 * packages for other platforms are never installed, and are not missed.
 */
function installed() {
  const record = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(record)) return false;
  const wanted = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const present = JSON.parse(readFileSync(record, 'utf8')).packages ?? {};
  return Object.entries(wanted).every(([where, entry]) => {
    if (where === '') return true;
    const found = present[where];
    if (!found) return Boolean(entry.optional || entry.devOptional);
    return entry.version === undefined || found.version === entry.version;
  });
}

if (!installed()) {
  console.log('Installing npm packages (npm ci) ...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (process.argv.includes('--browser') && !existsSync(chromiumPath)) {
  if (process.getuid?.() !== 0) {
    console.error(
      `The docs browser test needs Chromium at ${chromiumPath}: install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  console.log("Installing Debian's chromium for the docs browser test ...");
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
