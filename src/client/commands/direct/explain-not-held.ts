import { planRelease } from '../../../claims/plan-release.js';
import { ownedBy } from '../../../claims/public-identity.js';
import type { Outcome } from '../../../claims/types.js';
import type { ClientError } from '../../core/client-error.js';
import type { CommandResult } from '../../core/command-result.js';
import type { IssueRef } from '../../core/issue-ref.js';
import type { Desk } from '../../io/desk.js';
import { type IssueState, readIssueState } from '../../io/issue-state.js';
import { notHolding } from '../replies/not-holding.js';
import { releaseSettled } from '../replies/release-settled.js';

/**
 * Why a session does not hold an issue the API says it does not hold, told as direct mode
 * tells it: the thread is read (reads only: the app has already finalised what lost) and the
 * same notHolding answers taken over, released, stale, closed or held by another. A release
 * whose claim is already released with that outcome is done, as in direct mode, so a retried
 * release succeeds in both modes. When the thread cannot be read, or it disagrees with the app
 * (the session's claim reads as the holder), the app's refusal stands: the app is the
 * authority in API mode, and nothing is ever reported as held on a guess.
 */
export async function explainNotHeld(
  desk: Desk,
  ref: IssueRef,
  session: string,
  fallback: ClientError,
  releasing?: Outcome,
): Promise<CommandResult> {
  let state: IssueState;
  try {
    state = await readIssueState(desk, ref);
  } catch {
    throw fallback;
  }
  if (releasing !== undefined) {
    const plan = planRelease(state, { session, outcome: releasing }, desk, desk.now());
    if (plan.kind === 'already-released' || plan.kind === 'finalised') {
      return releaseSettled(state, plan.claim, releasing, plan.kind === 'already-released');
    }
  }
  const own = ownedBy(desk.key, session);
  if (state.holder && own(state.holder)) throw fallback;
  throw notHolding(state, state.claims.filter(own));
}
