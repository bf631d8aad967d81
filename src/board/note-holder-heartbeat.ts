import { heartbeat } from '../claims/liveness.js';
import { parseClaimMarker } from '../claims/marker.js';
import type { LiveClaimSummary } from '../store/board-records.js';
import type { IssueKey, Store } from '../store/store.js';

/** The holder's comment as an `issue_comment.edited` webhook carries it. */
export interface EditedComment {
  readonly id: number;
  readonly body: string;
  readonly updatedAt: Date;
}

/**
 * The board row after a heartbeat (or stage change) of its holder, or null when the edit is
 * not one: another comment, no marker, or a release (a reconcile records those). The stale
 * window is the row's own (staleAt minus heartbeat), so no config is read.
 */
export function withHeartbeat(
  summary: LiveClaimSummary,
  comment: EditedComment,
): LiveClaimSummary | null {
  if (comment.id !== summary.commentId) return null;
  const marker = parseClaimMarker(comment.body);
  if (!marker || marker.stage === 'released') return null;
  const beat = heartbeat({
    marker,
    comment: {
      id: comment.id,
      author: summary.holder,
      authorAssociation: '',
      body: comment.body,
      createdAt: comment.updatedAt,
      updatedAt: comment.updatedAt,
    },
  });
  const window = Date.parse(summary.staleAt) - Date.parse(summary.heartbeat);
  return {
    ...summary,
    stage: marker.stage,
    heartbeat: beat.toISOString(),
    staleAt: new Date(beat.getTime() + window).toISOString(),
  };
}

/**
 * Moves the board row's heartbeat when the holder's heartbeat is left to the sweep (it costs
 * no reconcile, docs/api-budget.md), so the board does not show a busy claim as about to go
 * stale. Reads and writes the store only.
 */
export async function noteHolderHeartbeat(
  store: Store,
  key: IssueKey,
  comment: EditedComment,
): Promise<void> {
  const summary = await store.liveClaimSummary(key);
  const next = summary ? withHeartbeat(summary, comment) : null;
  if (next) await store.setLiveClaimSummary(key, next);
}
