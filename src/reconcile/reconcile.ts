import type { PeopleFacts } from '../claims/people-facts.js';
import type { Plan } from '../claims/plan.js';
import { installationReads } from '../github/conditional.js';
import { readThread } from '../github/thread.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { pathHoldersFor } from '../path-holders/path-holders-for.js';
import { decideWithPeople } from '../people/decide-with-people.js';
import { assignsCappedPerson, underCapLocks } from '../people-lookups/cap-lock.js';
import { peopleFactsFor } from '../people-lookups/people-facts-for.js';
import type { ReconcileRequest } from '../queue/queue.js';
import { personClaimsElsewhere } from '../read-model/held-elsewhere.js';
import { applyPlan } from './apply-plan.js';
import { readIssueThread } from './read-issue-thread.js';
import type { ReconcileDeps, ReconcileResult } from './reconcile-deps.js';
import { reviewOrWait } from './review-or-wait.js';

/**
 * Makes one issue true (docs/protocol.md §4): read the config once, read the whole thread,
 * decide, apply under the repository's rollout keys (§15), and index the next deadline. The
 * thread is the source of truth, so event order does not matter. Throws on anything
 * unverifiable, so the queue retries with backoff (§6), except a stale claim's branch that
 * could not be read: the issue then waits for the next sweep (§17).
 */
export async function reconcile(
  deps: ReconcileDeps,
  request: ReconcileRequest,
): Promise<ReconcileResult> {
  const { key } = request;
  const log = deps.log.child({ issue: issueKeyString(key), reason: request.reason });
  const octokit = await deps.octokitFor(key.installationId);

  // The config: invalid writes nothing on the repository (§6); `enabled: false` reads nothing
  // more, and the issue leaves the deadline index so the sweep does not come back for it.
  const lookup = await deps.configFor(octokit, key);
  if (!lookup.ok) {
    log.warn({ error: lookup.error }, 'repository config is invalid: nothing written');
    return { outcome: 'invalid-config' };
  }
  const { config } = lookup;
  if (!config.enabled) {
    await deps.store.setDeadline(key, null);
    await deps.store.setHolder(key, null);
    log.debug('repository disabled (enabled: false): left alone');
    return { outcome: 'disabled' };
  }
  // `mode: observe`: decide as usual; the executor logs and counts the plan instead of
  // sending it, nothing is remembered as assigned, and no event tells of it.
  const observing = config.mode === 'observe';

  const reads = installationReads(deps.store, key.installationId);
  const thread = await readIssueThread({ ...deps, log }, octokit, key, reads);
  if (thread === 'gone') return { outcome: 'gone' };

  // The facts: the thread, what the app assigned, the verified holders of overlapping paths
  // (§10) and people's claims (§16; with them off nothing more is read and this is decide).
  const appAssignees = await deps.store.appAssignees(key);
  const publishEvents = observing ? undefined : deps.publishEvents;
  const previousHolder = publishEvents ? await deps.store.holderOf(key) : null;
  const now = deps.now();
  const readOther = (other: IssueKey) => readThread(octokit, other, reads);
  const pathDeps = { ...deps, readThread: readOther, log };
  const paths = await pathHoldersFor(pathDeps, key, thread, config, now);
  const threadFacts = {
    ...thread,
    ...{ appLogin: deps.appLogin, hints: request.hints, appAssignees },
    pathHolders: paths.holders,
  };
  // docs/protocol.md §17: the work each stale claim's branch holds, read before deciding.
  const reviewDeps = { ...deps, log, octokit, reads, now };
  const review = await reviewOrWait(reviewDeps, request, threadFacts, config);
  if (review === 'unread') return { outcome: 'review-unread' };
  const facts = { ...threadFacts, review };
  const readDeps = { octokit, reads, store: deps.store, appLogin: deps.appLogin, now };
  const people = await peopleFactsFor(readDeps, key, facts, config);
  const decided = (heldElsewhere?: PeopleFacts['heldElsewhere']) => {
    const withPeople = people && heldElsewhere ? { ...people, heldElsewhere } : people;
    return decideWithPeople(
      { ...facts, ...(withPeople ? { people: withPeople } : {}) },
      config,
      now,
    );
  };
  const read = { octokit, key, config, log, thread, appAssignees, previousHolder, paths, now };
  const { lease } = request;
  const apply = async (plan: Plan): Promise<ReconcileResult> => {
    await applyPlan(deps, { ...read, observing, pathDeps, lease }, plan);
    return { outcome: observing ? 'observed' : 'applied', plan };
  };
  const plan = decided();
  if (!people || !assignsCappedPerson(plan, config)) return apply(plan);
  // docs/protocol.md §16 `people.maxClaims`: counted again, decided and recorded under the
  // locks of the logins the decision weighs, so no other issue's reconcile assigns them
  // meanwhile on the same count.
  const logins = [...people.heldElsewhere.keys()];
  return underCapLocks(deps.store, key.installationId, logins, async () =>
    apply(decided(await personClaimsElsewhere(deps.store, key, logins, now))),
  );
}
