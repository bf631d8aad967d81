import type { Plan } from '../claims/decide.js';
import { agentHolder } from '../claims/holder-summary.js';
import type { IssueKey } from '../keys.js';
import type { Store } from '../store/store.js';
import { flagger } from './flagger.js';

/** What keeping the guard's indexes needs from the reconcile. */
export interface GuardIndexDeps {
  readonly store: Store;
  /** Queues a re-check of a pull request's paths check (docs/protocol.md §11). */
  requestPullCheck?(key: IssueKey): Promise<void>;
}

/**
 * Keeps the guard's indexes true to the holder a reconcile settled on (docs/protocol.md §11):
 * the branch index (pushes to that branch renew it), and the pull requests its paths flagged.
 * Those flagged by a claim that no longer holds them (released, finalised, stale, another
 * comment now holds, or its path line changed) are checked again, so their check turns green without a push.
 */
export async function indexForGuard(
  deps: GuardIndexDeps,
  key: IssueKey,
  plan: Plan,
): Promise<void> {
  const holder = agentHolder(plan.holder);
  await deps.store.setBranchHolder(
    key,
    holder === null
      ? null
      : {
          commentId: holder.commentId,
          author: holder.author,
          branch: holder.branch,
          heartbeat: holder.heartbeat,
        },
  );
  if (deps.requestPullCheck === undefined) return;
  const keep = holder !== null && holder.paths.length > 0 ? flagger(holder) : null;
  for (const pull of await deps.store.takeFlaggedPulls(key, keep)) {
    await deps.requestPullCheck({ ...key, number: pull });
  }
}
