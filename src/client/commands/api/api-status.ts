import { publicIdentity } from '../../../claims/public-identity.js';
import { getOperation, heartbeatOperation } from '../../../operations/catalogue.js';
import type { ClientError } from '../../core/client-error.js';
import { type CommandResult, ok } from '../../core/command-result.js';
import { formatIssueRef } from '../../core/issue-ref.js';
import type { ClaimsApi } from '../../io/claims-api-client.js';
import type { Desk } from '../../io/desk.js';
import { explainNotHeld } from '../direct/explain-not-held.js';
import type { StatusRequest } from '../direct/status.js';
import { describeClaim } from '../replies/claim-view.js';
import { heldRefusalOf } from '../replies/held-refusal.js';
import { apiClaimView } from './api-claim-view.js';
import { apiErrorOf, apiFailure } from './api-failure.js';
import { apiNotHeld } from './api-not-held.js';
import { callOperation } from './call-operation.js';

/**
 * `status` through the claims API, with direct mode's answers: without a stage, `GET
 * …/claim` and a report (writes nothing); with one, `POST …/claim/heartbeat`, which records
 * it and moves the heartbeat. A session that does not hold the issue is refused and told why
 * (explainNotHeld), as direct mode tells it.
 */
export async function apiStatus(
  desk: Desk,
  api: ClaimsApi,
  request: StatusRequest,
): Promise<CommandResult> {
  if (request.note !== undefined) desk.guard.check(request.note, 'the note');
  const name = formatIssueRef(request.ref);
  const session = publicIdentity(desk.key, 'session', request.session);
  const explain = (fallback: ClientError) =>
    explainNotHeld(desk, request.ref, request.session, fallback);
  if (request.stage === undefined) {
    const reply = await callOperation(api, getOperation, request.ref);
    if (reply.status !== 200) throw apiFailure(name, reply);
    const { claim, issue } = reply.body ?? {};
    if (!claim) return explain(apiNotHeld(name, issue?.state));
    const view = apiClaimView(claim, true, name);
    if (view.session !== session) return explain(heldRefusalOf(name, view));
    return ok(
      `${name}: this session holds it: ${describeClaim(view)}; stale at ${view.staleAt} without an update`,
      { issue: name, action: 'reported', claim: view },
    );
  }
  const reply = await callOperation(api, heartbeatOperation, request.ref, {
    body: {
      session,
      stage: request.stage,
      ...(request.note === undefined ? {} : { note: request.note }),
    },
  });
  if (reply.status === 200) {
    const view = apiClaimView(reply.body?.claim, true, name);
    return ok(`${name}: stage ${request.stage} recorded: ${describeClaim(view)}`, {
      issue: name,
      action: 'updated',
      claim: view,
    });
  }
  const error = apiErrorOf(reply);
  if (reply.status === 409 && error.code === 'ISSUE_ALREADY_CLAIMED') {
    return explain(heldRefusalOf(name, apiClaimView(error.details?.holder, true, name)));
  }
  if (reply.status === 409 && error.code === 'CLAIM_NOT_HELD') {
    return explain(apiNotHeld(name, undefined));
  }
  throw apiFailure(name, reply);
}
