import type { Logger } from 'pino';
import { statusOf } from '../github/errors.js';
import { noAnswer } from '../github/no-answer.js';

/** How start-up waits for GitHub between attempts. */
export interface StartupBackoff {
  /** The first wait (default 1 s); each next one doubles. */
  readonly firstDelayMs?: number;
  /** The longest wait (default 60 s): retrying goes on until GitHub answers. */
  readonly maxDelayMs?: number;
  /** Called after each attempt that will be retried (main counts them in /metrics). */
  readonly onRetry?: () => void;
}

/** Start-up stopped: GitHub answered, and what it said will not change by waiting. */
export class StartupError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'StartupError';
  }
}

/** What connectToGitHub reports in its log lines and errors. */
interface GitHubTarget {
  /** The URL of the first request (`GET /app`), never with a token. */
  readonly url: string;
  readonly appId: number;
}

/**
 * Runs `attempt` (the app's first requests to GitHub) until it succeeds. GitHub unreachable
 * or failing (no answer, 5xx, 429) is waited out with doubling backoff, each failure logged
 * with the URL being reached, so an outage is no crash loop. An answer that waiting cannot
 * change stops start-up with a StartupError naming the setting to fix: 401 (the JSON web
 * token signed with PRIVATE_KEY for APP_ID was refused) and other 4xx.
 */
export async function connectToGitHub<T>(
  attempt: () => Promise<T>,
  target: GitHubTarget,
  log: Logger,
  backoff: StartupBackoff = {},
): Promise<T> {
  const first = backoff.firstDelayMs ?? 1000;
  const max = backoff.maxDelayMs ?? 60_000;
  log.info({ url: target.url }, 'reaching GitHub');
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      // No answer came (a refused connection, an unknown host): no HTTP status to report.
      const unanswered = noAnswer(error);
      const status = unanswered ? undefined : statusOf(error);
      const reason = unanswered
        ? `could not connect to ${unanswered.host}: ${unanswered.reason}`
        : error instanceof Error
          ? error.message
          : String(error);
      if (
        status !== undefined &&
        status >= 400 &&
        status < 500 &&
        status !== 408 &&
        status !== 429
      ) {
        throw new StartupError(refusal(status, reason, target), error);
      }
      const retryInMs = Math.min(max, first * 2 ** (tries - 1));
      backoff.onRetry?.();
      log.warn(
        {
          url: target.url,
          attempt: tries,
          ...(status === undefined ? {} : { status }),
          reason,
          retryInMs,
        },
        'GitHub not reachable: retrying; /health answers 503 until it is',
      );
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}

function refusal(status: number, reason: string, target: GitHubTarget): string {
  if (status === 401) {
    return `GitHub refused the app's credentials (401 from ${target.url}: ${reason}): check that APP_ID (${target.appId}) is the App ID shown on the GitHub App's settings page, and that PRIVATE_KEY or PRIVATE_KEY_PATH holds a private key generated for that app`;
  }
  if (status === 404) {
    return `GitHub answered 404 to ${target.url} (${reason}): check GHE_HOST and GHE_PROTOCOL (unset for github.com) and APP_ID (${target.appId})`;
  }
  return `GitHub refused the app's first request (${status} from ${target.url}: ${reason}): check APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, and GHE_HOST`;
}
