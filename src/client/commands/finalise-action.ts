import { finaliseClaimBody, releasedClaim } from '../../claims/comment.js';
import type { Action, FinaliseReason } from '../../claims/decide.js';
import type { ClaimComment } from '../../claims/liveness.js';
import type { Outcome } from '../../claims/types.js';
import type { Desk } from '../io/desk.js';
import { ownClaimBody } from './own-claim-body.js';
import { taggedMarker } from './public-identity.js';

/** What finalising one claim comment means. */
export interface FinaliseSpec {
  readonly outcome: Outcome;
  /** The reason line, for people: "lost to the older claim in comment 12 (session h:…)". */
  readonly text: string;
  /**
   * True for the session's own comment: it is re-rendered with tagged identities before it is
   * finalised, so a legacy comment does not republish the session's plain name (which the
   * guard would refuse anyway). Another session's comment keeps its own text (SPEC §4).
   */
  readonly own: boolean;
}

/**
 * The body of a finalised claim comment (SPEC §4): marker `stage=released` with the outcome,
 * `updated` = now, other keys kept; the `- Stage:` line rewritten and Outcome and Reason
 * lines appended, by the same core functions the app uses.
 */
export function finalisedBody(desk: Desk, claim: ClaimComment, spec: FinaliseSpec): string {
  const marker = spec.own ? taggedMarker(claim.marker, desk.key) : claim.marker;
  const base = spec.own
    ? ownClaimBody(marker, {
        key: desk.key,
        guard: desk.guard,
        previousBody: claim.comment.body,
        keepNote: true,
      })
    : claim.comment.body;
  return finaliseClaimBody(base, releasedClaim(marker, spec.outcome, desk.now()), spec.text);
}

/** The app's `finalise` action for one claim comment, for applyActions. */
export function finaliseAction(
  desk: Desk,
  claim: ClaimComment,
  spec: FinaliseSpec & { readonly reason: FinaliseReason },
): Action {
  return {
    kind: 'finalise',
    commentId: claim.comment.id,
    body: finalisedBody(desk, claim, spec),
    reason: spec.reason,
    outcome: spec.outcome,
  };
}
