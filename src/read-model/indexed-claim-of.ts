import type { ClaimComment } from '../claims/liveness.js';
import { formatClaimTime } from '../claims/marker.js';
import type { PersonHolder } from '../claims/plan.js';
import { claimFieldsOf, personClaimFieldsOf } from '../claims/public-claim.js';
import type { IndexedClaim } from '../store/store.js';

/**
 * A holder's comment as the index keeps it: its public facts (with `grace`, docs/protocol.md
 * §17, its `graceUntil`), its avatar, its order key.
 */
export function indexedClaimOf(
  claim: ClaimComment,
  staleAfterMs: number,
  graceMs = 0,
): IndexedClaim {
  return {
    ...claimFieldsOf(claim, staleAfterMs, graceMs),
    ...(claim.comment.avatarUrl ? { avatarUrl: claim.comment.avatarUrl } : {}),
    commentUpdatedAt: formatClaimTime(claim.comment.updatedAt),
  };
}

/**
 * A person's assignment as the index keeps it (docs/protocol.md §16), judged by the window of
 * `people.staleAfter`. No comment is renewed by a webhook for it (a reconcile records each
 * heartbeat), so its order key is the heartbeat.
 */
export function indexedPersonOf(holder: PersonHolder, staleAfterMs: number): IndexedClaim {
  const fields = personClaimFieldsOf(holder, staleAfterMs);
  return { ...fields, commentUpdatedAt: fields.heartbeat };
}
