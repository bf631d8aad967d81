import type { ClaimComment } from '../../claims/liveness.js';
import { trustedClaims } from '../../claims/trusted-claims.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { readableRepo } from '../caller/readable-repo.js';
import { requireTrust } from '../caller/require-trust.js';
import { type IssueAtHand, type IssueTarget, onIssue } from './on-issue.js';
import { requireEnforced } from './require-enforced.js';

/**
 * The opening a caller's claim write shares (docs/protocol.md §8): visibility, then trust,
 * before the issue's lock; under it, the repository must enforce claims, and `write` gets the
 * thread's trusted claims and the time it runs at.
 */
export async function onClaimWrite(
  deps: ApiDeps,
  caller: Caller,
  target: IssueTarget,
  write: (at: IssueAtHand, claims: ClaimComment[], now: Date) => Promise<ApiAnswer>,
): Promise<ApiAnswer> {
  const repo = await readableRepo(deps, caller, target, 'issue');
  await requireTrust(deps, caller, repo);
  return onIssue(deps, repo, target.number, async (at) => {
    const now = deps.now();
    requireEnforced(at, 'caller');
    return write(at, trustedClaims(at.thread.comments, at.config.trustedBots), now);
  });
}
