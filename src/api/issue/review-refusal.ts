import type { BranchWork } from '../../claims/branch-work.js';
import { sameName } from '../../claims/names.js';
import { reviewGate } from '../../claims/review.js';
import { trustedClaims } from '../../claims/trusted-claims.js';
import { installationReads } from '../../github/conditional.js';
import { UnverifiableError } from '../../github/errors.js';
import { issueRef } from '../../keys.js';
import { reviewFactsFor } from '../../review/review-facts-for.js';
import { ApiError } from '../answers/api-error.js';
import type { ApiDeps } from '../caller/api-deps.js';
import { githubFailure } from '../caller/caller-github.js';
import type { IssueAtHand } from './on-issue.js';
import { settle } from './settle.js';

/** The `review` object of a NEEDS_REVIEW answer and of `claim.expired` (docs/protocol.md §17). */
function publicReview(work: BranchWork) {
  return {
    branch: work.branch,
    aheadBy: work.aheadBy,
    head: work.head.slice(0, 7),
    pull: work.pull,
  };
}

/**
 * docs/protocol.md §17 "never dragged back", asked before a claim is written: an issue that
 * carries the needs-review label, or whose stale claim's branch holds work (read now, the
 * reads of the reconcile: conditional), is refused with 409 NEEDS_REVIEW unless `login`
 * wrote the stale claim. A review that starts here is written first (the reconcile finalises
 * the stale claim and labels the issue), so the refusal and GitHub agree. A branch that could
 * not be read is 503 UNVERIFIABLE: never a guess.
 */
export async function refuseNeedsReview(
  deps: ApiDeps,
  at: IssueAtHand,
  login: string,
  now: Date,
): Promise<void> {
  const { key, config } = at;
  const facts = { ...at.thread, appLogin: deps.appLogin, hints: [] };
  const reads = installationReads(deps.store, key.installationId);
  let review: Awaited<ReturnType<typeof reviewFactsFor>>;
  try {
    review = await reviewFactsFor(
      { octokit: at.repo.octokit, reads, now, log: deps.log },
      key,
      facts,
      config,
    );
  } catch (error) {
    if (!(error instanceof UnverifiableError)) throw error;
    throw githubFailure(error.cause ?? error, error.message, now.getTime());
  }
  const byId = new Map(
    trustedClaims(facts.comments, config.trustedBots).map((c) => [c.comment.id, c]),
  );
  const started = [...review]
    .flatMap(([id, work]) => {
      const claim = byId.get(id);
      return claim && work ? [{ claim, work }] : [];
    })
    .sort((a, b) => a.claim.comment.id - b.claim.comment.id);
  const gate = reviewGate(facts, config, started);
  if (!gate || (gate.owner !== null && sameName(gate.owner, login))) return;
  if (gate.starts) await settle(deps, at, 'api.claim.review');
  const whose = gate.owner
    ? `@${gate.owner}'s stale session left work on it`
    : 'a maintainer marked it';
  throw new ApiError(
    409,
    'NEEDS_REVIEW',
    `${issueRef(key)} needs review (${whose}); nothing was written: ask a maintainer to review it, or claim another issue`,
    {
      review: gate.work && publicReview(gate.work),
      recovery: {
        action: 'pick-another',
        hint: 'ask a maintainer to review the work, or claim another issue',
      },
    },
  );
}
