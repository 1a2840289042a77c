// `validate: true` in a bundle (the `browser` condition of `#packaged-schemas` in package.json, which browser and
// Workers builds take): the schemas beside the package are not in the bundle and cannot be loaded at run time, so
// the client refuses the option when it is created, before anything is sent.
import type { AnswerSchemas } from './contract.js';

export function packagedSchemas(): () => Promise<AnswerSchemas> {
  throw new TypeError(
    "validate: true loads the zod schemas beside the package at run time, which a bundle cannot: give them instead: import { answerSchema } from 'monitoring-service-api/zod' and validate: answerSchema.",
  );
}
