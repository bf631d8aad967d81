import type { Plan } from '../claims/decide.js';
import type { IssueThread } from '../github/thread.js';
import type { IssueKey, Store } from '../store/store.js';
import { boardRecordsOf } from './board-records-of.js';

/**
 * Stores what an applied plan tells the claims board: the issue's row and its expiries,
 * losses and takeovers. Called by every reconcile, so a page view reads the store and costs
 * no GitHub call (docs/protocol.md §14). Throws on a store error, so the reconcile retries.
 */
export async function recordForBoard(
  store: Store,
  key: IssueKey,
  plan: Plan,
  thread: IssueThread,
  staleAfterMs: number,
  now: Date,
): Promise<void> {
  const { summary, changes } = boardRecordsOf(key, plan, thread, staleAfterMs, now);
  await store.setLiveClaimSummary(key, summary);
  for (const change of changes) await store.recordClaimChange(change);
}
