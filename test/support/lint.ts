// Redocly's lint as a library, in this process: the description with the rules of redocly.yaml, and the same with
// one file edited in memory (no copy of the tree, no command line per case).
import path from 'node:path';
import { BaseResolver, type Config, getLineColLocation, lint, loadConfig, Source } from '@redocly/openapi-core';
import { root } from '../../scripts/lib/paths.js';

export interface LintResult {
  /** 1 when an error was found, as the command line exits. */
  code: number;
  /** The problems as the stylish format prints them: `file:` then `line:column  severity  rule  message`. */
  output: string;
}

let config: Promise<Config> | undefined;

/** A resolver that reads every file from disk, and `file` as `edit` changes it. */
class EditingResolver extends BaseResolver {
  constructor(
    config: Config,
    private readonly file: string,
    private readonly edit: (text: string) => string,
  ) {
    super(config.resolve);
  }

  override async loadExternalRef(absoluteRef: string): Promise<Source> {
    const source = await super.loadExternalRef(absoluteRef);
    return absoluteRef === this.file ? new Source(absoluteRef, this.edit(source.body), source.mimeType) : source;
  }
}

/** Lints openapi/openapi.yaml with `file` (relative to the repository) changed by `edit`; the edit must change it. */
export async function lintEdited(file: string, edit: (text: string) => string): Promise<LintResult> {
  const loaded = await (config ??= loadConfig({ configPath: path.join(root, 'redocly.yaml') }));
  let changed = false;
  const resolver = new EditingResolver(loaded, path.join(root, file), (text) => {
    const after = edit(text);
    changed = after !== text;
    return after;
  });
  const problems = await lint({ ref: path.join(root, 'openapi/openapi.yaml'), config: loaded, externalRefResolver: resolver });
  if (!changed) throw new Error(`the edit of ${file} changed nothing`);
  const output = problems
    .map((problem) => {
      const location = problem.location[0]!;
      const { line, col } = getLineColLocation(location).start;
      return `${path.relative(root, location.source.absoluteRef)}:\n  ${line}:${col}  ${problem.severity}  ${problem.ruleId}  ${problem.message}\n`;
    })
    .join('');
  return { code: problems.some((problem) => problem.severity === 'error') ? 1 : 0, output };
}
