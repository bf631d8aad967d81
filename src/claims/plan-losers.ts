import type { Claimant, ClaimState } from './claim-state.js';
import { finaliseAction } from './finalise-action.js';
import { type ClaimComment, isLive } from './liveness.js';
import { lostTo } from './lost-to.js';
import type { Action } from './plan.js';

/** The session's own live claims that lost to `holder`, and the actions finalising them. */
export interface Losers {
  readonly holder: ClaimComment;
  readonly losers: readonly ClaimComment[];
  readonly actions: readonly Action[];
}

/**
 * Why a session's status or release writes nothing of its own: it does not hold the issue
 * (`own` are its claims, for telling it why), or another session holds it and this one's
 * live claims lost (`actions` finalise them).
 */
export type NotHeld =
  | { readonly kind: 'not-holding'; readonly own: readonly ClaimComment[] }
  | ({ readonly kind: 'lost' } & Losers);

/**
 * A session's own live claims that are not the holder, finalised as abandoned (docs/protocol.md §3
 * and §4): a race it lost, or an earlier run's duplicate. The reason
 * names the holder, as decide() does for any losing claim, unless `text` says otherwise.
 */
export function planLosers(
  state: ClaimState,
  holder: ClaimComment,
  own: (claim: ClaimComment) => boolean,
  claimant: Claimant,
  now: Date,
  text = lostTo(holder),
): Losers {
  const losers = state.claims.filter(
    (claim) =>
      claim !== holder &&
      own(claim) &&
      isLive(claim, state.thread.open, state.config.staleAfterMs, state.now),
  );
  const actions = losers.map((claim) =>
    finaliseAction(claimant, claim, { own: true, outcome: 'abandoned', reason: 'lost', text }, now),
  );
  return { holder, losers, actions };
}
