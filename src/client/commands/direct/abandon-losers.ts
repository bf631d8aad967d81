import type { Losers } from '../../../claims/plan-losers.js';
import type { ClientError } from '../../core/client-error.js';
import { applyActions } from '../../io/apply-actions.js';
import type { Desk } from '../../io/desk.js';
import type { IssueState } from '../../io/issue-state.js';
import { heldRefusal } from '../replies/held-refusal.js';

/**
 * Writes a planLosers plan (the session's own live claims that lost to the holder, finalised
 * as abandoned) and returns the refusal naming the holder, which says what was finalised.
 * When the writes fail the refusal stays true and says so: the app (or the next command)
 * finalises the comment later. `lostRace`: the session's claim lost a race it took part in.
 */
export async function abandonLosers(
  desk: Desk,
  state: IssueState,
  planned: Losers,
  lostRace: boolean,
): Promise<ClientError> {
  let cleanupFailed = false;
  try {
    await applyActions(desk, state, planned.actions);
  } catch {
    cleanupFailed = true;
  }
  const first = planned.losers[0];
  return heldRefusal(state, planned.holder, {
    ...(lostRace ? { lostRace } : {}),
    ...(first && !cleanupFailed ? { finalised: first.comment.id } : {}),
    cleanupFailed,
  });
}
