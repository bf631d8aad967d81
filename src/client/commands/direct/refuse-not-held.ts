import type { NotHeld } from '../../../claims/plan-losers.js';
import type { ClientError } from '../../core/client-error.js';
import type { Desk } from '../../io/desk.js';
import type { IssueState } from '../../io/issue-state.js';
import { notHolding } from '../replies/not-holding.js';
import { abandonLosers } from './abandon-losers.js';

/**
 * The refusal of a status or release by a session that does not hold the issue, telling it
 * why (notHolding); when its live claims lost to another session's, they are finalised
 * first and the refusal names the holder (docs/protocol.md §4).
 */
export async function refuseNotHeld(
  desk: Desk,
  state: IssueState,
  plan: NotHeld,
): Promise<ClientError> {
  return plan.kind === 'lost'
    ? abandonLosers(desk, state, plan, true)
    : notHolding(state, plan.own);
}
