import { type Claimant, type ClaimState, hasLabel, isAssigned } from './claim-state.js';
import { foldText } from './comment.js';
import { finalisedBody } from './finalise-action.js';
import { type ClaimComment, isLive } from './liveness.js';
import { sameName } from './names.js';
import type { Action } from './plan.js';
import { type NotHeld, planLosers } from './plan-losers.js';
import { ownedBy } from './public-identity.js';
import type { Outcome } from './types.js';

/** A release request: the session and how its work ended. */
export interface ReleaseRequest {
  readonly session: string;
  readonly outcome: Outcome;
  readonly note?: string | undefined;
}

/** What releasing a session's claim comes to, read off one state. */
export type ReleasePlan =
  /** The session's latest claim is released with this outcome already: a retry, done. */
  | { readonly kind: 'already-released'; readonly claim: ClaimComment }
  /** The session's latest claim was finalised with another outcome: nothing to release. */
  | { readonly kind: 'finalised'; readonly claim: ClaimComment }
  /** The session holds no claim to write, or its live claims lost to another session's. */
  | NotHeld
  /**
   * Release `target`: first `actions` take the status labels off and the assignment the
   * claim made back, then `comment` finalises the session's comment (its own write). Labels
   * go first, so a failure leaves the claim live and a retried release succeeds.
   */
  | {
      readonly kind: 'release';
      readonly target: ClaimComment;
      readonly actions: readonly Action[];
      readonly comment: Extract<Action, { kind: 'edit-claim' }>;
    };

/**
 * Releasing the session's claim (docs/protocol.md §3; docs/agents.md, "Commands": `release`): its holder claim, or else its latest
 * unreleased one. The status labels come off unless another session holds the issue; the
 * account that wrote the claim is unassigned when it recorded `assignee=claim` (other
 * assignees stay); the comment is rewritten with stage `released` and the outcome. Works on
 * closed issues and leaves the state alone. Pure: state, request, claimant and clock in.
 */
export function planRelease(
  state: ClaimState,
  request: ReleaseRequest,
  claimant: Claimant,
  now: Date,
): ReleasePlan {
  const own = ownedBy(claimant.key, request.session);
  const ownClaims = state.claims.filter(own);
  const { holder } = state;
  const target =
    holder && own(holder)
      ? holder
      : ownClaims.filter((claim) => claim.marker.stage !== 'released').at(-1);
  if (!target) {
    const latest = ownClaims.at(-1);
    if (latest && latest.marker.outcome === request.outcome) {
      return { kind: 'already-released', claim: latest };
    }
    return latest ? { kind: 'finalised', claim: latest } : { kind: 'not-holding', own: ownClaims };
  }

  const otherHolder = holder !== null && holder !== target ? holder : null;
  if (otherHolder && isLive(target, state.thread.open, state.config.staleAfterMs, state.now)) {
    // A live own comment that is not the holder lost a race (docs/protocol.md §4:
    // a live claim that is not the holder is finalised; docs/agents.md, "Races, in short").
    return { kind: 'lost', ...planLosers(state, otherHolder, own, claimant, now) };
  }

  const { labels } = state.config;
  const author = target.comment.author;
  const actions: Action[] = [];
  // Another live holder keeps its labels; this (stale) claim is released on its own.
  if (!otherHolder) {
    for (const label of [labels.inProgress, labels.blocked]) {
      if (hasLabel(state, label)) actions.push({ kind: 'remove-label', label });
    }
  }
  const holderIsAuthor = otherHolder !== null && sameName(otherHolder.comment.author, author);
  if (target.marker.assignee === 'claim' && isAssigned(state, author) && !holderIsAuthor) {
    actions.push({ kind: 'unassign', login: author });
  }
  const note = request.note === undefined ? '' : foldText(request.note);
  const text = note === '' ? 'released by its session' : `released by its session: ${note}`;
  const body = finalisedBody(claimant, target, { own: true, outcome: request.outcome, text }, now);
  return {
    kind: 'release',
    target,
    actions,
    comment: { kind: 'edit-claim', commentId: target.comment.id, body },
  };
}
