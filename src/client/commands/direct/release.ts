import {
  type ReleaseRequest as CoreReleaseRequest,
  planRelease,
  type ReleasePlan,
} from '../../../claims/plan-release.js';
import type { Outcome } from '../../../claims/types.js';
import { unverifiable } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import { formatIssueRef, type IssueRef } from '../../core/issue-ref.js';
import { applyActions } from '../../io/apply-actions.js';
import { describeFailure } from '../../io/describe-failure.js';
import type { Desk } from '../../io/desk.js';
import { type IssueState, readIssueState } from '../../io/issue-state.js';
import { describeClaim, viewIn } from '../replies/claim-view.js';
import { releaseSettled } from '../replies/release-settled.js';
import { refuseNotHeld } from './refuse-not-held.js';

/** A release request, validated by the command layer. */
export interface ReleaseRequest extends CoreReleaseRequest {
  readonly ref: IssueRef;
}

/**
 * Finalises the session's claim as planRelease decides (docs/protocol.md §3; docs/agents.md, "Commands": `release`): first the status
 * labels come off and, when the claim recorded `assignee=claim`, the account that wrote it is
 * unassigned (other assignees stay); then the comment is rewritten with stage `released` and
 * the outcome. Labels and assignee go first, so a failure leaves the claim live and a retried
 * release succeeds; a release whose comment is already released with that outcome reports
 * success. Works on closed issues and leaves the issue's state alone.
 */
export async function release(desk: Desk, request: ReleaseRequest): Promise<CommandResult> {
  if (request.note !== undefined) desk.guard.check(request.note, 'the note');
  const state = await readIssueState(desk, request.ref);
  const plan = planRelease(state, request, desk, desk.now());
  switch (plan.kind) {
    case 'already-released':
    case 'finalised':
      return releaseSettled(state, plan.claim, request.outcome, plan.kind === 'already-released');
    case 'not-holding':
    case 'lost':
      throw await refuseNotHeld(desk, state, plan);
    case 'release':
      return write(desk, state, plan, request.outcome);
  }
}

async function write(
  desk: Desk,
  state: IssueState,
  plan: Extract<ReleasePlan, { kind: 'release' }>,
  outcome: Outcome,
): Promise<CommandResult> {
  const name = formatIssueRef(state.ref);
  const id = plan.target.comment.id;
  try {
    await applyActions(desk, state, plan.actions);
  } catch (error) {
    throw unverifiable(
      `${name}: ${describeFailure(error)}; the claim in comment ${id} stays live, run release again`,
      { issue: name, commentId: id },
      error,
    );
  }
  let readback: IssueState;
  try {
    await applyActions(desk, state, [plan.comment]);
    readback = await readIssueState(desk, state.ref);
  } catch (error) {
    throw unverifiable(
      `${name}: ${describeFailure(error)}; run release again to finish (or confirm) the release of comment ${id}`,
      { issue: name, commentId: id },
      error,
    );
  }
  const released = readback.claims.find((claim) => claim.comment.id === id);
  if (released?.marker.stage !== 'released' || released.marker.outcome !== outcome) {
    throw unverifiable(
      `${name}: comment ${id} does not read back as released (${outcome}); run release again`,
      { issue: name, commentId: id },
    );
  }
  const view = viewIn(readback, released);
  return ok(`released ${name} (${outcome}): ${describeClaim(view)}`, {
    issue: name,
    action: 'released',
    claim: view,
  });
}
