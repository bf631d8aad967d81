import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { BranchWork, ReviewFacts } from '../claims/branch-work.js';
import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import { reviewReads } from '../claims/review.js';
import type { ReadCache } from '../github/conditional.js';
import { statusOf, UnverifiableError } from '../github/errors.js';
import type { IssueKey } from '../keys.js';
import { retryAfterOf } from '../queue/retry.js';
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
  /**
   * How long a failed read is remembered (the sweep interval), so that no reader but the
   * sweep repeats it meanwhile; absent: this reader's failure is not remembered (one
   * remembered is honoured all the same).
   */
  readonly unreadForMs?: number | undefined;
  /** The sweep's read: it reads again a branch whose last read failed. */
  readonly sweep?: boolean;
}

/**
 * The review facts of one issue (docs/protocol.md §17): for each stale, unreleased claim of an
 * open issue that is about to be finalised, the work its branch holds, each branch read once
 * (conditional). A read that fails throws UnverifiableError after telling `onReviewRead`:
 * nothing is finalised from a guess, the claim stays as it is (§6). The failure is remembered
 * for `unreadForMs`: until then only the sweep reads that branch again (at most one compare
 * per stale claim per sweep); any other reader fails at once, reading nothing.
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
      work = await readOrRefuse(deps, key, commentId, branch);
      byBranch.set(branch, work);
    }
    review.set(commentId, work);
  }
  return review;
}

/** One branch's work, or a throw when this read or one remembered failed. */
async function readOrRefuse(
  deps: ReviewReadDeps,
  key: IssueKey,
  commentId: number,
  branch: string,
): Promise<BranchWork | null> {
  const unread = unreadName(key, branch);
  if (!deps.sweep) {
    const failed = await deps.reads.store.cachedRead(deps.reads.scope, unread);
    if (failed) {
      throw new UnverifiableError(
        `the work on branch ${branch} could not be read; the next sweep reads it again`,
        key,
        Number(failed.value) || undefined,
      );
    }
  }
  try {
    const work = await readBranchWork(deps.octokit, deps.reads, key, branch);
    deps.onReviewRead?.(work ? 'work' : 'none');
    return work;
  } catch (error) {
    deps.onReviewRead?.('failed');
    const status = statusOf(error);
    deps.log?.warn(
      { commentId, branch, status },
      'could not read the work on a stale claim’s branch: the claim is left as it is until the next sweep',
    );
    if (deps.unreadForMs) {
      // Through a rate limit's wait too, when GitHub said how long it lasts.
      const forMs = Math.max(deps.unreadForMs, retryAfterOf(error) ?? 0);
      const failed = { etag: '-', value: String(status ?? '') };
      await deps.reads.store.setCachedRead(deps.reads.scope, unread, failed, forMs);
    }
    throw error;
  }
}

/** Where a failed read of `branch` is remembered (kept with the installation's reads). */
function unreadName(key: IssueKey, branch: string): string {
  return `${`review-unread v1 ${key.owner}/${key.repo}`.toLowerCase()} ${branch}`;
}
