import { editClaimBody } from '../../claims/claim-body.js';
import { judgeAttempt } from '../../claims/judge-attempt.js';
import type { ClaimComment } from '../../claims/liveness.js';
import { hasName, sameName } from '../../claims/names.js';
import { isTrustedAuthor } from '../../claims/trusted-claims.js';
import type { ClaimMarker } from '../../claims/types.js';
import { issueRef } from '../../keys.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { ApiError, unverifiable } from '../answers/api-error.js';
import type { ClaimBody } from '../answers/request-bodies.js';
import { claimObject, issueObject } from '../answers/serialise.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { alreadyClaimed, peopleRefusal } from '../issue/already-claimed.js';
import { holdingOf } from '../issue/holding.js';
import { inGrace } from '../issue/in-grace.js';
import { onClaimWrite } from '../issue/on-claim-write.js';
import type { IssueAtHand, IssueTarget } from '../issue/on-issue.js';
import { refuseNeedsReview } from '../issue/review-refusal.js';
import { settle } from '../issue/settle.js';
import { writeAsCaller } from '../issue/write-as-caller.js';
import { pathConflicts } from '../paths-check/path-conflicts.js';
import { pathsClaimed } from '../paths-check/paths-claimed.js';

/**
 * `POST …/claim` (docs/protocol.md §8), under the issue's lock: refuse while another session
 * holds it; renew when this session of this caller does (200, `alreadyHeld`); otherwise post
 * the claim comment with the caller's token, reconcile with the app's, read back, and answer
 * 201 only when the read-back shows the caller's comment as the holder. If a lower id won,
 * the reconcile finalised the caller's comment and the answer is 409 naming the winner.
 * With `paths` (docs/protocol.md §10): refused with 409 PATHS_CLAIMED, nothing written, when a
 * live holder of another issue holds an overlapping path; a claim that loses its paths to a
 * racing one after posting is finalised by the reconcile and answered 409 PATHS_CLAIMED too.
 */
export async function postClaim(
  deps: ApiDeps,
  caller: Caller,
  target: IssueTarget,
  body: ClaimBody,
): Promise<ApiAnswer> {
  return onClaimWrite(deps, caller, target, async (at, claims, now) => {
    const { key, thread, config } = at;
    const holding = await holdingOf(deps, at, claims, now);
    const state = { thread, config, claims, holder: holding.agent, now };
    const own = (c: ClaimComment) =>
      sameName(c.comment.author, caller.login) && c.marker.session === body.session;
    // docs/protocol.md §8: the caller's identities are written as the caller sent them.
    const ask = { ...body, login: caller.login };
    const decision = judgeAttempt(state, ask, own, (_kind, value) => value, now);
    if (decision.kind === 'closed') {
      throw new ApiError(
        409,
        'ISSUE_NOT_OPEN',
        `${issueRef(key)} is closed${thread.stateReason ? ` (${thread.stateReason})` : ''}; only an open issue can be claimed: reopen it first`,
        { state: 'closed', stateReason: thread.stateReason },
      );
    }
    if (decision.kind === 'resume') return renew(deps, caller, at, decision.holder, body);
    if (decision.kind === 'held') throw alreadyClaimed(at, decision.holder);
    if (decision.kind === 'in-grace') throw inGrace(at, decision.hold);
    // docs/protocol.md §16: an issue a person holds, or people wait for, is not an agent's.
    const refusal = peopleRefusal(at, holding);
    if (refusal) throw refusal;
    // docs/protocol.md §17: a needs-review issue is not claimable but by its stale owner.
    await refuseNeedsReview(deps, at, caller.login, now);
    // docs/protocol.md §10: paths held by a live holder of another issue refuse the claim
    // before anything is written.
    if (body.paths) await refuseHeldPaths(deps, at, body.paths);
    const { stale } = decision;
    const posted = await writeAsCaller(deps, caller, at, {
      kind: 'post-claim',
      body: decision.body,
    });
    deps.log.info(
      { issue: issueRef(key), commentId: posted.id, caller: caller.login },
      'claims API: claim comment posted',
    );
    const readback = await settle(deps, at, 'api.claim');
    const mine = readback.claims.find((c) => c.comment.id === posted.id);
    const winner = readback.holder;
    if (winner && winner.comment.id === posted.id) {
      return {
        status: 201,
        body: {
          issue: issueObject(key, readback.thread),
          claim: claimObject(key, winner, config.staleAfterMs, config.graceMs),
          alreadyHeld: false,
          assigned: hasName(readback.thread.assignees, caller.login),
          replaced: stale.map((c) =>
            claimObject(
              key,
              readback.claims.find((r) => r.comment.id === c.comment.id) ?? c,
              config.staleAfterMs,
            ),
          ),
        },
      };
    }
    // Observe mode finalises nothing: the comment lost, but stays as it was written.
    const finalised = config.mode === 'observe' ? undefined : (mine?.comment.id ?? posted.id);
    const settled = { ...at, thread: readback.thread };
    if (winner) throw alreadyClaimed(settled, winner, finalised);
    if (readback.holding.grace) throw inGrace(settled, readback.holding.grace, finalised);
    const lostToPeople = peopleRefusal(settled, readback.holding, finalised);
    if (lostToPeople) throw lostToPeople;
    if (body.paths && mine?.marker.stage === 'released') {
      await refuseHeldPaths(deps, at, body.paths, posted.id);
    }
    const comment = readback.thread.comments.find((c) => c.id === posted.id);
    if (
      comment &&
      !isTrustedAuthor(comment.author, comment.authorAssociation, config.trustedBots)
    ) {
      // docs/protocol.md §2: every reader skips this marker, so it holds nothing.
      throw new ApiError(
        403,
        'NOT_TRUSTED',
        `your comment ${posted.id} shows author_association ${comment.authorAssociation}, which readers do not trust; it claims nothing: delete it, and ask to be added as a collaborator`,
        { commentId: posted.id },
      );
    }
    throw unverifiable(
      `comment ${posted.id} did not read back as the holder of ${issueRef(key)} (deleted, or the issue was closed meanwhile)`,
    );
  });
}

