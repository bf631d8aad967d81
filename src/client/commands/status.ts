import type { Action } from '../../claims/decide.js';
import { type ClaimComment, isLive } from '../../claims/liveness.js';
import type { Stage } from '../../claims/types.js';
import { applyActions, hasLabel } from '../io/apply-actions.js';
import { describeFailure } from '../io/describe-failure.js';
import type { Desk } from '../io/desk.js';
import { type IssueState, readIssueState } from '../io/issue-state.js';
import { abandonLosers } from './abandon-losers.js';
import { describeClaim, viewIn } from './claim-view.js';
import { refused, unverifiable } from './client-error.js';
import { type CommandResult, ok } from './command-result.js';
import { finaliseAction } from './finalise-action.js';
import { heldRefusal } from './held-refusal.js';
import { formatIssueRef, type IssueRef } from './issue-ref.js';
import { notHolding } from './not-holding.js';
import { ownClaimBody } from './own-claim-body.js';
import { ownedBy, taggedMarker } from './public-identity.js';

/** A status request: without a stage it only reports. Validated by the command layer. */
export interface StatusRequest {
  readonly ref: IssueRef;
  readonly session: string;
  /** Any stage but `released` (that is release's). */
  readonly stage?: Stage | undefined;
  readonly note?: string | undefined;
}

/**
 * Records a stage on the session's own claim, editing its comment in place (seed: "every
 * later stage of the session edits it in place"), or, without a stage, reports the claim and
 * writes nothing. `blocked` adds the blocked label, any other stage removes it. A session
 * that does not hold the issue is refused and told why: taken over, released, stale, or held
 * by another session; a live own comment that lost to an older claim is finalised as
 * abandoned on the way (seed: NonHolderStatusAndReleaseFinalisesComment).
 */
export async function status(desk: Desk, request: StatusRequest): Promise<CommandResult> {
  if (request.note !== undefined) desk.guard.check(request.note, 'the note');
  const state = await readIssueState(desk, request.ref);
  const own = ownedBy(desk.key, request.session);
  const ownClaims = state.claims.filter(own);
  const { holder } = state;
  const holds = holder !== null && own(holder);
  if (request.stage === undefined) {
    // Read-only (seed): report the holder, change nothing, not even a losing comment.
    if (holds) return report(state, holder);
    throw notHolding(state, ownClaims);
  }
  if (!holds) {
    if (holder) {
      const finalised = await abandonLosers(desk, state, holder, own);
      if (finalised === null || finalised.length > 0) {
        throw heldRefusal(state, holder, {
          lostRace: true,
          ...(finalised?.length ? { finalised: finalised[0]! } : {}),
          cleanupFailed: finalised === null,
        });
      }
    }
    throw notHolding(state, ownClaims);
  }
  return update(desk, state, holder, own, request.stage, request.note);
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
  holder: ClaimComment,
  own: (claim: ClaimComment) => boolean,
  stage: Stage,
  note: string | undefined,
): Promise<CommandResult> {
  const name = formatIssueRef(state.ref);
  const id = holder.comment.id;
  const marker = { ...taggedMarker(holder.marker, desk.key), stage, updated: desk.now() };
  // A note describes this stage, so a stage without one drops the previous note.
  const body = ownClaimBody(marker, {
    key: desk.key,
    guard: desk.guard,
    previousBody: holder.comment.body,
    note,
  });
  desk.guard.check(body, 'the claim comment');
  try {
    await desk.octokit.rest.issues.updateComment({
      owner: state.ref.owner,
      repo: state.ref.repo,
      comment_id: id,
      body,
    });
  } catch (error) {
    throw unverifiable(
      `${name}: recording stage ${stage} failed: ${describeFailure(error)}`,
      { issue: name },
      error,
    );
  }

  const { labels } = state.config;
  const actions: Action[] = [];
  for (const claim of state.claims) {
    if (
      claim !== holder &&
      own(claim) &&
      isLive(claim, true, state.config.staleAfterMs, state.now)
    ) {
      actions.push(
        finaliseAction(desk, claim, {
          own: true,
          outcome: 'abandoned',
          reason: 'lost',
          text: `a duplicate of this session's older claim in comment ${id}`,
        }),
      );
    }
  }
  if (!hasLabel(state, labels.inProgress))
    actions.push({ kind: 'add-label', label: labels.inProgress, role: 'inProgress' });
  const blocked = stage === 'blocked';
  if (blocked && !hasLabel(state, labels.blocked))
    actions.push({ kind: 'add-label', label: labels.blocked, role: 'blocked' });
  if (!blocked && hasLabel(state, labels.blocked))
    actions.push({ kind: 'remove-label', label: labels.blocked });
  let readback: IssueState;
  try {
    await applyActions(desk, state, actions);
    readback = await readIssueState(desk, state.ref);
  } catch (error) {
    // The stage is recorded; labels converge on the next update (writes are idempotent).
    throw unverifiable(
      `${name}: stage ${stage} was recorded in comment ${id}, but ${describeFailure(error)}; run status again`,
      { issue: name, commentId: id },
      error,
    );
  }

  const mine = readback.claims.find((claim) => claim.comment.id === id);
  if (mine && readback.holder === mine && mine.marker.stage === stage) {
    const view = viewIn(readback, mine);
    return ok(`${name}: stage ${stage} recorded: ${describeClaim(view)}`, {
      issue: name,
      action: 'updated',
      claim: view,
    });
  }
  // Read-back shows the edit raced a takeover or a finalisation (seed:
  // StaleHolderEditRacingTakeover): the session no longer holds the issue and is told so.
  const ownNow = readback.claims.filter(own);
  if (
    mine &&
    readback.holder &&
    mine !== readback.holder &&
    isLive(mine, readback.thread.open, readback.config.staleAfterMs, readback.now)
  ) {
    const finalised = await abandonLosers(desk, readback, readback.holder, own);
    throw heldRefusal(readback, readback.holder, {
      lostRace: true,
      ...(finalised?.length ? { finalised: finalised[0]! } : {}),
      cleanupFailed: finalised === null,
    });
  }
  if (!mine && !readback.thread.comments.some((c) => c.id === id)) {
    throw refused(`${name}: this session's claim comment ${id} was deleted`, {
      issue: name,
      reason: 'deleted',
    });
  }
  throw notHolding(readback, ownNow);
}
