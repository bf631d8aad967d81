import type { Logger } from 'pino';
import { ProbotOctokit } from 'probot';

/** The longest rate-limit wait worth spending runner minutes on; longer fails the step. */
const MAX_WAIT_SECONDS = 60;

/**
 * An octokit for one run of the Action, authenticated with the workflow's token: Probot's
 * class, so readThread, executePlan and the config loader take it as they take the app's.
 * Rate limits are honoured as GitHub asks (retry-after, x-ratelimit-reset) while the wait is
 * short; a longer one fails the step, and the next scheduled run picks up the work.
 */
export function actionOctokit(token: string, baseUrl: string, log: Logger): ProbotOctokit {
  const onLimit =
    (limit: 'primary' | 'secondary') =>
    (retryAfter: number, request: { method: string; url: string }, _o: unknown, count: number) => {
      const retry = count < 2 && retryAfter <= MAX_WAIT_SECONDS;
      log.warn(
        { limit, method: request.method, url: request.url, retryAfter, retry },
        'GitHub rate limit hit',
      );
      return retry;
    };
  return new ProbotOctokit({
    auth: { token },
    baseUrl,
    userAgent: 'claim-warden-action',
    log,
    throttle: { onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary') },
  });
}
