import type { ClaimComment } from '../claims/liveness.js';
import { formatClaimTime } from '../claims/marker.js';
import { claimFieldsOf } from '../claims/public-claim.js';
import type { IndexedClaim } from '../store/store.js';

/** A holder's comment as the index keeps it: its public facts, its avatar, its order key. */
export function indexedClaimOf(claim: ClaimComment, staleAfterMs: number): IndexedClaim {
  return {
    ...claimFieldsOf(claim, staleAfterMs),
    ...(claim.comment.avatarUrl ? { avatarUrl: claim.comment.avatarUrl } : {}),
    commentUpdatedAt: formatClaimTime(claim.comment.updatedAt),
  };
}
