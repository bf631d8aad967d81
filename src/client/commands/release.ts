import { foldText } from '../../claims/comment.js';
import type { Action } from '../../claims/decide.js';
import { isLive } from '../../claims/liveness.js';
import { sameName } from '../../claims/names.js';
import type { Outcome } from '../../claims/types.js';
import { applyActions, hasLabel, isAssigned } from '../io/apply-actions.js';
import { describeFailure } from '../io/describe-failure.js';
import type { Desk } from '../io/desk.js';
import { type IssueState, readIssueState } from '../io/issue-state.js';
import { abandonLosers } from './abandon-losers.js';
import { describeClaim, viewIn } from './claim-view.js';
import { refused, unverifiable } from './client-error.js';
import { type CommandResult, ok } from './command-result.js';
import { finalisedBody } from './finalise-action.js';
import { heldRefusal } from './held-refusal.js';
import { formatIssueRef, type IssueRef } from './issue-ref.js';
import { notHolding } from './not-holding.js';
import { ownedBy } from './public-identity.js';

/** A release request, validated by the command layer. */
export interface ReleaseRequest {
  readonly ref: IssueRef;
  readonly session: string;
  readonly outcome: Outcome;
  readonly note?: string | undefined;
}

/**
 * Finalises the session's claim (seed "Release"): first the status labels come off and, when
 * the claim recorded `assignee=claim`, the account that wrote it is unassigned (other
 * assignees stay); then the comment is rewritten with stage `released` and the outcome.
 * Labels and assignee go first, so a failure leaves the claim live and a retried release
 * succeeds; a release whose comment is already released with that outcome reports success.
 * Works on closed issues and leaves the issue's state alone.
 */
export async function release(desk: Desk, request: ReleaseRequest): Promise<CommandResult> {
  if (request.note !== undefined) desk.guard.check(request.note, 'the note');
  const state = await readIssueState(desk, request.ref);
  const name = formatIssueRef(state.ref);
  const own = ownedBy(desk.key, request.session);
  const ownClaims = state.claims.filter(own);
  const { holder } = state;
  const target =
    holder && own(holder)
      ? holder
      : ownClaims.filter((claim) => claim.marker.stage !== 'released').at(-1);
  if (!target) {
    const latest = ownClaims.at(-1);
    if (latest && latest.marker.outcome === request.outcome) {
      // A retry after the comment was written: the release is done.
      const view = viewIn(state, latest);
      return ok(`${name}: already released (${request.outcome}): ${describeClaim(view)}`, {
        issue: name,
        action: 'already-released',
        claim: view,
      });
    }
    if (latest) {
      throw refused(
        `${name}: this session's claim in comment ${latest.comment.id} was already finalised (${latest.marker.outcome ?? 'released'}), not ${request.outcome}`,
        { issue: name, reason: 'released', own: viewIn(state, latest) },
      );
    }
    throw notHolding(state, ownClaims);
  }

  const otherHolder = holder !== null && holder !== target ? holder : null;
  const window = state.config.staleAfterMs;
  if (otherHolder && isLive(target, state.thread.open, window, state.now)) {
    // A live own comment that is not the holder lost a race: finalise it as abandoned and
    // refuse naming the holder (seed: NonHolderStatusAndReleaseFinalisesComment).
    const finalised = await abandonLosers(desk, state, otherHolder, own);
    throw heldRefusal(state, otherHolder, {
      lostRace: true,
      ...(finalised?.length ? { finalised: finalised[0]! } : {}),
      cleanupFailed: finalised === null,
    });
  }

  const { labels } = state.config;
  const author = target.comment.author;
  const first: Action[] = [];
  // Another live holder keeps its labels; this (stale) claim is released on its own.
  if (!otherHolder) {
    if (hasLabel(state, labels.inProgress))
      first.push({ kind: 'remove-label', label: labels.inProgress });
    if (hasLabel(state, labels.blocked))
      first.push({ kind: 'remove-label', label: labels.blocked });
  }
  const holderIsAuthor = otherHolder !== null && sameName(otherHolder.comment.author, author);
  if (target.marker.assignee === 'claim' && isAssigned(state, author) && !holderIsAuthor) {
    first.push({ kind: 'unassign', login: author });
  }
  try {
    await applyActions(desk, state, first);
  } catch (error) {
    throw unverifiable(
      `${name}: ${describeFailure(error)}; the claim in comment ${target.comment.id} stays live, run release again`,
      { issue: name, commentId: target.comment.id },
      error,
    );
  }

  const note = request.note === undefined ? '' : foldText(request.note);
  const body = finalisedBody(desk, target, {
    own: true,
    outcome: request.outcome,
    text: note === '' ? 'released by its session' : `released by its session: ${note}`,
  });
  let readback: IssueState;
  try {
    await desk.octokit.rest.issues.updateComment({
      owner: state.ref.owner,
      repo: state.ref.repo,
      comment_id: target.comment.id,
      body,
    });
    readback = await readIssueState(desk, state.ref);
  } catch (error) {
    throw unverifiable(
      `${name}: ${describeFailure(error)}; run release again to finish (or confirm) the release of comment ${target.comment.id}`,
      { issue: name, commentId: target.comment.id },
      error,
    );
  }
  const released = readback.claims.find((claim) => claim.comment.id === target.comment.id);
  if (released?.marker.stage !== 'released' || released.marker.outcome !== request.outcome) {
    throw unverifiable(
      `${name}: comment ${target.comment.id} does not read back as released (${request.outcome}); run release again`,
      { issue: name, commentId: target.comment.id },
    );
  }
  const view = viewIn(readback, released);
  return ok(`released ${name} (${request.outcome}): ${describeClaim(view)}`, {
    issue: name,
    action: 'released',
    claim: view,
  });
}
