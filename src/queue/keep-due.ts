import { type IssueKey, issueKeyString } from '../keys.js';
import type { ExhaustedHandler, QueueLogger } from './queue.js';
import { retryAfterOf } from './retry.js';

/** How long after its last failed attempt an exhausted reconcile is due again (default). */
const KEEP_DUE_AFTER_MS = 60_000;

/** What {@link keepDue} needs. */
interface KeepDueDeps {
  /** The deadline index the sweep reads (docs/protocol.md §4). */
  readonly store: { setDeadline(key: IssueKey, at: Date | null): Promise<void> };
  readonly log: QueueLogger;
  readonly now: () => Date;
  /** Counts each request kept due (the app's metric). */
  readonly onKept?: () => void;
  /** Delay before it is due (default {@link KEEP_DUE_AFTER_MS}; longer when GitHub asked). */
  readonly afterMs?: number;
}

/**
 * The queue's `onExhausted` for the app: a reconcile that failed on every attempt is not
 * dropped until the next resync hours later, but kept due in the deadline index, so the
 * sweep runs it again (with fresh attempts) once GitHub's wait, or `afterMs`, is over. It is
 * said in a warn log and counted, so a failing installation shows. Throws when the store
 * cannot record it; the queue then logs the request as dropped.
 */
export function keepDue(deps: KeepDueDeps): ExhaustedHandler {
  return async (request, error, attempts) => {
    const waitMs = Math.max(retryAfterOf(error) ?? 0, deps.afterMs ?? KEEP_DUE_AFTER_MS);
    const at = new Date(deps.now().getTime() + waitMs);
    await deps.store.setDeadline(request.key, at);
    deps.onKept?.();
    deps.log.warn(
      { issue: issueKeyString(request.key), attempts, dueAt: at.toISOString(), err: error },
      'reconcile failed on every attempt; kept due for the sweep',
    );
  };
}
