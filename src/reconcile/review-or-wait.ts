import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { ReviewFacts } from '../claims/branch-work.js';
import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import type { ReadCache } from '../github/conditional.js';
import { UnverifiableError } from '../github/errors.js';
import type { ReconcileRequest } from '../queue/queue.js';
import { retryAfterOf } from '../queue/retry.js';
import { reviewFactsFor } from '../review/review-facts-for.js';
import type { ReconcileDeps } from './reconcile-deps.js';

/**
 * The review facts of a reconcile (docs/protocol.md §17), or `'unread'` when a stale claim's
 * branch could not be read. Then nothing on the issue is decided: the stale claim stays as it
 * is and no new claim is taken, since either could be wrong once the branch answers (§6).
 * The issue is left due (after a rate limit's wait), so the next sweep comes back for it, and
 * the reconcile does not throw: the queue's backoff retries would each repeat the compare
 * within seconds.
 */
export async function reviewOrWait(
  deps: Pick<ReconcileDeps, 'store' | 'onReviewRead' | 'reviewUnreadForMs'> & {
    readonly log: Logger;
    readonly octokit: ProbotOctokit;
    readonly reads: ReadCache;
    readonly now: Date;
  },
  request: ReconcileRequest,
  facts: IssueFacts,
  config: DecideConfig,
): Promise<ReviewFacts | 'unread'> {
  const { key } = request;
  try {
    return await reviewFactsFor(
      {
        ...deps,
        unreadForMs: deps.reviewUnreadForMs,
        // The sweep's own read is the retry: it reads a branch whose last read failed.
        sweep: request.reason === 'sweep',
      },
      key,
      facts,
      config,
    );
  } catch (error) {
    if (!(error instanceof UnverifiableError)) throw error;
    // Due at once, or once a rate limit is over when GitHub said how long to wait.
    const dueAt = new Date(deps.now.getTime() + (retryAfterOf(error) ?? 0));
    await deps.store.setDeadline(key, dueAt);
    deps.log.info(
      { status: error.status, dueAt: dueAt.toISOString() },
      'issue left as it is until the next sweep',
    );
    return 'unread';
  }
}
