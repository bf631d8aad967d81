import type { Plan } from '../claims/decide.js';
import { agentHolder } from '../claims/holder-summary.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import { type GuardIndexDeps, indexForGuard } from '../guard/index-for-guard.js';
import type { IssueKey } from '../keys.js';
import type { PathCheck } from '../paths/path-holders-for.js';
import { type RecordPathDeps, recordPathHolder } from '../paths/record-path-holder.js';
import type { IndexedClaim } from '../store/store.js';
import { claimChangesOf } from './claim-changes-of.js';
import { indexedClaimOf } from './indexed-claim-of.js';
import { indexedIssueOf } from './indexed-issue-of.js';

/** What one applied reconcile settled on, as the read model records it. */
export interface ReconciledIssue {
  readonly plan: Plan;
  readonly thread: IssueThread & { readonly meta: IssueMeta };
  /** The path holders the reconcile verified (docs/protocol.md §10). */
  readonly paths: PathCheck;
  readonly staleAfterMs: number;
  readonly now: Date;
}

/**
 * Records what a reconcile verified, once, after its plan is applied: the sweep's next
 * deadline (docs/protocol.md §4), the holder the next reconcile's events compare with (§13),
 * the path-holder index (§10), the open-issue index that the work queue (§9) and the claims
 * board (§14) read, and the guard's indexes (§11). Throws on a store error, so the reconcile
 * retries.
 */
export async function recordReconciled(
  deps: RecordPathDeps & GuardIndexDeps,
  key: IssueKey,
  reconciled: ReconciledIssue,
): Promise<void> {
  const { plan, thread, staleAfterMs, now } = reconciled;
  await deps.store.setDeadline(key, plan.deadline);
  await deps.store.setHolder(key, agentHolder(plan.holder)?.commentId ?? null);
  await recordPathHolder(deps, key, plan, reconciled.paths);
  // Put from the thread too, so a claim shows although its issue's `issues` event was lost;
  // an older snapshot than the one indexed is ignored. One write of the claim per reconcile:
  // the queue and the board cannot disagree, and neither costs a GitHub call.
  if (thread.open && !thread.isPullRequest) {
    await deps.store.putOpenIssue(indexedIssueOf(key, thread));
  } else await deps.store.dropOpenIssue(key);
  await deps.store.setIssueClaim(key, holderClaim(plan, thread, staleAfterMs));
  // The expiries, losses and takeovers the plan wrote, for the board's history.
  for (const change of claimChangesOf(key, plan, thread, now)) {
    await deps.store.recordClaimChange(change);
  }
  await indexForGuard(deps, key, plan);
}

/**
 * The plan's holder as the index keeps it, read from its comment in the thread (decide()
 * names a holder only among the thread's claim comments), so the avatar and the comment's
 * `updated_at` come with it.
 */
function holderClaim(plan: Plan, thread: IssueThread, staleAfterMs: number): IndexedClaim | null {
  const holder = agentHolder(plan.holder);
  if (holder === null) return null;
  const comment = thread.comments.find((c) => c.id === holder.commentId);
  const marker = comment ? parseClaimMarker(comment.body) : null;
  return comment && marker ? indexedClaimOf({ comment, marker }, staleAfterMs) : null;
}
