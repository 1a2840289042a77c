// The browsers the client supports, and the check that holds it to them: Vite 8's default build targets (its
// 'baseline-widely-available'), which a front-end app gets without a word. A bundle of the client may name no member
// of the web APIs it calls (fetch's, URL's, AbortSignal's, the encoders') nor of JavaScript's built-ins that one of
// these browsers lacks, as MDN's compatibility data (@mdn/browser-compat-data) says. Syntax is the app's bundler's
// to lower; members are matched by name (`.member`, `Type.member` for statics), so members of the iterator helpers,
// whose names Array's share, are left out.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The oldest version of each browser the client supports (decision 0023). */
export const supportedBrowsers = { chrome: 111, edge: 111, firefox: 114, safari: 16.4, safari_ios: 16.4 } as const;

/** The web APIs the client calls. */
const webApis = [
  'Request',
  'Response',
  'Headers',
  'URL',
  'URLSearchParams',
  'AbortSignal',
  'AbortController',
  'ReadableStream',
  'TextDecoder',
  'TextEncoder',
  'Blob',
  'FormData',
  'DOMException',
];

interface Compat {
  support: Record<string, SupportStatement | SupportStatement[] | undefined>;
}
interface SupportStatement {
  version_added: string | boolean | null;
  version_removed?: string;
  flags?: unknown;
  prefix?: string;
  alternative_name?: string;
  partial_implementation?: boolean;
}
type Feature = { __compat?: Compat } & { [member: string]: Feature | Compat | undefined };

const version = (text: string) => Number.parseFloat(text.replace('≤', ''));

/** Whether every supported browser has the feature, whole and unprefixed, at its oldest supported version. */
function inEverySupportedBrowser(compat: Compat): boolean {
  return Object.entries(supportedBrowsers).every(([browser, oldest]) =>
    [compat.support[browser] ?? []]
      .flat()
      .some(
        (entry) =>
          typeof entry.version_added === 'string' &&
          version(entry.version_added) <= oldest &&
          !entry.version_removed &&
          !entry.flags &&
          !entry.prefix &&
          !entry.alternative_name &&
          !entry.partial_implementation,
      ),
  );
}

/** A feature one of the supported browsers lacks, and how code names it. */
export interface NewerFeature {
  name: string;
  pattern: RegExp;
}

/** The features of the client's web APIs and of JavaScript's built-ins that a supported browser lacks. */
export function newerFeatures(): NewerFeature[] {
  const require = createRequire(import.meta.url);
  const data = JSON.parse(readFileSync(require.resolve('@mdn/browser-compat-data'), 'utf8')) as {
    api: Record<string, Feature>;
    javascript: { builtins: Record<string, Feature> };
  };
  const builtins = Object.entries(data.javascript.builtins).filter(([name]) => !name.includes('Iterator'));
  const newer: NewerFeature[] = [];
  for (const [type, feature] of [...webApis.map((name) => [name, data.api[name]!] as const), ...builtins]) {
    if (feature.__compat && !inEverySupportedBrowser(feature.__compat)) {
      newer.push({ name: type, pattern: new RegExp(`\\b${type}\\b`) });
      continue;
    }
    for (const [key, member] of Object.entries(feature)) {
      const compat = (member as Feature | undefined)?.__compat;
      // Sub-features (`worker_support`, `init_duplex_parameter`) are not members; statics end in `_static`.
      if (key === '__compat' || !compat || (key.includes('_') && !key.endsWith('_static')) || inEverySupportedBrowser(compat)) continue;
      const name = key.replace(/_static$/, '');
      newer.push(
        key.endsWith('_static')
          ? { name: `${type}.${name}`, pattern: new RegExp(`\\b${type}\\.${name}\\b`) }
          : { name: `${type}.prototype.${name}`, pattern: new RegExp(`\\.${name}\\b`) },
      );
    }
  }
  return newer;
}

/**
 * Names that a bundle of the client holds for another type's member, which every supported browser has: matched by
 * name, they are no use of the newer one. Each says why; the client reads no newer member under these names.
 */
export const sameNameElsewhere: Record<string, string> = {
  'Request.prototype.body':
    "Response.body and ServiceError's body share the name; a Request's bytes are read with arrayBuffer() (src/client/send.ts), as Firefox has no Request.body",
};

/** The features of `code` that a supported browser lacks. */
export const newerFeaturesIn = (code: string): string[] =>
  newerFeatures()
    .filter((feature) => feature.pattern.test(code) && !(feature.name in sameNameElsewhere))
    .map((feature) => feature.name);
