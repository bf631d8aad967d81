import type { ProbotOctokit } from 'probot';
import type { DecideConfig } from '../claims/decide-config.js';
import type { IssueFacts } from '../claims/issue-facts.js';
import type { PeopleFacts } from '../claims/people-facts.js';
import type { ReadCache } from '../github/conditional.js';
import { readPullHead } from '../github/read-pull-head.js';
import { hostedClaims } from '../hosted/hosted-claims.js';
import type { IssueKey } from '../keys.js';
import { decideWithPeople } from '../people/decide-with-people.js';

/** What reading a pull request's head needs: the installation's octokit and read cache. */
interface HeadReadDeps {
  readonly octokit: ProbotOctokit;
  readonly reads: ReadCache;
  readonly now: Date;
}

/**
 * docs/protocol.md §18: a hosted claim's `branch` is its pull request's head. The timeline's
 * `cross-referenced` entry names no head, and neither a `pull_request` event nor the index
 * may have told it (an event missed, an index rebuilt): then, and only when that hosted agent
 * holds the issue, the pull request is read (conditional; the index keeps the branch after,
 * so later reconciles read nothing). An issue without such a hosted claim costs nothing: the
 * decision is only weighed when one lacks its head. Throws UnverifiableError as the read does.
 */
export async function withHolderHead(
  deps: HeadReadDeps,
  key: IssueKey,
  facts: IssueFacts,
  config: DecideConfig,
  people: PeopleFacts,
): Promise<PeopleFacts> {
  const headless = hostedClaims(facts, people, config.hosted).some(
    (claim) => claim.pull?.number !== undefined && claim.pull.head === undefined,
  );
  if (!headless) return people;
  const { holder } = decideWithPeople({ ...facts, people }, config, deps.now);
  const pull = holder?.kind === 'hosted' ? holder.pull : null;
  if (pull === null || pull.head !== undefined) return people;
  const head = await readPullHead(deps.octokit, key, pull.number, deps.reads);
  if (head === null) return people;
  return {
    ...people,
    pulls: people.pulls.map((p) => (p.number === pull.number ? { ...p, head } : p)),
  };
}
