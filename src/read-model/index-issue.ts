import type { Logger } from 'pino';
import type { ClaimComment } from '../claims/liveness.js';
import type { IssueMeta, IssueThread } from '../github/thread.js';
import type { IssueKey } from '../keys.js';
import { issueRef } from '../keys.js';
import type { Store } from '../store/store.js';
import { indexedClaimOf } from './indexed-claim-of.js';
import { indexedIssueOf } from './indexed-issue-of.js';

/**
 * Records what an API call just read back in the work queue's index (docs/protocol.md §9):
 * the issue (dropped once closed) and its holder. The index is derived state: a store error
 * is logged, not answered, as GitHub already holds the truth the caller is told.
 */
export async function indexIssue(
  deps: { store: Store; log: Logger },
  key: IssueKey,
  thread: IssueThread & { readonly meta: IssueMeta },
  holder: ClaimComment | null,
  staleAfterMs: number,
): Promise<void> {
  try {
    if (!thread.open) {
      await deps.store.dropOpenIssue(key);
      return;
    }
    await deps.store.putOpenIssue(indexedIssueOf(key, thread));
    await deps.store.setIssueClaim(key, holder ? indexedClaimOf(holder, staleAfterMs) : null);
  } catch (err) {
    deps.log.warn({ err, issue: issueRef(key) }, 'claims API: index not updated');
  }
}
