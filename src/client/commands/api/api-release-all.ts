import { publicIdentity } from '../../../claims/public-identity.js';
import type { Outcome } from '../../../claims/types.js';
import { RELEASE_ALL_OUTCOME, releaseAllOperation } from '../../../operations/catalogue.js';
import type { CommandResult } from '../../core/command-result.js';
import type { ClaimsApi } from '../../io/claims-api-client.js';
import type { Desk } from '../../io/desk.js';
import { describeClaim, viewOfClaim } from '../replies/claim-view.js';
import { okAnswer } from './api-shape.js';
import { callOperation } from './call-operation.js';

/** A release of everything a session holds, validated by the command layer. */
interface ReleaseAllRequest {
  readonly session: string;
  readonly outcome?: Outcome;
  readonly note?: string;
}

const WHAT = 'the session’s claims';

/**
 * `release --all` (docs/protocol.md §17): `DELETE …/claims` with the session's tag, so the
 * app releases every live claim of the session in the repositories the token can read, each
 * as `release` would. A line per claim released and per issue that could not be; when one
 * could not be, the result is unverifiable (exit 3) with both lists, so a retry releases the
 * rest, and a session holding nothing is done (exit 0).
 */
export async function apiReleaseAll(
  desk: Desk,
  api: ClaimsApi,
  request: ReleaseAllRequest,
): Promise<CommandResult> {
  if (request.note !== undefined) desk.guard.check(request.note, 'the note');
  const outcome = request.outcome ?? RELEASE_ALL_OUTCOME;
  const reply = await callOperation(
    api,
    releaseAllOperation,
    {},
    {
      body: {
        session: publicIdentity(desk.key, 'session', request.session),
        outcome,
        ...(request.note === undefined ? {} : { note: request.note }),
      },
    },
  );
  const body = okAnswer(
    releaseAllOperation.answer,
    reply,
    WHAT,
    'released and failed lists (docs/protocol.md §17)',
  );
  const released = body.released.map((claim) => ({
    issue: claim.issue,
    claim: viewOfClaim(claim, false),
  }));
  const failed = body.failed.map(({ issue, error }) => ({ issue, error }));
  const lines = [
    ...released.map(
      ({ issue, claim }) => `released ${issue} (${outcome}): ${describeClaim(claim)}`,
    ),
    ...failed.map(({ issue, error }) => `not released ${issue}: ${error.code}: ${error.message}`),
  ];
  if (lines.length === 0) lines.push('the session holds no live claim: nothing to release');
  if (failed.length > 0) lines.push('run release --all again to release the rest');
  return {
    status: failed.length > 0 ? 'unverifiable' : 'ok',
    message: lines.join('\n'),
    data: { action: 'released-all', released, failed },
  };
}
