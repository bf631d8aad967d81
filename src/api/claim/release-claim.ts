import { editClaimBody } from '../../claims/claim-body.js';
import { foldText, releasedClaim } from '../../claims/comment.js';
import { releaseTarget } from '../../claims/release-target.js';
import { trustedClaims } from '../../claims/trusted-claims.js';
import { finalisationEvent } from '../../events/claim-events.js';
import { keepFinalisationEvent } from '../../events/keep-claim-events.js';
import { firstLine } from '../../events/pending-events.js';
import { executePlan } from '../../github/execute.js';
import { rolloutOf } from '../../github/rollout-of.js';
import { issueRef } from '../../keys.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { ApiError } from '../answers/api-error.js';
import type { ReleaseBody } from '../answers/request-bodies.js';
import { claimObject } from '../answers/serialise.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { githubFailure } from '../caller/caller-github.js';
import { readableRepo } from '../caller/readable-repo.js';
import { mayReleaseForOthers } from '../caller/repo-access.js';
import { requireTrust } from '../caller/require-trust.js';
import { type IssueTarget, onIssue } from '../issue/on-issue.js';
import { requireEnforced } from '../issue/require-enforced.js';
import { settle } from '../issue/settle.js';
import { writeAsCaller } from '../issue/write-as-caller.js';

/**
 * `DELETE …/claim` (docs/protocol.md §8). With `session`: the caller's own live claim, or its
 * stale claim in grace (§17), is finalised with the caller's token. Without: an administrative
 * release of whoever holds it live, for `maintain` or `admin` only, written with the app's
 * token. Both are decided before the issue's lock is taken: releasing one's own claim needs
 * the trust a claim needs. Then the reconcile removes the labels and the assignee the claim
 * added (§4).
 */
export async function releaseClaim(
  deps: ApiDeps,
  caller: Caller,
  target: IssueTarget,
  body: ReleaseBody,
): Promise<ApiAnswer> {
  // docs/protocol.md §8: visibility, then trust, before the lock.
  const repo = await readableRepo(deps, caller, target, 'issue');
  const administrative = body.session === undefined;
  if (administrative) {
    const role = await deps.access.roleOf(repo, caller.login);
    if (!mayReleaseForOthers(role)) {
      throw new ApiError(
        403,
        'NOT_ALLOWED',
        `releasing another session's claim needs maintain or admin on ${repo.owner}/${repo.repo} (@${caller.login} has ${role.roleName}): send your own session to release your claim`,
      );
    }
  } else {
    await requireTrust(deps, caller, repo);
  }
  return onIssue(deps, repo, target.number, async (at) => {
    const { key, thread, config } = at;
    const now = deps.now();
    requireEnforced(at, administrative ? 'app' : 'caller');
    const claims = trustedClaims(thread.comments, config.trustedBots);
    const releaser =
      body.session === undefined
        ? ({ administrative: true } as const)
        : { login: caller.login, session: body.session };
    // docs/protocol.md §17: the owner's session may also release its claim in grace.
    const holder = releaseTarget(claims, thread, config, releaser, now);
    if (!holder) {
      throw new ApiError(
        409,
        'CLAIM_NOT_HELD',
        administrative
          ? `${issueRef(key)} has no live claim to release`
          : `session ${body.session} holds no live claim on ${issueRef(key)}; nothing was released`,
      );
    }
    const note = body.note === undefined ? '' : `: ${foldText(body.note)}`;
    const reason = administrative
      ? `administrative release by @${caller.login} through the claims API${note}`
      : `released by its session through the claims API${note}`;
    const finalised = editClaimBody(holder.comment.body, {
      marker: releasedClaim(holder.marker, body.outcome, now),
      reason,
    });
    if (administrative) {
      // docs/protocol.md §13: the app's own finalisation, outside a plan; the reconcile below
      // tells it as an administrative release, not as a release by the holder's session.
      if (deps.events) {
        await keepFinalisationEvent(deps.store, key, {
          event: finalisationEvent(
            { key, now },
            holder.comment,
            'claim.administratively-released',
            reason,
          ),
          marker: firstLine(finalised),
        });
      }
      const finalise = {
        kind: 'finalise',
        commentId: holder.comment.id,
        body: finalised,
        reason: 'administrative',
        outcome: body.outcome,
      } as const;
      try {
        await executePlan(
          repo.octokit,
          key,
          { actions: [finalise] },
          { rollout: rolloutOf(config, deps), lease: at.lease },
        );
      } catch (error) {
        throw githubFailure(error, `finalising comment ${holder.comment.id} failed`, now.getTime());
      }
    } else {
      const edit = { kind: 'edit-claim', commentId: holder.comment.id, body: finalised } as const;
      await writeAsCaller(deps, caller, at, edit);
    }
    deps.log.info(
      { issue: issueRef(key), commentId: holder.comment.id, administrative, outcome: body.outcome },
      'claims API: claim released',
    );
    const readback = await settle(deps, at, 'api.release');
    const released = readback.claims.find((c) => c.comment.id === holder.comment.id);
    return {
      status: 200,
      body: { released: true, claim: claimObject(key, released ?? holder, config.staleAfterMs) },
    };
  });
}
