import { expiredClaimOf } from '../../../claims/expiry-note.js';
import { hasName, sameName } from '../../../claims/names.js';
import { needsReviewLabel, reviewNoteOf } from '../../../claims/review.js';
import type { ClientError } from '../../core/client-error.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import type { IssueState } from '../../io/issue-state.js';
import { needsReviewRefusalOf } from '../replies/review-refusal.js';

/** The review an expiry note records: whose stale claim it was, and the work it left. */
type NotedReview = NonNullable<ReturnType<typeof reviewNoteOf>>;

/**
 * docs/protocol.md §17 "Never dragged back", in direct mode: the refusal of a new claim on an
 * issue carrying the needs-review label, as the API's 409 NEEDS_REVIEW words it, or null when
 * the claim may go on: no label, or `login` is the author of the stale claim the app sent to
 * review (it comes back to finish its work). A label added by hand admits nobody.
 */
export function reviewRefusal(state: IssueState, login: string): ClientError | null {
  if (!hasName(state.thread.labels, needsReviewLabel(state.config))) return null;
  const noted = notedReviewIn(state);
  if (noted && sameName(noted.author, login)) return null;
  const review = noted ? { ...noted.work, head: noted.work.head.slice(0, 7) } : null;
  return needsReviewRefusalOf(formatIssueRef(state.ref), { review });
}

/**
 * The latest review the app noted on the thread, or null. The client does not know the app's
 * login, so a note counts when a bot account (GitHub's user type) posted it, about a trusted
 * claim on the thread (its expiry tag names the claim), and it names that claim's author.
 */
function notedReviewIn(state: IssueState): NotedReview | null {
  const bots = state.thread.bots ?? [];
  let latest: NotedReview | null = null;
  // The thread is oldest first: the last note that qualifies is the latest.
  for (const comment of state.thread.comments) {
    if (!hasName(bots, comment.author)) continue;
    const review = reviewNoteOf(comment.body);
    const claimId = expiredClaimOf(comment.body);
    const claim = state.claims.find((c) => c.comment.id === claimId);
    if (review && claim && sameName(claim.comment.author, review.author)) latest = review;
  }
  return latest;
}
