import { claimChangesOf } from '../board/claim-changes-of.js';
import type { Plan } from '../claims/decide.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import type { IndexedClaim, Store } from '../store/store.js';
import { indexedClaimOf, indexedIssueOf } from './serialise.js';

/**
 * Records what a reconcile verified in the open-issue index: the issue (dropped once closed),
 * the holder's claim, which the work queue (docs/protocol.md §9) and the claims board (§14)
 * both read, and the expiries, losses and takeovers the plan wrote, for the board's history.
 * The issue is put from the thread too, so a claim shows although the `issues` event that
 * would have indexed its issue was lost; a snapshot older than the one indexed is ignored,
 * and a close is followed by its own reconcile, which drops it. One write of the claim per
 * reconcile, so the two surfaces cannot disagree, and a page view or a queue query costs no
 * GitHub call. Throws on a store error, so the reconcile retries.
 */
export async function indexReconciled(
  store: Store,
  key: IssueKey,
  plan: Plan,
  thread: IssueThread & { readonly meta: IssueMeta },
  staleAfterMs: number,
  now: Date,
): Promise<void> {
  if (thread.open && !thread.isPullRequest) await store.putOpenIssue(indexedIssueOf(key, thread));
  else await store.dropOpenIssue(key);
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
