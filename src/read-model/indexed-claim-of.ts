import { type ClaimComment, heartbeat } from '../claims/liveness.js';
import { formatClaimTime } from '../claims/marker.js';
import { pathLineOf } from '../claims/paths.js';
import type { IndexedClaim } from '../store/store.js';

/**
 * The first whole second at which a claim with this heartbeat is stale: docs/protocol.md §3,
 * exactly one window old is still live, one second more is stale.
 */
export function staleAtOf(beat: Date, staleAfterMs: number): string {
  return formatClaimTime(new Date(beat.getTime() + staleAfterMs + 1000));
}

/** A claim comment as the index keeps it: its marker, its valid path line, its author. */
export function indexedClaimOf(
  claim: ClaimComment,
  staleAfterMs: number,
  outcome?: string,
): IndexedClaim & { outcome?: string } {
  const beat = heartbeat(claim);
  const line = pathLineOf(claim.comment.body);
  return {
    commentId: claim.comment.id,
    url: claim.comment.url ?? '',
    author: claim.comment.author,
    session: claim.marker.session,
    lane: claim.marker.lane,
    branch: claim.marker.branch,
    stage: claim.marker.stage,
    started: formatClaimTime(claim.marker.started),
    updated: formatClaimTime(claim.marker.updated),
    heartbeat: formatClaimTime(beat),
    staleAt: staleAtOf(beat, staleAfterMs),
    ...(claim.marker.assignee ? { assignee: claim.marker.assignee } : {}),
    ...(line.kind === 'valid' ? { paths: line.paths } : {}),
    ...(claim.comment.avatarUrl ? { avatarUrl: claim.comment.avatarUrl } : {}),
    commentUpdatedAt: formatClaimTime(claim.comment.updatedAt),
    ...(outcome ? { outcome } : {}),
  };
}
