// verify's access tokens: one from the refresh token, whose grant at the identity provider is judged like any other
// answer, or the one given. A run that cannot get a token keeps the reason, and asks no more.
import { fixedToken, RefreshingTokens, type TokenSource } from '../client/auth.js';
import { ServiceError } from '../client/errors.js';
import type { FetchLike } from '../fetch/exchange.js';
import type { Redactor } from '../output/redact.js';
import type { Judge } from './judge.js';
import type { Settings } from './options.js';
import { redirectNote, type Sender, type Sent, sentOf } from './send.js';
import type { CheckReport } from './types.js';

/** The operation the token source names in its errors. */
const tokenOperation = { method: 'POST', path: '/oauth/v2/token', operationId: 'requestToken' };

/** The check of the refresh-token grant: the identity provider's answer against the contract. */
async function signInCheck(judge: Judge, answer: Sent, authUrl: string): Promise<CheckReport> {
  const judgement = await judge.judge(
    { method: 'POST', path: '/oauth/v2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    answer,
  );
  const check: CheckReport = {
    operation: judge.operation('post', '/oauth/v2/token')?.operationId ?? 'requestToken',
    method: 'POST',
    template: '/oauth/v2/token',
    path: '/oauth/v2/token',
    purpose: 'sign-in',
    label: 'refresh-token grant (verify signing in)',
    status: answer.status,
    outcome: 'pass',
    violations: judgement.violations,
    undescribed: judgement.undescribed,
    notes: [],
    attempts: 1,
  };
  const redirect = redirectNote(answer, authUrl);
  if (redirect) check.notes.push(redirect);
  if (check.violations.length > 0) check.outcome = 'fail';
  else if (answer.status >= 300) {
    check.outcome = 'incomplete';
    check.notes.push(`the identity provider answered ${answer.status}: no access token`);
  }
  return check;
}

/** The access tokens of a run, and the check of signing in (recorded once, with the first token asked for). */
export class AccessTokens {
  /** Why no access token could be had, once that happened: later calls are skipped with it. */
  failure: string | undefined;
  private readonly source: TokenSource;
  /** The identity provider's answer to the grant, kept to be judged. */
  private signIn: Sent | undefined;
  private judgedSignIn = false;

  constructor(
    private readonly settings: Settings,
    redactor: Redactor,
    sender: Sender,
    private readonly judge: Judge,
    private readonly record: (check: CheckReport) => void,
  ) {
    this.source =
      settings.auth.refreshToken !== undefined ? this.refreshing(settings.auth, redactor, sender) : fixedToken(settings.auth.accessToken);
  }

  /** Whether a refused token can be replaced (only one from the refresh token can). */
  get renewable(): boolean {
    return this.source.renewable;
  }

  /** Drops a token the service refused, so that the next `get` asks the identity provider again. */
  invalidate(token: string): void {
    this.source.invalidate(token);
  }

  /** An access token, or undefined when none can be had (`failure` says why). */
  async get(): Promise<string | undefined> {
    if (this.failure) return undefined;
    try {
      return await this.source.get(undefined, tokenOperation);
    } catch (error) {
      this.failure = ServiceError.is(error) ? error.message : error instanceof Error ? error.message : String(error);
      return undefined;
    } finally {
      if (this.signIn && !this.judgedSignIn) {
        this.judgedSignIn = true;
        this.record(await signInCheck(this.judge, this.signIn, this.settings.authUrl ?? this.settings.baseUrl));
      }
    }
  }

  /**
   * Tokens from the refresh token, asked for through the run's sender (the request counts in the budget and the
   * rate) and renewed ahead of expiry; each new token joins the secrets the report never shows.
   */
  private refreshing(auth: { clientId: string; clientSecret: string; refreshToken: string }, redactor: Redactor, sender: Sender) {
    const identityFetch: FetchLike = async (request) => {
      const result = await sender.once(request);
      if ('refused' in result) throw new Error(`not sent: ${result.refused}`);
      if ('error' in result) throw new Error(result.error);
      this.signIn = sentOf(result);
      const empty = [101, 204, 205, 304].includes(result.response.status);
      return new Response(empty ? null : result.text, { status: result.response.status, headers: result.response.headers });
    };
    return new RefreshingTokens({
      authUrl: this.settings.authUrl!,
      clientId: auth.clientId,
      clientSecret: auth.clientSecret,
      refreshToken: auth.refreshToken,
      fetch: identityFetch,
      insecure: this.settings.insecure,
      timeoutMs: this.settings.timeoutMs,
      clock: Date.now,
      renewalMarginMs: 60_000,
      onTokenRenewed: (token) => redactor.add(token.accessToken),
    });
  }
}
