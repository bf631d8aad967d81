import { publicIdentity } from '../../../claims/public-identity.js';
import { claimOperation } from '../../../operations/catalogue.js';
import { type ClientError, refused } from '../../core/client-error.js';
import type { CommandResult } from '../../core/command-result.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import type { ClaimsApi } from '../../io/claims-api-client.js';
import type { Desk } from '../../io/desk.js';
import type { ClaimRequest } from '../direct/claim-request.js';
import { claimedResult } from '../replies/claimed-result.js';
import { closedRefusal } from '../replies/closed-refusal.js';
import { heldRefusalOf, inGraceRefusalOf } from '../replies/held-refusal.js';
import { resumedResult } from '../replies/resumed-result.js';
import { needsReviewRefusalOf } from '../replies/review-refusal.js';
import { apiClaimView, heldIn } from './api-claim-view.js';
import { apiErrorOf, apiFailure } from './api-failure.js';
import { callOperation } from './call-operation.js';

/** One entry of a 409 PATHS_CLAIMED's `details.conflicts` (docs/protocol.md §10). */
interface PathConflict {
  readonly path: string;
  readonly heldPath: string;
  readonly heldBy: unknown;
  readonly claimAgeMinutes?: number;
  readonly isStale?: boolean;
  readonly warning: string;
  readonly recovery?: { readonly action: string; readonly message: string };
}

/**
 * `claim` through the claims API (`POST …/claim`, docs/protocol.md §8) with the answers
 * direct mode gives: 201 claimed (or took over the stale claims it replaced), 200 resumed,
 * 409 held (lost race when the API finalised the caller's comment), in grace, in review
 * (docs/protocol.md §17), closed, or paths held elsewhere. The session and lane are sent as
 * the keyed tags direct mode writes, so the comment the app posts with the caller's token is
 * the one direct mode would post.
 */
export async function apiClaim(
  desk: Desk,
  api: ClaimsApi,
  request: ClaimRequest,
): Promise<CommandResult> {
  const name = formatIssueRef(request.ref);
  // Checked before the request, as direct mode checks before its first read.
  desk.guard.check(request.branch, 'the branch');
  const lane = publicIdentity(desk.key, 'lane', request.lane);
  const reply = await callOperation(api, claimOperation, request.ref, {
    body: {
      session: publicIdentity(desk.key, 'session', request.session),
      lane,
      branch: request.branch,
      ...(request.paths ? { paths: request.paths } : {}),
    },
  });
  if (reply.status === 201) {
    const view = apiClaimView(reply.body?.claim, true, name);
    const replaced = ((reply.body.replaced ?? []) as unknown[]).map((c) =>
      apiClaimView(c, false, name),
    );
    return claimedResult(name, view, replaced);
  }
  if (reply.status === 200 && reply.body?.alreadyHeld === true) {
    return resumedResult(name, apiClaimView(reply.body.claim, true, name), request.branch, lane);
  }
  throw refusal(name, reply);
}

/** The refusals of `POST …/claim`; everything else as apiFailure sorts it. */
function refusal(name: string, reply: Parameters<typeof apiFailure>[1]): ClientError {
  if (reply.status !== 409) return apiFailure(name, reply);
  const error = apiErrorOf(reply);
  switch (error.code) {
    case 'ISSUE_ALREADY_CLAIMED': {
      const finalised = error.details?.finalised as number | undefined;
      return heldRefusalOf(
        name,
        apiClaimView(error.details?.holder, true, name),
        finalised === undefined ? {} : { lostRace: true, finalised },
      );
    }
    case 'IN_GRACE':
      return inGraceRefusalOf(
        name,
        apiClaimView(error.details?.holder, false, name),
        String(error.details?.recovery?.retryAt),
      );
    case 'NEEDS_REVIEW':
      return needsReviewRefusalOf(name, error.details);
    case 'ISSUE_NOT_OPEN':
      return closedRefusal(name, error.details?.stateReason);
    case 'PATHS_CLAIMED':
      return pathsRefusal(
        name,
        (error.details?.conflicts ?? []) as PathConflict[],
        error.details?.finalised as number | undefined,
      );
    default:
      return apiFailure(name, reply);
  }
}

/**
 * 409 PATHS_CLAIMED: each contested path's warning and what to do about it. `finalised`: the
 * caller's comment was posted and lost the paths to an older claim, so the app finalised it.
 */
function pathsRefusal(
  name: string,
  conflicts: readonly PathConflict[],
  finalised: number | undefined,
): ClientError {
  const written =
    finalised === undefined
      ? 'nothing was written'
      : `this session's claim in comment ${finalised} was finalised as abandoned`;
  const lines = [
    `${name}: ${conflicts.length === 1 ? 'a path is' : 'paths are'} held by another claim; ${written}`,
    ...conflicts.map(
      (c) => `- ${c.warning}${c.recovery ? `: ${c.recovery.action}: ${c.recovery.message}` : ''}`,
    ),
  ];
  return refused(lines.join('\n'), {
    issue: name,
    reason: 'paths-claimed',
    ...(finalised === undefined ? {} : { finalised }),
    conflicts: conflicts.map((c) => ({
      path: c.path,
      heldPath: c.heldPath,
      ...heldIn(c.heldBy, name),
      ...(c.claimAgeMinutes === undefined ? {} : { claimAgeMinutes: c.claimAgeMinutes }),
      ...(c.isStale === undefined ? {} : { isStale: c.isStale }),
      warning: c.warning,
      ...(c.recovery ? { recovery: c.recovery } : {}),
    })),
  });
}
