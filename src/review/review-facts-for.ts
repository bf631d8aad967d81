import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { BranchWork, ReviewFacts } from '../claims/branch-work.js';
import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import { reviewReads } from '../claims/review.js';
import type { ReadCache } from '../github/conditional.js';
import { statusOf } from '../github/errors.js';
import type { IssueKey } from '../keys.js';
import { readBranchWork } from './read-branch-work.js';

/** What one review read came to, for the `claims_review_reads_total` metric. */
export type ReviewReadResult = 'work' | 'none' | 'failed';

/** What gathering the review facts reads with. */
interface ReviewReadDeps {
  readonly octokit: ProbotOctokit;
  readonly reads: ReadCache;
  readonly now: Date;
  /** Told of each branch read (docs/protocol.md §17): work found, none, or a failure. */
  readonly onReviewRead?: ((result: ReviewReadResult) => void) | undefined;
  readonly log?: Pick<Logger, 'warn'>;
}

/**
 * The review facts of one issue (docs/protocol.md §17): for each stale, unreleased claim of an
 * open issue, the work its branch holds, each branch read once (conditional). A read that
 * fails throws UnverifiableError after telling `onReviewRead`: nothing is finalised from a
 * guess, the claim stays as it is, and the issue stays due for the next sweep (§6).
 */
export async function reviewFactsFor(
  deps: ReviewReadDeps,
  key: IssueKey,
  facts: IssueFacts,
  config: DecideConfig,
): Promise<ReviewFacts> {
  const review = new Map<number, BranchWork | null>();
  const byBranch = new Map<string, BranchWork | null>();
  for (const { commentId, branch } of reviewReads(facts, config, deps.now)) {
    let work = byBranch.get(branch);
    if (work === undefined) {
      try {
        work = await readBranchWork(deps.octokit, deps.reads, key, branch);
      } catch (error) {
        deps.onReviewRead?.('failed');
        deps.log?.warn(
          { commentId, branch, status: statusOf(error) },
          'could not read the work on a stale claim’s branch: the claim is left as it is until the next sweep',
        );
        throw error;
      }
      deps.onReviewRead?.(work ? 'work' : 'none');
      byBranch.set(branch, work);
    }
    review.set(commentId, work);
  }
  return review;
}
