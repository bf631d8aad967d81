import { heartbeat, isStale } from '../claims/liveness.js';
import { formatClaimTime, parseClaimMarker } from '../claims/marker.js';
import { staleAtOf } from '../claims/public-claim.js';
import type { IssueKey } from '../keys.js';
import type { IndexedClaim, Store } from '../store/store.js';

/** The holder's comment as an `issue_comment.edited` webhook carries it. */
interface EditedComment {
  readonly id: number;
  readonly body: string;
  readonly updatedAt: Date;
}

/**
 * The indexed claim after a heartbeat (or stage change) of its comment, or null when the edit
 * is not one: another comment, no marker, a release, or a marker stale when written (a
 * reconcile records those). The stale window is the claim's own (staleAt minus heartbeat, as
 * staleAtOf wrote it), so no config is read.
 */
export function withHeartbeat(claim: IndexedClaim, comment: EditedComment): IndexedClaim | null {
  if (comment.id !== claim.commentId) return null;
  const marker = parseClaimMarker(comment.body);
  if (!marker || marker.stage === 'released') return null;
  const staleAfterMs = Date.parse(claim.staleAt) - Date.parse(claim.heartbeat) - 1000;
  const edited = {
    marker,
    comment: {
      id: comment.id,
      author: claim.author,
      authorAssociation: '',
      body: comment.body,
      createdAt: comment.updatedAt,
      updatedAt: comment.updatedAt,
    },
  };
  // Stale as written (an old `updated`, or docs/protocol.md §3's clock-skew cap): no renewal.
  if (isStale(edited, staleAfterMs, comment.updatedAt)) return null;
  const beat = heartbeat(edited);
  return {
    ...claim,
    stage: marker.stage,
    updated: formatClaimTime(marker.updated),
    heartbeat: formatClaimTime(beat),
    staleAt: staleAtOf(beat, staleAfterMs),
    // docs/protocol.md §17: the grace, kept as the gap between the two, moves with the window.
    ...(claim.graceUntil
      ? {
          graceUntil: staleAtOf(
            beat,
            staleAfterMs + Date.parse(claim.graceUntil) - Date.parse(claim.staleAt),
          ),
        }
      : {}),
    commentUpdatedAt: formatClaimTime(comment.updatedAt),
  };
}

/**
 * Moves the indexed claim's heartbeat when the holder's heartbeat is left to the sweep (it
 * costs no reconcile, docs/api-budget.md), so neither the work queue nor the board shows a
 * busy claim as about to go stale. Reads and writes the store only; the store records it only
 * over an older read of the same comment, so it never undoes a reconcile.
 */
export async function indexHeartbeat(
  store: Store,
  key: IssueKey,
  comment: EditedComment,
): Promise<void> {
  const claim = await store.issueClaim(key);
  const next = claim ? withHeartbeat(claim, comment) : null;
  if (next) await store.renewIssueClaim(key, next);
}
