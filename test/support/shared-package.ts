// The package packed once per run of the e2e tier, installed alone once, and installed once as the README's Install
// section says with the tools the guides use: several test files need each (some 3.5 s of CPU for the pack, 15 s for
// the full install). Test files run in processes of their own: the first to ask makes them in the run's folder
// (e2e-setup.ts), the others wait for its record of each, a file written when the work is done.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { root } from '../../scripts/lib/paths.js';
import { cleanEnv, createProject, execOk, npmInstall } from './consumer-project.js';
import { sectionBlocks } from './guide-blocks.js';
import { waitUntil } from './processes.js';

export interface SharedPackage {
  /** The tarball of `npm pack`. */
  tarball: Promise<string>;
  /**
   * A fresh project with the tarball installed and nothing else: what a user of the client, the types and the
   * constants installs. Read it, or copy it to write in it (other files read it meanwhile).
   */
  clientOnly: Promise<string>;
  /**
   * A user's project made by the README's Install commands, word for word, in a folder beside the clone that holds
   * the tarball (the README's layout), with the tools the guides' examples use: TypeScript 5.9, vitest, MSW,
   * openapi-msw, Node's types. Files share it: each writes only files of names its own (or a folder of its own).
   */
  full: Promise<{ project: string; tarball: string }>;
}

let shared: SharedPackage | undefined;

export function sharedPackage(): SharedPackage {
  if (shared) return shared;
  const folder = inject('e2eShared');
  if (!folder) throw new Error("sharedPackage() needs the folder of the run: the e2e project's globalSetup, test/support/e2e-setup.ts");
  const recordOf = (name: string) => path.join(folder, `${name}.json`);
  /** Publishes the outcome of the work as its record, for every file of the run. */
  const record = (name: string, work: Promise<string>) => {
    work.then(
      (value) => publish(recordOf(name), { value }),
      (error: Error) => publish(recordOf(name), { error: error.message }),
    );
    return work;
  };
  if (claimed(path.join(folder, 'maker'))) {
    const tarball = record(
      'tarball',
      execOk('npm', ['pack', '--json', '--pack-destination', folder], { cwd: root, env: cleanEnv() }).then((packed) =>
        path.join(folder, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename),
      ),
    );
    // A failed pack fails the install too, which says why.
    record(
      'client-only',
      tarball.then(async (file) => {
        const project = createProject(path.join(folder, 'client-only'));
        await npmInstall(project, [file]);
        return project;
      }),
    );
    record(
      'full',
      tarball.then(async (file) => {
        const project = await fullProject(folder, file);
        return JSON.stringify(project);
      }),
    );
  }
  shared = {
    tarball: awaitRecord(recordOf('tarball')),
    clientOnly: awaitRecord(recordOf('client-only')),
    full: awaitRecord(recordOf('full')).then((value) => JSON.parse(value) as { project: string; tarball: string }),
  };
  for (const work of Object.values(shared)) work.catch(() => {}); // reported by the test that awaits it
  return shared;
}

const devDependencies = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
  .devDependencies;

/**
 * The README's layout: the clone (here a folder with the tarball) beside the user's project, which its Install
 * commands make, word for word; then the tools of the guides' examples, at the versions this repository pins.
 */
async function fullProject(folder: string, packed: string): Promise<{ project: string; tarball: string }> {
  const clone = path.join(folder, 'monitoring-service-api');
  mkdirSync(clone);
  const tarball = path.join(clone, path.basename(packed));
  copyFileSync(packed, tarball);
  const project = path.join(folder, 'my-project');
  mkdirSync(project);
  const [commands] = sectionBlocks('README.md', '## Install', 'sh');
  if (!commands) throw new Error("The README's Install section has no sh block");
  // npm takes what its cache holds, as the other installs here do (--prefer-offline), rather than asking the
  // registry again about each of the 120 packages while it resolves the tree (some 6 s of waiting).
  await execOk('sh', ['-e', '-c', commands], { cwd: project, env: cleanEnv({ npm_config_prefer_offline: 'true' }) });
  await execOk('npm', ['pkg', 'set', 'type=module'], { cwd: project });
  const tools = ['typescript', 'vitest', 'msw', 'openapi-msw', '@types/node'];
  await npmInstall(
    project,
    tools.map((name) => `${name}@${devDependencies[name]}`),
  );
  return { project, tarball };
}

/** Whether this process made the folder (and the work is its own), not another that made it first. */
function claimed(folder: string): boolean {
  try {
    mkdirSync(folder);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Writes a record whole: a reader sees none or all of it. */
function publish(file: string, content: { value?: string; error?: string }): void {
  writeFileSync(`${file}.partial`, JSON.stringify(content));
  renameSync(`${file}.partial`, file);
}

/** The value of a record once it is written; its error, thrown, when the work failed. */
async function awaitRecord(file: string): Promise<string> {
  if (!(await waitUntil(() => existsSync(file), 300_000, 100))) throw new Error(`${file} was not written within 300 s`);
  const { value, error } = JSON.parse(readFileSync(file, 'utf8')) as { value?: string; error?: string };
  if (value === undefined) throw new Error(error);
  return value;
}
