import { registeredExtensions } from '../extensions.js';

/** Only the `x-` keys of the registry (EXTENSIONS.md) appear in the description. */
export function KnownExtensions() {
  let known;
  let failure;
  try {
    known = new Set(registeredExtensions());
  } catch (error) {
    failure = `The registry of extension keys, EXTENSIONS.md, cannot be read: ${error.message}`;
  }
  let reported = false;
  return {
    any(node, { type, report, location }) {
      if (!node || typeof node !== 'object' || Array.isArray(node) || !type?.extensionsPrefix) return;
      for (const key of Object.keys(node)) {
        if (!key.startsWith(type.extensionsPrefix)) continue;
        if (failure) {
          if (!reported) report({ message: failure, location: location.child(key).key() });
          reported = true;
          return;
        }
        if (!known.has(key)) {
          report({
            message: `${key} is not in the registry of extension keys: add a row to EXTENSIONS.md (where it appears, what reads it, why), or use a registered key.`,
            location: location.child(key).key(),
          });
        }
      }
    },
  };
}
