import type { ProbotOctokit } from 'probot';
import type { DecideConfig } from '../../claims/decide-config.js';
import type { IssueFacts } from '../../claims/issue-facts.js';
import type { Plan } from '../../claims/plan.js';
import { installationReads } from '../../github/conditional.js';
import type { IssueKey } from '../../keys.js';
import { decideWithPeople } from '../../people/decide-with-people.js';
import { type PeopleThread, peopleFactsFor } from '../../people-lookups/people-facts-for.js';
import type { Store } from '../../store/store.js';

/**
 * Who holds an issue and who waits for it once people's claims are weighed, as the reconcile
 * decides it from the same reads (docs/protocol.md §16): the claims API asks before it
 * writes, so an agent is refused an issue a person holds. `facts` is a thread read by
 * readThread (its meta and 👍 counts ride along). Undefined with people's claims off and no
 * hosted agent's signal (docs/protocol.md §18): nothing is read. Throws UnverifiableError when
 * GitHub fails (fail closed).
 */
export function peopleGateOf(deps: {
  readonly store: Store;
  readonly appLogin: string;
  readonly now: () => Date;
}) {
  return async (
    octokit: ProbotOctokit,
    key: IssueKey,
    facts: IssueFacts,
    config: DecideConfig,
  ): Promise<Pick<Plan, 'holder' | 'waitlist'> | undefined> => {
    const now = deps.now();
    const reads = installationReads(deps.store, key.installationId);
    const thread = facts as IssueFacts & Partial<PeopleThread>;
    if (!thread.meta) throw new Error('people’s claims need the thread as readThread reads it');
    const readDeps = { octokit, reads, store: deps.store, appLogin: deps.appLogin, now };
    const people = await peopleFactsFor(
      readDeps,
      key,
      { ...thread, meta: thread.meta, plusOnes: thread.plusOnes ?? new Map() },
      config,
    );
    if (!people) return undefined;
    const { holder, waitlist } = decideWithPeople({ ...facts, people }, config, now);
    return { holder, waitlist };
  };
}
