import type { ClaimComment } from '../../../claims/liveness.js';
import type { Outcome } from '../../../claims/types.js';
import { refused } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import type { IssueState } from '../../io/issue-state.js';
import { describeClaim, viewIn } from './claim-view.js';

/**
 * The answer of a release whose claim is already finalised: done, when it was released with
 * this outcome (a retry after the comment was written); otherwise refused, naming the outcome
 * it has. The same in direct and API mode.
 */
export function releaseSettled(
  state: IssueState,
  claim: ClaimComment,
  outcome: Outcome,
  done: boolean,
): CommandResult {
  const name = formatIssueRef(state.ref);
  const view = viewIn(state, claim);
  if (done) {
    return ok(`${name}: already released (${outcome}): ${describeClaim(view)}`, {
      issue: name,
      action: 'already-released',
      claim: view,
    });
  }
  throw refused(
    `${name}: this session's claim in comment ${claim.comment.id} was already finalised (${claim.marker.outcome ?? 'released'}), not ${outcome}`,
    { issue: name, reason: 'released', own: view },
  );
}
