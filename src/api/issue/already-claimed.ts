import type { ClaimComment } from '../../claims/liveness.js';
import { issueRef } from '../../keys.js';
import { ApiError } from '../answers/api-error.js';
import { claimObject } from '../answers/serialise.js';
import type { IssueAtHand } from './on-issue.js';

/** 409 ISSUE_ALREADY_CLAIMED naming the holder and when to come back (docs/protocol.md §8). */
export function alreadyClaimed(
  at: IssueAtHand,
  holder: ClaimComment,
  finalised?: number,
): ApiError {
  const claim = claimObject(at.key, holder, at.config.staleAfterMs);
  return new ApiError(
    409,
    'ISSUE_ALREADY_CLAIMED',
    `${issueRef(at.key)} is held by @${claim.author} (comment ${claim.commentId}, session ${claim.session}); wait until ${claim.staleAt} or pick another issue${finalised ? `; your comment ${finalised} was finalised as abandoned` : ''}`,
    {
      holder: claim,
      recovery: { action: 'wait', retryAt: claim.staleAt },
      ...(finalised ? { finalised } : {}),
    },
  );
}
