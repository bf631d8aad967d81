import { trustedClaims } from '../claims/decide.js';
import { findHolder } from '../claims/liveness.js';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import type { Caller } from './authenticate.js';
import { indexIssue } from './index-issue.js';
import { onIssue } from './on-issue.js';
import type { ApiAnswer } from './post-claim.js';
import { claimObject, issueObject } from './serialise.js';

/**
 * `GET …/claim` (docs/protocol.md §8): the issue and its holder, read from the thread under
 * the issue's lock. `claim` is null when the issue is free or its claim is stale or released,
 * so nobody has to compare times.
 */
export async function getClaim(
  deps: ApiDeps,
  caller: Caller,
  target: { owner: string; repo: string; number: number },
): Promise<ApiAnswer> {
  const repo = await deps.access.installed(target.owner, target.repo);
  if (!(await deps.access.canRead(caller, `${repo.owner}/${repo.repo}`))) {
    throw new ApiError(
      404,
      'NOT_FOUND',
      `your token cannot read ${target.owner}/${target.repo}: check the name and the token's repository access`,
    );
  }
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
