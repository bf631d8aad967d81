import { findHolder } from '../../claims/liveness.js';
import { trustedClaims } from '../../claims/trusted-claims.js';
import { indexIssue } from '../../read-model/index-issue.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { claimObject, issueObject } from '../answers/serialise.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { readableRepo } from '../caller/readable-repo.js';
import { type IssueTarget, onIssue } from '../issue/on-issue.js';

/**
 * `GET …/claim` (docs/protocol.md §8): the issue and its holder, read from the thread under
 * the issue's lock. `claim` is null when the issue is free or its claim is stale or released,
 * so nobody has to compare times.
 */
export async function getClaim(
  deps: ApiDeps,
  caller: Caller,
  target: IssueTarget,
): Promise<ApiAnswer> {
  const repo = await readableRepo(deps, caller, target, 'issue');
  return onIssue(deps, repo, target.number, async ({ key, thread, config }) => {
    const claims = trustedClaims(thread.comments, config.trustedBots);
    const holder = findHolder(claims, thread.open, config.staleAfterMs, deps.now());
    await indexIssue(deps, key, thread, holder, config.staleAfterMs);
    return {
      status: 200,
      body: {
        issue: issueObject(key, thread),
        claim: holder ? claimObject(key, holder, config.staleAfterMs) : null,
      },
    };
  });
}
