import { graceHold } from '../../claims/grace.js';
import type { IssueFacts } from '../../claims/issue-facts.js';
import { issueHolder } from '../../claims/issue-holder.js';
import type { ClaimComment } from '../../claims/liveness.js';
import { UnverifiableError } from '../../github/errors.js';
import { issueRef } from '../../keys.js';
import type { Holding } from '../../read-model/index-issue.js';
import type { ApiDeps } from '../caller/api-deps.js';
import { githubFailure } from '../caller/caller-github.js';
import type { IssueAtHand } from './on-issue.js';

/**
 * The holding of an issue just read, as the reconcile would decide it: the agent holder of
 * §3, unless a person (people's claims on, `people:` in claims.yml) or a hosted agent
 * (`agents.hosted`, docs/protocol.md §18) holds it, as the reconcile decides it from the same
 * reads (ApiDeps.peopleGate). With neither possible, no extra read: exactly part two.
 */
export async function holdingOf(
  deps: ApiDeps,
  at: IssueAtHand,
  claims: readonly ClaimComment[],
  now: Date,
): Promise<Holding> {
  const { thread, config } = at;
  const agent = issueHolder(claims, thread, config, now);
  // docs/protocol.md §17: with no live holder, a stale claim in its grace still holds.
  const grace = agent ? null : graceHold(claims, thread, config, now);
  const weighed = config.people !== undefined || (config.hosted ?? []).length > 0;
  if (!weighed || !deps.peopleGate) return { agent, grace, person: null, waitlist: [] };
  const facts: IssueFacts = {
    ...thread,
    appLogin: deps.appLogin,
    hints: [],
    appAssignees: await deps.store.appAssignees(at.key),
  };
  const plan = await peopleGate(deps, at, facts);
  if (plan === undefined) return { agent, grace, person: null, waitlist: [] };
  const { holder, waitlist } = plan;
  if (holder?.kind === 'person' || holder?.kind === 'hosted') {
    return { agent: null, grace: null, person: holder, waitlist };
  }
  return { agent, grace, person: null, waitlist };
}

/** People's claims, fail closed (docs/protocol.md §6): GitHub failing is 503, never a guess. */
async function peopleGate(deps: ApiDeps, at: IssueAtHand, facts: IssueFacts) {
  try {
    return await deps.peopleGate?.(at.repo.octokit, at.key, facts, at.config);
  } catch (error) {
    if (!(error instanceof UnverifiableError)) throw error;
    deps.log.warn(
      { issue: issueRef(at.key), status: error.status },
      'claims API: people facts unverifiable',
    );
    const message = `could not read who is assigned: ${error.message}`;
    throw githubFailure(error.cause ?? error, message, deps.now().getTime());
  }
}
