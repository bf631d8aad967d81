import { graceHold } from '../../claims/grace.js';
import { issueHolder } from '../../claims/issue-holder.js';
import { trustedClaims } from '../../claims/trusted-claims.js';
import { issueKeyString } from '../../keys.js';
import { indexIssue } from '../../read-model/index-issue.js';
import type { ApiAnswer } from '../answers/api-answer.js';
import { claimObject, issueObject, personObject } from '../answers/serialise.js';
import type { ApiDeps } from '../caller/api-deps.js';
import type { Caller } from '../caller/authenticate.js';
import { readableRepo } from '../caller/readable-repo.js';
import { holdingOf } from '../issue/holding.js';
import { type IssueTarget, issueAtHand, issueKeyOf } from '../issue/on-issue.js';

/**
 * `GET …/claim` (docs/protocol.md §8): the issue and its holder, read from the thread. A read
 * takes no lock, so it never waits behind a write nor delays one ("Readers"), and the readers
 * of one issue share one read of it ({@link ApiDeps.reads}). `claim` is null when the issue
 * is free or its claim is stale or released, so nobody has to compare times; a person's claim
 * is answered with `kind: person` (§16).
 */
export async function getClaim(
  deps: ApiDeps,
  caller: Caller,
  target: IssueTarget,
): Promise<ApiAnswer> {
  const repo = await readableRepo(deps, caller, target, 'issue');
  const key = issueKeyOf(repo, target.number);
  const { at, holding } = await deps.reads.read(issueKeyString(key), async (current) => {
    const at = await issueAtHand(deps, repo, key);
    const claims = trustedClaims(at.thread.comments, at.config.trustedBots);
    const holding = await holdingOf(deps, at, claims, deps.now());
    // A write that ended while this read was out has indexed what it left: keep that.
    if (current()) await indexIssue(deps, key, at.thread, holding, at.config);
    return { at, holding };
  });
  const { thread, config } = at;
  const { person, grace } = holding;
  // Liveness as of this answer, not of the shared read: a claim gone stale since is free,
  // unless a pin keeps it (the one liveness every surface reads, docs/protocol.md §16).
  const claims = trustedClaims(thread.comments, config.trustedBots);
  const live = holding.agent && issueHolder(claims, thread, config, deps.now());
  // docs/protocol.md §17: a stale claim in its grace is shown, with its `graceUntil`.
  const agent = live ?? (grace && graceHold(claims, thread, config, deps.now())?.claim);
  return {
    status: 200,
    body: {
      issue: issueObject(key, thread),
      claim: person
        ? personObject(key, person, config)
        : agent && claimObject(key, agent, config.staleAfterMs, config.graceMs),
    },
  };
}
