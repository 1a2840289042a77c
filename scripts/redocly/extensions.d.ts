// Types of scripts/redocly/extensions.js, for the scripts and tests that import it.

/** EXTENSIONS.md, the registry of extension keys that the rule service/known-extensions reads. */
export declare const extensionsFile: URL;

/** The `x-` keys of the table of EXTENSIONS.md (of `markdown`, or of the file), in its order. */
export declare function registeredExtensions(markdown?: string): string[];
