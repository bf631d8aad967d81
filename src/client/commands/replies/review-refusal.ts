import { type ClientError, refused } from '../../core/client-error.js';

/**
 * The work a stale session left on an issue in review, as the claims API names it in a
 * 409 NEEDS_REVIEW's `details.review` (docs/protocol.md §17): `head` 7 characters, `pull` the
 * open pull request or null.
 */
interface ReviewWork {
  readonly branch: string;
  readonly aheadBy: number;
  readonly head: string;
  readonly pull: number | null;
}

/** `details.review` when it has the documented shape, else null (the label added by hand). */
function reviewWorkOf(value: unknown): ReviewWork | null {
  if (typeof value !== 'object' || value === null) return null;
  const { branch, aheadBy, head, pull } = value as Record<string, unknown>;
  if (typeof branch !== 'string' || typeof head !== 'string') return null;
  if (typeof aheadBy !== 'number' || !(pull === null || typeof pull === 'number')) return null;
  return { branch, aheadBy, head, pull };
}

/** What the branch holds, in the words of the expiry note: "3 commits on feat/x (1a2b3c4)". */
function describeWork(work: ReviewWork): string {
  const commits = `${work.aheadBy} commit${work.aheadBy === 1 ? '' : 's'}`;
  const pull = work.pull === null ? '' : ` and pull request #${work.pull}`;
  return `${commits} on ${work.branch} (${work.head})${pull}`;
}

/**
 * The refusal of a claim on an issue in review (docs/protocol.md §17 "Never dragged back",
 * the API's 409 NEEDS_REVIEW): the stale session's work when the app knows it, null when a
 * person added the label by hand, and the hint of what to do next. Nothing was written.
 */
export function needsReviewRefusalOf(name: string, details: unknown): ClientError {
  const review = reviewWorkOf((details as { review?: unknown } | undefined)?.review);
  const hint = review
    ? `ask a maintainer to review the work on ${review.branch}, or claim another issue`
    : 'ask a maintainer to review it and remove the needs-review label, or claim another issue';
  const why = review ? `a stale session left ${describeWork(review)}` : 'a maintainer marked it';
  return refused(`${name} needs review (${why}); nothing was written: ${hint}.`, {
    issue: name,
    reason: 'needs-review',
    review,
    hint,
  });
}
