// monitoring-service-api/verify: checks a live service against the contract. It calls every documented GET of
// the API (with `accounts`, again for the first customer and business-unit account, through the zaaid cookie), the
// error paths it can provoke without side effects (no token: 401; a monitor that does not exist: 404, code 1002),
// and a write only when `allow` names its operation; it judges each answer with Prism's validator and its own
// checks (judge.ts), and reports by operation what breaks the contract and what the contract does not describe.
//
// A run is bounded: a budget of HTTP requests, a rate, Retry-After honoured. Secrets (client ID and secret, refresh
// token, access tokens) never appear in what it returns, prints or throws.
import { Redactor } from '../output/redact.js';
import { resolveVerifyOptions } from './options.js';
import { run } from './run.js';
import type { VerifyOptions, VerifyReport } from './types.js';

export type { OptionMention, OptionNames } from '../options.js';
export type { ContractViolation, ViolationRule } from './judge.js';
export { formatJunit } from './junit.js';
export { VerifyOptionsError, writeOperations } from './options.js';
export { formatCheck, formatMarkdown, formatSummary } from './report.js';

export * from './types.js';
export type { UndescribedAttribute } from './walk.js';

/**
 * Verifies a live service against the contract and resolves to the report (`exitCode`: 0 clean, 1 the service
 * broke the contract, 3 incomplete). Rejects with a VerifyOptionsError (a TypeError) for a wrong option (nothing sent), and with an
 * error when Prism's engine is not installed. Nothing it resolves or rejects with holds a secret.
 */
export async function verifyService(options: VerifyOptions): Promise<VerifyReport> {
  const settings = resolveVerifyOptions(options);
  const auth = settings.auth as Partial<Record<string, string>>;
  const redactor = new Redactor([auth.clientId, auth.clientSecret, auth.refreshToken, auth.accessToken]);
  const onCheck = settings.onCheck;
  try {
    const report = await run({ ...settings, onCheck: onCheck && ((check) => onCheck(redactor.value(check))) }, redactor);
    return redactor.value(report);
  } catch (error) {
    throw redactor.error(error);
  }
}
