import { editClaimBody } from '../../claims/claim-body.js';
import { issueHolder } from '../../claims/issue-holder.js';
import { sameName } from '../../claims/names.js';
import type { ClaimMarker } from '../../claims/types.js';
import { issueRef } from '../../keys.js';
import { indexIssue } from '../../read-model/index-issue.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { ApiError } from '../answers/api-error.js';
import type { HeartbeatBody } from '../answers/request-bodies.js';
import { claimObject, issueObject } from '../answers/serialise.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { alreadyClaimed } from '../issue/already-claimed.js';
import { onClaimWrite } from '../issue/on-claim-write.js';
import type { IssueTarget } from '../issue/on-issue.js';
import { settle } from '../issue/settle.js';
import { writeAsCaller } from '../issue/write-as-caller.js';

/**
 * `POST …/claim/heartbeat` (docs/protocol.md §8), with the trust a claim needs: the caller's live claim gets `updated` =
 * now (and the stage asked for). It never revives a stale or released claim: 409
 * CLAIM_NOT_HELD. A stage change that moves a label is reconciled at once; a plain heartbeat
 * costs one edit, as a comment heartbeat does.
 */
export async function heartbeatClaim(
  deps: ApiDeps,
  caller: Caller,
  target: IssueTarget,
  body: HeartbeatBody,
): Promise<ApiAnswer> {
  return onClaimWrite(deps, caller, target, async (at, claims, now) => {
    const { key, thread, config } = at;
    const holder = issueHolder(claims, thread, config, now);
    const mine =
      holder &&
      sameName(holder.comment.author, caller.login) &&
      holder.marker.session === body.session;
    if (holder && !mine) throw alreadyClaimed(at, holder);
    if (!holder) {
      throw new ApiError(
        409,
        'CLAIM_NOT_HELD',
        `session ${body.session} holds no live claim on ${issueRef(key)} (it is stale, released, or never was): claim the issue again instead`,
      );
    }
    const marker: ClaimMarker = {
      ...holder.marker,
      updated: now,
      ...(body.stage ? { stage: body.stage } : {}),
    };
    const edited = await writeAsCaller(deps, caller, at, {
      kind: 'edit-claim',
      commentId: holder.comment.id,
      body: editClaimBody(holder.comment.body, { marker, note: body.note }),
    });
    const renewed = {
      comment: { ...holder.comment, body: edited.body, updatedAt: edited.updatedAt },
      marker,
    };
    if (marker.stage !== holder.marker.stage) {
      const readback = await settle(deps, at, 'api.heartbeat');
      const winner = readback.holder;
      if (winner?.comment.id === holder.comment.id) {
        return {
          status: 200,
          body: {
            issue: issueObject(key, readback.thread),
            claim: claimObject(key, winner, config.staleAfterMs),
          },
        };
      }
      throw new ApiError(
        409,
        'CLAIM_NOT_HELD',
        `the claim on ${issueRef(key)} no longer holds it: claim again`,
      );
    }
    await indexIssue(deps, key, thread, { agent: renewed, person: null }, config);
    return {
      status: 200,
      body: {
        issue: issueObject(key, thread),
        claim: claimObject(key, renewed, config.staleAfterMs),
      },
    };
  });
}
