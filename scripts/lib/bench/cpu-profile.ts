// Where a process spent its time, read from a V8 CPU profile (`node --cpu-prof`): the busy time (neither idle nor
// waiting for a timer) shared out by package, so that a change to the mock's hot path can be judged by where the
// time went, not only by how fast the whole was.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The owner of a function: its npm package, the project itself, Node's own code, or a bucket of V8's. */
export function ownerOf(functionName: string, url: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node';
  const after = url.lastIndexOf('/node_modules/');
  if (after !== -1) {
    const parts = url.slice(after + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return url.includes('/src/') || url.includes('/generated/') ? 'monitoring-service-api' : url;
}

/** The self time of each key of the profile's functions (`keyOf` a node), in milliseconds, largest first. */
function selfTimes(profile: CpuProfile, keyOf: (node: ProfileNode) => string): { key: string; ms: number }[] {
  const keyOfNode = new Map(profile.nodes.map((node) => [node.id, keyOf(node)]));
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the delta to the next sample (the last one has none: it is left out).
  for (let index = 0; index + 1 < samples.length; index++) {
    const key = keyOfNode.get(samples[index]!) ?? '(unknown)';
    totals.set(key, (totals.get(key) ?? 0) + (deltas[index + 1] ?? 0) / 1000);
  }
  return [...totals].map(([key, ms]) => ({ key, ms })).sort((a, b) => b.ms - a.ms);
}

const ownerKey = (node: ProfileNode) => ownerOf(node.callFrame.functionName, node.callFrame.url);
/** A function by its name, owner and file (with its folder: many packages have an index.js in each). */
const functionKey = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} (${ownerKey(node)}${node.callFrame.url ? ` ${node.callFrame.url.split('/').slice(-2).join('/')}` : ''})`;

/** The busy time of a profile (idle left out), by owner and by function, in milliseconds. */
export function profileSummary(profile: CpuProfile) {
  const busy = (entries: { key: string; ms: number }[]) => entries.filter((entry) => !entry.key.startsWith('(idle)'));
  const owners = busy(selfTimes(profile, ownerKey));
  return { busyMs: owners.reduce((sum, entry) => sum + entry.ms, 0), owners, functions: busy(selfTimes(profile, functionKey)) };
}

/** A profile file in a few lines: the busy time, the owners above 1% of it, the functions that took most. */
export function describeProfile(file: string, topFunctions = 15): string {
  const { busyMs, owners, functions } = profileSummary(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const percent = (ms: number) => `${((ms / busyMs) * 100).toFixed(1).padStart(5)}%`;
  return [
    `busy ${(busyMs / 1000).toFixed(1)} s, by owner:`,
    ...owners.filter((entry) => entry.ms >= busyMs / 100).map((entry) => `  ${percent(entry.ms)}  ${entry.key}`),
    'by function (self time):',
    ...functions.slice(0, topFunctions).map((entry) => `  ${percent(entry.ms)}  ${entry.key}`),
  ].join('\n');
}

/** The newest CPU profile in a folder, named and described: what `npm run bench -- --profile DIR` prints. */
export function describeNewestProfile(dir: string): string {
  const [newest] = (existsSync(dir) ? readdirSync(dir) : [])
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return newest ? `${newest}\n${describeProfile(newest)}` : `none in ${dir} (the mock did not exit on its own)`;
}
