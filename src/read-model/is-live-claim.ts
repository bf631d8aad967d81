import type { IndexedClaim } from '../store/store.js';

/**
 * docs/protocol.md §3 at read time: a claim past its `staleAt` is free at once, sweep or no
 * sweep, so the work queue and the board judge an indexed claim alike.
 */
export function isLiveClaim(claim: IndexedClaim | null, now: Date): claim is IndexedClaim {
  return claim !== null && claim.stage !== 'released' && Date.parse(claim.staleAt) > now.getTime();
}
