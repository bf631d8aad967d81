import type { IndexedClaim, IndexedEntry, IndexedIssue, Store } from '../store/store.js';

/**
 * docs/protocol.md §3 at read time: a claim past its `staleAt` is free at once, sweep or no
 * sweep, so the work queue and the board judge an indexed claim alike; with a grace (§17),
 * past its `graceUntil`. A person's claim without a `staleAt` does not expire (§16).
 */
export function isLiveClaim(claim: IndexedClaim | null, now: Date): claim is IndexedClaim {
  if (claim === null || claim.stage === 'released') return false;
  const until = ('graceUntil' in claim ? claim.graceUntil : undefined) ?? claim.staleAt;
  return until === null || Date.parse(until) > now.getTime();
}

/**
 * Whether an agent may take the issue as the index saw it: nobody holds it live and nobody
 * waits for it (docs/protocol.md §16: a waitlist is served before any agent).
 */
export function isFreeForAgents(entry: IndexedEntry, now: Date): boolean {
  return !isLiveClaim(entry.claim, now) && (entry.waitlist ?? []).length === 0;
}

/**
 * The live claims of the open-issue index as the last reconcile, API call or deferred
 * heartbeat recorded them, judged against `now` as the work queue judges them (an expired
 * claim is not live, sweep or no sweep). The claims board's rows (docs/protocol.md §14): no
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
