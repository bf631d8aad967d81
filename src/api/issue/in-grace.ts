import { type GraceHold, graceUntilOf } from '../../claims/grace.js';
import { issueRef } from '../../keys.js';
import { ApiError } from '../answers/api-error.js';
import { claimObject } from '../answers/serialise.js';
import type { IssueAtHand } from './on-issue.js';

/**
 * 409 IN_GRACE (docs/protocol.md §17 "Grace for the owner"): the issue's stale claim still holds
 * it for its own session until `retryAt`, the end of the grace; `details.holder` is that claim.
 * `finalised`: the caller's comment, already written, that the app finalised for it.
 */
export function inGrace(at: IssueAtHand, hold: GraceHold, finalised?: number): ApiError {
  const { staleAfterMs, graceMs } = at.config;
  const claim = claimObject(at.key, hold.claim, staleAfterMs, graceMs);
  const retryAt = graceUntilOf(hold.until);
  const yours = finalised ? `; your comment ${finalised} was finalised as abandoned` : '';
  return new ApiError(
    409,
    'IN_GRACE',
    `${issueRef(at.key)} is in grace for @${hold.claim.comment.author}'s session (comment ${hold.claim.comment.id}, session ${hold.claim.marker.session}), stale since ${claim.staleAt}: only that session may claim it again until ${retryAt}; wait until then or pick another issue${yours}`,
    {
      holder: claim,
      recovery: { action: 'wait', retryAt },
      ...(finalised ? { finalised } : {}),
    },
  );
}
