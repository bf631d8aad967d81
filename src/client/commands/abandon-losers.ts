import { type ClaimComment, isLive } from '../../claims/liveness.js';
import { applyActions } from '../io/apply-actions.js';
import type { Desk } from '../io/desk.js';
import type { IssueState } from '../io/issue-state.js';
import { finaliseAction } from './finalise-action.js';

/**
 * Seed "Refusal, takeover and the stale window": a session owning a live comment that is not
 * the holder finalises it as abandoned, naming the holder. Returns the ids finalised, or
 * null when the writes failed: the refusal that follows stays true either way, and the app
 * (or the next command) finalises the comment later.
 */
export async function abandonLosers(
  desk: Desk,
  state: IssueState,
  holder: ClaimComment,
  own: (claim: ClaimComment) => boolean,
): Promise<number[] | null> {
  const losers = state.claims.filter(
    (claim) =>
      claim !== holder &&
      own(claim) &&
      isLive(claim, state.thread.open, state.config.staleAfterMs, state.now),
  );
  try {
    await applyActions(
      desk,
      state,
      losers.map((claim) =>
        finaliseAction(desk, claim, {
          own: true,
          outcome: 'abandoned',
          reason: 'lost',
          text: `lost to the older claim in comment ${holder.comment.id} (session ${holder.marker.session})`,
        }),
      ),
    );
  } catch {
    return null;
  }
  return losers.map((claim) => claim.comment.id);
}
