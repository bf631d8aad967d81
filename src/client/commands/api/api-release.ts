import { publicIdentity } from '../../../claims/public-identity.js';
import { releaseOperation } from '../../../operations/catalogue.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import type { ClaimsApi } from '../../io/claims-api-client.js';
import type { Desk } from '../../io/desk.js';
import { explainNotHeld } from '../direct/explain-not-held.js';
import type { ReleaseRequest } from '../direct/release.js';
import { describeClaim } from '../replies/claim-view.js';
import { apiClaimView } from './api-claim-view.js';
import { apiErrorOf, apiFailure } from './api-failure.js';
import { apiNotHeld } from './api-not-held.js';
import { callOperation } from './call-operation.js';

/**
 * `release` through the claims API (`DELETE …/claim` with the session's tag): the app
 * finalises the caller's claim with the caller's token and removes the labels and the
 * assignee it added (docs/protocol.md §8). A session without a live claim is refused and told
 * why, and a retried release of a claim already released with that outcome succeeds, as in
 * direct mode (explainNotHeld).
 */
export async function apiRelease(
  desk: Desk,
  api: ClaimsApi,
  request: ReleaseRequest,
): Promise<CommandResult> {
  if (request.note !== undefined) desk.guard.check(request.note, 'the note');
  const name = formatIssueRef(request.ref);
  const reply = await callOperation(api, releaseOperation, request.ref, {
    body: {
      session: publicIdentity(desk.key, 'session', request.session),
      outcome: request.outcome,
      ...(request.note === undefined ? {} : { note: request.note }),
    },
  });
  if (reply.status === 200) {
    const view = apiClaimView(reply.body?.claim, false, name);
    return ok(`released ${name} (${request.outcome}): ${describeClaim(view)}`, {
      issue: name,
      action: 'released',
      claim: view,
    });
  }
  const error = apiErrorOf(reply);
  if (reply.status === 409 && error.code === 'CLAIM_NOT_HELD') {
    return explainNotHeld(
      desk,
      request.ref,
      request.session,
      apiNotHeld(name, undefined),
      request.outcome,
    );
  }
  throw apiFailure(name, reply);
}
