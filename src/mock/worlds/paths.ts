// The addresses of the worlds: a world's are the mock's usual ones under `/worlds/{id}`, so that a client in any
// language is pointed at it by its base URLs alone; the default world keeps the usual ones (`/worlds/default/...`
// reaches it too). The worlds themselves are made, listed and ended at `/__mock/worlds` of the default world.
import { coveragePath } from '../../coverage/http.js';
import { apiRoot } from '../../description/mock-document.js';
import { quote } from '../../http/exchange.js';
import { controlPrefix, isControlPath } from '../../simulator/test-api.js';

/** The prefix of every world's addresses but the default's. */
export const worldsPrefix = '/worlds';
/** The id of the default world, the mock's usual addresses. */
export const defaultWorldId = 'default';
/** The path of the worlds' endpoints in the mock's own test API. */
export const worldsPath = `${controlPrefix}/worlds`;
/** The coverage of the whole run: every world's merged, those forgotten or ended included. */
export const runCoveragePath = `${coveragePath}/all`;
/** The worlds' endpoints, with their methods (the start-up banner lists them). */
export const worldsEndpoints: readonly string[] = [
  `GET, POST ${worldsPath}`,
  `GET, DELETE ${worldsPath}/{id}`,
  `GET, DELETE ${runCoveragePath}`,
];

/** The fault of a world's id, or undefined when it is one. One pass, no expression that can backtrack. */
export function worldIdFault(id: unknown): string | undefined {
  const allowed = (char: string) =>
    (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z') || (char >= '0' && char <= '9') || '._-'.includes(char);
  const fits = typeof id === 'string' && id.length >= 1 && id.length <= 64 && id[0] !== '.' && [...id].every(allowed);
  if (fits) return undefined;
  const shown = typeof id === 'string' ? quote(id, 80) : JSON.stringify(id)?.slice(0, 80);
  return `a world's id is 1 to 64 letters, digits, ".", "_" and "-", not starting with ".", not ${shown}`;
}

/** A path under the worlds' prefix, as sent: the world's id and the rest (`/worlds/w1/api/x`: `w1`, `/api/x`). */
export function worldPathOf(path: string): { id: string; rest: string } | undefined {
  if (path !== worldsPrefix && !path.startsWith(`${worldsPrefix}/`)) return undefined;
  const start = worldsPrefix.length + 1;
  const end = path.indexOf('/', start);
  return end === -1 ? { id: path.slice(start), rest: '/' } : { id: path.slice(start, end), rest: path.slice(end) };
}

/** Whether a path is one of the worlds' endpoints of the mock's own test API (`/__mock/worlds...`, the run's coverage). */
export const isWorldsControlPath = (path: string): boolean =>
  path === worldsPath || path.startsWith(`${worldsPath}/`) || trimmed(path) === runCoveragePath;

/** A path without its trailing slashes. */
export function trimmed(path: string): string {
  let last = path.length;
  while (last > 1 && path[last - 1] === '/') last--;
  return path.slice(0, last);
}

/**
 * Whether a path is a test API's, the default world's (`/__mock/...`) or another's (`/worlds/{id}/__mock/...`, whatever
 * the id): the test API's rules (src/mock/test-api-access.ts) apply to both.
 */
export function isTestApiPath(path: string): boolean {
  if (isControlPath(path)) return true;
  const world = worldPathOf(path);
  return world !== undefined && isControlPath(world.rest);
}

/** A world's addresses, from the origin the caller reached the mock by. */
export function worldAddresses(id: string, origin: string): { baseUrl: string; authUrl: string; testApiUrl: string } {
  const root = id === defaultWorldId ? origin : `${origin}${worldsPrefix}/${id}`;
  return { baseUrl: `${root}${apiRoot}`, authUrl: root, testApiUrl: `${root}${controlPrefix}` };
}
