import { claimChangesOf } from '../board/claim-changes-of.js';
import type { Plan } from '../claims/decide.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { IssueThread } from '../github/thread.js';
import type { IndexedClaim, IssueKey, Store } from '../store/store.js';
import { indexedClaimOf } from './serialise.js';

/**
 * Records what a reconcile verified in the open-issue index: the holder's claim, which the
 * work queue (docs/protocol.md §9) and the claims board (§14) both read, and the expiries,
 * losses and takeovers the plan wrote, for the board's history. One write of the claim per
 * reconcile, so the two surfaces cannot disagree, and a page view or a queue query costs no
 * GitHub call. Throws on a store error, so the reconcile retries.
 */
export async function indexReconciled(
  store: Store,
  key: IssueKey,
  plan: Plan,
  thread: IssueThread,
  staleAfterMs: number,
  now: Date,
): Promise<void> {
  await store.setIssueClaim(key, holderClaim(plan, thread, staleAfterMs));
  for (const change of claimChangesOf(key, plan, thread, now)) {
    await store.recordClaimChange(change);
  }
}

/**
 * The plan's holder as the index keeps it, read from its comment in the thread (decide()
 * names a holder only among the thread's claim comments), so the avatar and the comment's
 * `updated_at` come with it.
 */
function holderClaim(plan: Plan, thread: IssueThread, staleAfterMs: number): IndexedClaim | null {
  const holder = plan.holder;
  if (holder === null) return null;
  const comment = thread.comments.find((c) => c.id === holder.commentId);
  const marker = comment ? parseClaimMarker(comment.body) : null;
  return comment && marker ? indexedClaimOf({ comment, marker }, staleAfterMs) : null;
}
