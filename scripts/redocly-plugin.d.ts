// Types of scripts/redocly-plugin.js, for the scripts and tests that import it.

/** EXTENSIONS.md, the registry of extension keys that the rule service/known-extensions reads. */
export declare const extensionsFile: URL;

/** The `x-` keys of the table of EXTENSIONS.md (of `markdown`, or of the file), in its order. */
export declare function registeredExtensions(markdown?: string): string[];

/** The plugin, as Redocly loads it: its rules and decorators. */
declare function servicePlugin(): { id: string; rules: Record<string, unknown>; decorators: Record<string, unknown> };
export default servicePlugin;
