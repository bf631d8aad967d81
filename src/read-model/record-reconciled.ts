import { parseClaimMarker } from '../claims/marker.js';
import type { Plan } from '../claims/plan.js';
import { holderRef } from '../events/holder-ref.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import { type GuardIndexDeps, indexForGuard } from '../guard/index-for-guard.js';
import type { IssueKey } from '../keys.js';
import type { PathCheck } from '../path-holders/path-holders-for.js';
import { type RecordPathDeps, recordPathHolder } from '../path-holders/record-path-holder.js';
import type { IndexedClaim } from '../store/store.js';
import { claimChangesOf } from './claim-changes-of.js';
import { indexedClaimOf, indexedPersonOf } from './indexed-claim-of.js';
import { indexedIssueOf } from './indexed-issue-of.js';

/** What one applied reconcile settled on, as the read model records it. */
interface ReconciledIssue {
  readonly plan: Plan;
  readonly thread: IssueThread & { readonly meta: IssueMeta };
  /** The path holders the reconcile verified (docs/protocol.md §10). */
  readonly paths: PathCheck;
  readonly staleAfterMs: number;
  /** `people.staleAfter` (docs/protocol.md §16), for a person holder's `staleAt`. */
  readonly peopleStaleAfterMs?: number;
  /** `grace` (docs/protocol.md §17), for an agent holder's `graceUntil`. */
  readonly graceMs?: number;
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
  const { plan, thread, now } = reconciled;
  await deps.store.setDeadline(key, plan.deadline);
  await deps.store.setHolder(key, holderRef(plan.holder));
  await recordPathHolder(deps, key, plan, reconciled.paths);
  // Put from the thread too, so a claim shows although its issue's `issues` event was lost;
  // an older snapshot than the one indexed is ignored. One write of the claim per reconcile:
  // the queue and the board cannot disagree, and neither costs a GitHub call.
  if (thread.open && !thread.isPullRequest) {
    await deps.store.putOpenIssue(indexedIssueOf(key, thread));
  } else await deps.store.dropOpenIssue(key);
  await deps.store.setIssueClaim(key, holderClaim(reconciled), plan.waitlist);
  // The expiries, losses and takeovers the plan wrote, for the board's history.
  for (const change of claimChangesOf(key, plan, thread, now)) {
    await deps.store.recordClaimChange(change);
  }
  await indexForGuard(deps, key, plan);
}

/**
 * The plan's holder as the index keeps it. An agent's is read from its comment in the thread
 * (decide() names one only among the thread's claim comments), so the avatar and the
 * comment's `updated_at` come with it; a person's is the assignment (docs/protocol.md §16).
 */
function holderClaim(reconciled: ReconciledIssue): IndexedClaim | null {
  const { plan, thread, staleAfterMs } = reconciled;
  const holder = plan.holder;
  if (holder === null) return null;
  if (holder.kind === 'person') {
    return indexedPersonOf(holder, reconciled.peopleStaleAfterMs ?? staleAfterMs);
  }
  const comment = thread.comments.find((c) => c.id === holder.commentId);
  const marker = comment ? parseClaimMarker(comment.body) : null;
  return comment && marker
    ? indexedClaimOf({ comment, marker }, staleAfterMs, reconciled.graceMs)
    : null;
}
