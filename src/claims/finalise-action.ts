import { editClaimBody } from './claim-body.js';
import type { Claimant } from './claim-state.js';
import { releasedClaim } from './comment.js';
import type { ClaimComment } from './liveness.js';
import { ownClaimBody } from './own-claim-body.js';
import type { Action, FinaliseReason } from './plan.js';
import { taggedMarker } from './public-identity.js';
import type { Outcome } from './types.js';

/** What finalising one claim comment means. */
interface FinaliseSpec {
  readonly outcome: Outcome;
  /** The reason line, for people: "lost to the older claim in comment 12 (session h:…)". */
  readonly text: string;
  /**
   * True for the session's own comment: it is re-rendered with tagged identities before it is
   * finalised, so a legacy comment does not republish the session's plain name (which the
   * guard would refuse anyway). Another session's comment keeps its own text (docs/protocol.md
   * §4).
   */
  readonly own: boolean;
}

/**
 * The body of a finalised claim comment (docs/protocol.md §4): marker `stage=released` with
 * the outcome, `updated` = now, other keys kept; the `- Stage:` line rewritten and Outcome and
 * Reason lines appended, by the same edit decide() uses (editClaimBody).
 */
export function finalisedBody(
  claimant: Claimant,
  claim: ClaimComment,
  spec: FinaliseSpec,
  now: Date,
): string {
  const marker = spec.own ? taggedMarker(claim.marker, claimant.key) : claim.marker;
  const base = spec.own
    ? ownClaimBody(marker, {
        key: claimant.key,
        guard: claimant.guard,
        previousBody: claim.comment.body,
        keepNote: true,
      })
    : claim.comment.body;
  return editClaimBody(base, {
    marker: releasedClaim(marker, spec.outcome, now),
    reason: spec.text,
  });
}

/** The `finalise` action decide() emits, for one claim comment a session's plan finalises. */
export function finaliseAction(
  claimant: Claimant,
  claim: ClaimComment,
  spec: FinaliseSpec & { readonly reason: FinaliseReason },
  now: Date,
): Action {
  return {
    kind: 'finalise',
    commentId: claim.comment.id,
    body: finalisedBody(claimant, claim, spec, now),
    reason: spec.reason,
    outcome: spec.outcome,
  };
}
