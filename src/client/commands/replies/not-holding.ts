import { type ClaimComment, isStale } from '../../../claims/liveness.js';
import { type ClientError, refused } from '../../core/client-error.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import type { IssueState } from '../../io/issue-state.js';
import { claimView, describeClaim } from './claim-view.js';

/** Why a session does not hold an issue, as reported in `data.reason`. */
type NotHoldingReason = 'taken-over' | 'held' | 'released' | 'stale' | 'closed' | 'none';

/**
 * The refusal for a session that does not hold the issue (status, release), telling it why:
 * its claim was taken over (docs/agents.md, "Races, in short": it learns that at its next
 * update), another session holds it, its claim was released or went stale, the issue
 * is closed, or it never claimed it.
 */
export function notHolding(state: IssueState, ownClaims: readonly ClaimComment[]): ClientError {
  const name = formatIssueRef(state.ref);
  const { open } = state.thread;
  const window = state.config.staleAfterMs;
  const view = (claim: ClaimComment) => claimView(claim, open, window, state.now);
  const latest = ownClaims.at(-1);
  const holder = state.holder;
  let reason: NotHoldingReason;
  let message: string;
  // An own claim older than the holder held the issue once; unless its session let it go
  // (landed, handed over), a newer claim replaced it.
  const replaced =
    holder !== null &&
    latest !== undefined &&
    latest.comment.id < holder.comment.id &&
    (latest.marker.outcome === undefined || latest.marker.outcome === 'abandoned');
  if (replaced) {
    reason = 'taken-over';
    message = `${name}: this session's claim in comment ${latest!.comment.id} was taken over; the issue is held by ${describeClaim(view(holder!))}`;
  } else if (holder) {
    reason = 'held';
    message = `${name} is held by another session: ${describeClaim(view(holder))}`;
  } else if (latest?.marker.stage === 'released') {
    reason = 'released';
    message = `${name}: this session's claim in comment ${latest.comment.id} was released (${latest.marker.outcome ?? 'no outcome'}); claim the issue again to go on`;
  } else if (latest && !open) {
    reason = 'closed';
    message = `${name} is closed, so this session's claim in comment ${latest.comment.id} is not live; release it`;
  } else if (latest && isStale(latest, window, state.now)) {
    reason = 'stale';
    message = `${name}: this session's claim in comment ${latest.comment.id} went stale at ${view(latest).staleAt}; run claim to take the issue again`;
  } else if (!open) {
    reason = 'closed';
    message = `${name} is closed and this session holds no claim on it`;
  } else {
    reason = 'none';
    message = `${name}: this session holds no claim on it`;
  }
  return refused(message, {
    issue: name,
    reason,
    ...(holder ? { holder: view(holder) } : {}),
    ...(latest ? { own: view(latest) } : {}),
  });
}
