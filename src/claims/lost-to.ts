import type { ClaimComment } from './liveness.js';

/**
 * The reason line of a claim finalised because `holder` holds the issue (docs/protocol.md §3),
 * worded the same whether the app or a session writes it.
 */
export function lostTo(holder: ClaimComment): string {
  return `lost to the older claim in comment ${holder.comment.id} (session ${holder.marker.session})`;
}
