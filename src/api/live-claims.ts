import type { IndexedClaim, IndexedIssue, Store } from '../store/store.js';
import { isLiveClaim } from './query-issues.js';

/**
 * The live claims of the index as the last reconcile or API call found them, judged against
 * `now` (an expired claim is not live, sweep or no sweep). For the claims board (§14): no
 * GitHub call; what each viewer may see is for the caller to filter.
 */
export async function liveClaims(
  store: Store,
  now: Date,
): Promise<Array<{ issue: IndexedIssue; claim: IndexedClaim }>> {
  const entries = await store.openIssues();
  const live: Array<{ issue: IndexedIssue; claim: IndexedClaim }> = [];
  for (const { issue, claim } of entries) if (isLiveClaim(claim, now)) live.push({ issue, claim });
  return live;
}
