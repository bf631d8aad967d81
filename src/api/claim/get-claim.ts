import { trustedClaims } from '../../claims/trusted-claims.js';
import { indexIssue } from '../../read-model/index-issue.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { claimObject, issueObject, personObject } from '../answers/serialise.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { readableRepo } from '../caller/readable-repo.js';
import { holdingOf } from '../issue/holding.js';
import { type IssueTarget, onIssue } from '../issue/on-issue.js';

/**
 * `GET …/claim` (docs/protocol.md §8): the issue and its holder, read from the thread under
 * the issue's lock. `claim` is null when the issue is free or its claim is stale or released,
 * so nobody has to compare times; a person's claim is answered with `kind: person` (§16).
 */
export async function getClaim(
  deps: ApiDeps,
  caller: Caller,
  target: IssueTarget,
): Promise<ApiAnswer> {
  const repo = await readableRepo(deps, caller, target, 'issue');
  return onIssue(deps, repo, target.number, async (at) => {
    const { key, thread, config } = at;
    const claims = trustedClaims(thread.comments, config.trustedBots);
    const holding = await holdingOf(deps, at, claims, deps.now());
    await indexIssue(deps, key, thread, holding, config);
    const { agent, person } = holding;
    return {
      status: 200,
      body: {
        issue: issueObject(key, thread),
        claim: person
          ? personObject(key, person, config)
          : agent && claimObject(key, agent, config.staleAfterMs),
      },
    };
  });
}
