import { type ClaimComment, isLive } from '../../../claims/liveness.js';
import { planLosers } from '../../../claims/plan-losers.js';
import {
  type StatusRequest as CoreStatusRequest,
  planStatus,
  type StatusPlan,
} from '../../../claims/plan-status.js';
import { ownedBy } from '../../../claims/public-identity.js';
import { refused, unverifiable } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import { formatIssueRef, type IssueRef } from '../../core/issue-ref.js';
import { applyActions } from '../../io/apply-actions.js';
import { describeFailure } from '../../io/describe-failure.js';
import type { Desk } from '../../io/desk.js';
import { type IssueState, readIssueState } from '../../io/issue-state.js';
import { describeClaim, viewIn } from '../replies/claim-view.js';
import { notHolding } from '../replies/not-holding.js';
import { abandonLosers } from './abandon-losers.js';
import { refuseNotHeld } from './refuse-not-held.js';

/** A status request: without a stage it only reports. Validated by the command layer. */
export interface StatusRequest extends CoreStatusRequest {
  readonly ref: IssueRef;
}

/**
 * Records a stage on the session's own claim, editing its comment in place, or, without a
 * stage, reports the claim and writes nothing; planStatus decides which. A session that does
 * not hold the issue is refused and told why: taken over, released, stale, or held by another
 * session; a live own comment that lost to an older claim is finalised as abandoned on the way
 * (docs/protocol.md §4; docs/agents.md, "Races, in short").
 */
export async function status(desk: Desk, request: StatusRequest): Promise<CommandResult> {
  if (request.note !== undefined) desk.guard.check(request.note, 'the note');
  const state = await readIssueState(desk, request.ref);
  const plan = planStatus(state, request, desk, desk.now());
  switch (plan.kind) {
    case 'report':
      return report(state, plan.holder);
    case 'not-holding':
    case 'lost':
      throw await refuseNotHeld(desk, state, plan);
    case 'update':
      return update(desk, state, plan, request);
  }
}

function report(state: IssueState, holder: ClaimComment): CommandResult {
  const view = viewIn(state, holder);
  return ok(
    `${formatIssueRef(state.ref)}: this session holds it: ${describeClaim(view)}; stale at ${view.staleAt} without an update`,
    {
      issue: formatIssueRef(state.ref),
      action: 'reported',
      claim: view,
    },
  );
}

async function update(
  desk: Desk,
  state: IssueState,
  plan: Extract<StatusPlan, { kind: 'update' }>,
  request: StatusRequest,
): Promise<CommandResult> {
  const name = formatIssueRef(state.ref);
  const id = plan.holder.comment.id;
  const stage = request.stage!;
  desk.guard.check(plan.comment.body, 'the claim comment');
  try {
    await applyActions(desk, state, [plan.comment]);
  } catch (error) {
    throw unverifiable(
      `${name}: recording stage ${stage} failed: ${describeFailure(error)}`,
      { issue: name },
      error,
    );
  }

  let readback: IssueState;
  try {
    await applyActions(desk, state, plan.actions);
    readback = await readIssueState(desk, state.ref);
  } catch (error) {
    // The stage is recorded; labels converge on the next update (writes are idempotent).
    throw unverifiable(
      `${name}: stage ${stage} was recorded in comment ${id}, but ${describeFailure(error)}; run status again`,
      { issue: name, commentId: id },
      error,
    );
  }

  const own = ownedBy(desk.key, request.session);
  const mine = readback.claims.find((claim) => claim.comment.id === id);
  if (mine && readback.holder === mine && mine.marker.stage === stage) {
    const view = viewIn(readback, mine);
    return ok(`${name}: stage ${stage} recorded: ${describeClaim(view)}`, {
      issue: name,
      action: 'updated',
      claim: view,
    });
  }
  // Read-back shows the edit raced a takeover or a finalisation (docs/agents.md,
  // "Races, in short"): the session no longer holds the issue and is told so.
  const ownNow = readback.claims.filter(own);
  const { holder } = readback;
  if (
    mine &&
    holder &&
    mine !== holder &&
    isLive(mine, readback.thread.open, readback.config.staleAfterMs, readback.now)
  ) {
    const planned = planLosers(readback, holder, own, desk, desk.now());
    throw await abandonLosers(desk, readback, planned, true);
  }
  if (!mine && !readback.thread.comments.some((c) => c.id === id)) {
    throw refused(`${name}: this session's claim comment ${id} was deleted`, {
      issue: name,
      reason: 'deleted',
    });
  }
  throw notHolding(readback, ownNow);
}
