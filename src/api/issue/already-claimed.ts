import type { ClaimComment } from '../../claims/liveness.js';
import type { PersonHolder } from '../../claims/plan.js';
import { issueRef } from '../../keys.js';
import type { Holding } from '../../read-model/index-issue.js';
import { ApiError } from '../answers/api-error.js';
import { claimObject, personObject } from '../answers/serialise.js';
import type { IssueAtHand } from './on-issue.js';

/** 409 ISSUE_ALREADY_CLAIMED naming the holder and when to come back (docs/protocol.md §8). */
export function alreadyClaimed(
  at: IssueAtHand,
  holder: ClaimComment,
  finalised?: number,
): ApiError {
  const claim = claimObject(at.key, holder, at.config.staleAfterMs, at.config.graceMs);
  return new ApiError(
    409,
    'ISSUE_ALREADY_CLAIMED',
    `${issueRef(at.key)} is held by @${claim.author} (comment ${claim.commentId}, session ${claim.session}); wait until ${claim.staleAt} or pick another issue${abandoned(finalised)}`,
    {
      holder: claim,
      recovery: { action: 'wait', retryAt: claim.staleAt },
      ...(finalised ? { finalised } : {}),
    },
  );
}

/**
 * 409 ISSUE_ALREADY_CLAIMED for a person's claim (docs/protocol.md §16): `details.holder` is
 * the person's claim object; an agent never takes an issue from a person, so there is nothing
 * to wait for when the claim does not expire.
 */
function heldByPerson(at: IssueAtHand, holder: PersonHolder, finalised?: number): ApiError {
  const claim = personObject(at.key, holder, at.config);
  const until = claim.staleAt
    ? `wait until ${claim.staleAt} or pick another issue`
    : 'the claim does not expire: pick another issue';
  return new ApiError(
    409,
    'ISSUE_ALREADY_CLAIMED',
    `${issueRef(at.key)} is held by @${claim.author}, a person assigned since ${claim.started}; ${until}${abandoned(finalised)}`,
    {
      holder: claim,
      recovery: claim.staleAt
        ? { action: 'wait', retryAt: claim.staleAt }
        : { action: 'pick-another' },
      ...(finalised ? { finalised } : {}),
    },
  );
}

/**
 * 409 PEOPLE_WAITING: nobody holds the issue, but people asked for it with `/claim` and are
 * served first (docs/protocol.md §16), so no agent may take it meanwhile.
 */
function peopleWaiting(at: IssueAtHand, waitlist: readonly string[], finalised?: number): ApiError {
  const names = waitlist.map((login) => `@${login}`).join(', ');
  return new ApiError(
    409,
    'PEOPLE_WAITING',
    `people are waiting for ${issueRef(at.key)} (${names}): the first of them is assigned next, so an agent cannot take it; pick another issue${abandoned(finalised)}`,
    { waitlist, recovery: { action: 'pick-another' }, ...(finalised ? { finalised } : {}) },
  );
}

function abandoned(finalised: number | undefined): string {
  return finalised ? `; your comment ${finalised} was finalised as abandoned` : '';
}

/**
 * The refusal of an agent's claim on an issue a person holds or people wait for, or null;
 * `finalised`: the agent's comment, already written, that the app finalised for it.
 */
export function peopleRefusal(
  at: IssueAtHand,
  holding: Holding,
  finalised?: number,
): ApiError | null {
  if (holding.person) return heldByPerson(at, holding.person, finalised);
  if (holding.waitlist.length > 0) return peopleWaiting(at, holding.waitlist, finalised);
  return null;
}
