import type { ClaimPlan } from '../../../claims/plan-claim.js';
import { publicIdentity } from '../../../claims/public-identity.js';
import { unverifiable } from '../../core/client-error.js';
import type { CommandResult } from '../../core/command-result.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import { applyActions } from '../../io/apply-actions.js';
import type { Desk } from '../../io/desk.js';
import type { IssueState } from '../../io/issue-state.js';
import { viewIn } from '../replies/claim-view.js';
import { resumedResult } from '../replies/resumed-result.js';
import type { ClaimRequest } from './claim-request.js';

/**
 * `claim` by the session that already holds the issue: nothing is rewritten (docs/agents.md,
 * "Commands": a resumed claim keeps what its comment records); the plan's repairs are written (the
 * labels and the assignee the claim recorded, the session's own newer live duplicates
 * finalised). A failure here keeps the claim live: it is never finalised as abandoned.
 */
export async function resumeClaim(
  desk: Desk,
  state: IssueState,
  plan: Extract<ClaimPlan, { kind: 'resume' }>,
  request: ClaimRequest,
): Promise<CommandResult> {
  const { holder } = plan;
  const name = formatIssueRef(state.ref);
  try {
    await applyActions(desk, state, plan.actions);
  } catch (error) {
    // Seed: a failed resume keeps the claim live; it is never finalised as abandoned.
    throw unverifiable(
      `${name}: this session holds the claim in comment ${holder.comment.id}, but repairing its labels or assignee failed; run claim again`,
      { issue: name, claim: viewIn(state, holder) },
      error,
    );
  }
  return resumedResult(
    name,
    viewIn(state, holder),
    request.branch,
    publicIdentity(desk.key, 'lane', request.lane),
  );
}
