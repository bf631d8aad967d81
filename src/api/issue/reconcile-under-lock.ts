import type { Lease } from '../../fence/lease.js';
import type { IssueKey } from '../../keys.js';
import { issueRef } from '../../keys.js';
import { unverifiable } from '../answers/api-error.js';
import type { ApiDeps } from '../caller/api-deps.js';

/**
 * Reconciles the issue at once with the app's token (the caller holds its lock, so the queue
 * cannot). When it fails, the reconcile is queued so the issue still converges, and the
 * answer is 503: the claim was written but not verified (docs/protocol.md §8 "Never a guess").
 */
export async function reconcileUnderLock(
  deps: ApiDeps,
  key: IssueKey,
  reason: string,
  lease?: Lease,
): Promise<void> {
  try {
    await deps.reconcile({ key, hints: [], reason, lease });
  } catch (err) {
    deps.log.warn({ err, issue: issueRef(key) }, 'claims API: reconcile failed; queued for retry');
    // Queued now, run once the lock is released; a failure to queue waits for the sweep.
    await deps.queue.enqueue({ key, hints: [], reason }).catch(() => {});
    throw unverifiable(
      `the claim on ${issueRef(key)} was written but GitHub failed while it was being settled`,
    );
  }
}