/**
 * This session of this caller holds the issue already: move its heartbeat and, when `paths`
 * are given, make them the claim's path line (checked against other issues' holders first,
 * docs/protocol.md §10); nothing else.
 */
async function renew(
  deps: ApiDeps,
  caller: Caller,
  at: IssueAtHand,
  holder: ClaimComment,
  body: ClaimBody,
): Promise<ApiAnswer> {
  if (body.paths) await refuseHeldPaths(deps, at, body.paths);
  const now = deps.now();
  const marker: ClaimMarker = { ...holder.marker, updated: now };
  await writeAsCaller(deps, caller, at, {
    kind: 'edit-claim',
    commentId: holder.comment.id,
    body: editClaimBody(holder.comment.body, { marker, note: body.note, paths: body.paths }),
  });
  const readback = await settle(deps, at, 'api.claim');
  const winner = readback.holder;
  if (body.paths && !winner) {
    const mine = readback.claims.find((c) => c.comment.id === holder.comment.id);
    if (mine?.marker.stage === 'released') {
      await refuseHeldPaths(deps, at, body.paths, holder.comment.id);
    }
  }
  if (!winner || winner.comment.id !== holder.comment.id) {
    throw unverifiable(`the renewed claim of ${issueRef(at.key)} did not read back as the holder`);
  }
  return {
    status: 200,
    body: {
      issue: issueObject(at.key, readback.thread),
      claim: claimObject(at.key, winner, at.config.staleAfterMs, at.config.graceMs),
      alreadyHeld: true,
      assigned: hasName(readback.thread.assignees, caller.login),
      replaced: [],
    },
  };
}

/**
 * Throws 409 PATHS_CLAIMED when live holders of other issues hold paths overlapping `paths`
 * (verified from their threads; 503 when one cannot be read). `finalised`: the caller's
 * comment, already written, that the app's enforcement finalised for those paths.
 */
async function refuseHeldPaths(
  deps: ApiDeps,
  at: IssueAtHand,
  paths: readonly string[],
  finalised?: number,
): Promise<void> {
  const conflicts = await pathConflicts(deps, at.repo, at.key, paths, at.config);
  if (conflicts.length === 0) return;
  deps.log.info(
    { issue: issueRef(at.key), paths, holders: conflicts.map((c) => c.number), finalised },
    'claims API: paths held elsewhere',
  );
  throw pathsClaimed(at.key, paths, conflicts, at.config.staleAfterMs, deps.now(), finalised);
}
