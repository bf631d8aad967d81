import { graceUntilOf } from '../../../claims/grace.js';
import type { ClaimComment } from '../../../claims/liveness.js';
import type { HalfMadeClaim } from '../../../claims/plan-abandon.js';
import { type ClaimPlan, planClaim } from '../../../claims/plan-claim.js';
import { planConfirm } from '../../../claims/plan-confirm.js';
import { refused, unverifiable } from '../../core/client-error.js';
import type { CommandResult } from '../../core/command-result.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import { applyActions } from '../../io/apply-actions.js';
import { describeFailure } from '../../io/describe-failure.js';
import type { Desk } from '../../io/desk.js';
import { type IssueState, readIssueState } from '../../io/issue-state.js';
import { viewIn } from '../replies/claim-view.js';
import { claimedResult } from '../replies/claimed-result.js';
import { closedRefusal } from '../replies/closed-refusal.js';
import { heldRefusal, inGraceRefusalOf } from '../replies/held-refusal.js';
import { abandonHalfMade } from './abandon-half-made.js';
import { abandonLosers } from './abandon-losers.js';
import type { ClaimRequest } from './claim-request.js';
import { resumeClaim } from './resume-claim.js';
import { reviewRefusal } from './review-gate.js';

/**
 * Claims an issue for a session (docs/protocol.md §1, §3 and §4;
 * docs/agents.md, "Commands": `claim`), writing what planClaim decides:
 * - refused, naming the holder, while another session holds a live claim;
 * - refused when the issue needs review, unless the login's stale claim sent it there (§17);
 * - resumed when the session already holds it (nothing rewritten; labels repaired);
 * - otherwise a new claim comment is posted (with a Takeover line when a stale claim is
 *   replaced, which is then finalised as abandoned), the in-progress label added and the
 *   account assigned, recording `assignee=claim` or `before`;
 * - then the thread is read back and planConfirm computes the holder again: a session that
 *   lost a race finalises its own comment as abandoned and is told the winner.
 * When the comment was written but a later step failed, the half-made claim is finalised as
 * abandoned and the labels it applied removed (docs/protocol.md §6).
 */
export async function claim(desk: Desk, request: ClaimRequest): Promise<CommandResult> {
  const { ref } = request;
  const name = formatIssueRef(ref);
  // Checked before the first read, so a refusal leaves nothing half-written.
  desk.guard.check(request.branch, 'the branch');
  const [state, login] = await Promise.all([readIssueState(desk, ref), desk.login()]);
  const plan = planClaim(state, { ...request, login }, desk, desk.now());
  switch (plan.kind) {
    case 'closed':
      throw closedRefusal(name, state.thread.stateReason);
    case 'resume':
      return resumeClaim(desk, state, plan, request);
    case 'held':
      throw await abandonLosers(desk, state, plan, false);
    case 'in-grace':
      throw inGraceRefusalOf(name, viewIn(state, plan.hold.claim), graceUntilOf(plan.hold.until));
    case 'post': {
      const inReview = reviewRefusal(state, login);
      if (inReview) throw inReview;
      return postClaim(desk, state, plan, login);
    }
  }
}

/** No live holder: post the planned claim, apply its writes, then confirm it. */
async function postClaim(
  desk: Desk,
  state: IssueState,
  plan: Extract<ClaimPlan, { kind: 'post' }>,
  login: string,
): Promise<CommandResult> {
  const name = formatIssueRef(state.ref);
  desk.guard.check(plan.comment.body, 'the claim comment');

  let posted: ClaimComment;
  try {
    const [comment] = (await applyActions(desk, state, [plan.comment])).posted;
    posted = { marker: plan.marker, comment: { ...comment!, author: comment!.author || login } };
  } catch (error) {
    throw unverifiable(
      `${name}: posting the claim comment failed; if GitHub kept it anyway, running claim again resumes it`,
      { issue: name },
      error,
    );
  }

  const written: HalfMadeClaim = {
    posted,
    takeover: plan.stale.length > 0,
    ...plan.changes,
    login,
  };
  let readback: IssueState;
  try {
    await applyActions(desk, state, plan.writes(posted.comment.id));
    readback = await readIssueState(desk, state.ref);
  } catch (error) {
    throw await abandonHalfMade(desk, state, written, describeFailure(error), { cause: error });
  }
  return confirm(desk, readback, written, plan.stale);
}

/** Writes what the read-back says: held, lost to an older claim, or not counted at all. */
async function confirm(
  desk: Desk,
  readback: IssueState,
  written: HalfMadeClaim,
  stale: readonly ClaimComment[],
): Promise<CommandResult> {
  const name = formatIssueRef(readback.ref);
  const id = written.posted.comment.id;
  const plan = planConfirm(readback, written, desk, desk.now());
  switch (plan.kind) {
    case 'held':
      return claimedResult(
        name,
        viewIn(readback, plan.mine),
        stale.map((claim) => viewIn(readback, claim)),
      );
    case 'untrusted':
      await abandonHalfMade(desk, readback, written, plan.cause, { actions: plan.actions });
      throw refused(`${name}: ${plan.cause}. The comment was finalised as abandoned.`, {
        issue: name,
        reason: 'untrusted',
        finalised: id,
      });
    case 'lost': {
      let cleanupFailed = false;
      try {
        await applyActions(desk, readback, plan.actions);
      } catch {
        cleanupFailed = true;
      }
      throw heldRefusal(readback, plan.holder, {
        lostRace: true,
        ...(cleanupFailed ? { cleanupFailed } : { finalised: id }),
      });
    }
    case 'unconfirmed':
      throw await abandonHalfMade(desk, readback, written, plan.what, { actions: plan.actions });
  }
}
