import { keepClaimEvents } from '../events/keep-claim-events.js';
import { installationReads } from '../github/conditional.js';
import { readThread } from '../github/thread.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { pathHoldersFor } from '../path-holders/path-holders-for.js';
import { decideIssue } from '../people/decide-issue.js';
import { peopleFactsFor } from '../people-facts/people-facts-for.js';
import type { ReconcileRequest } from '../queue/queue.js';
import { recordReconciled } from '../read-model/record-reconciled.js';
import { appAssigneesAfter, sameLogins } from './app-assignees.js';
import { applyPlan } from './apply-plan.js';
import { readIssueThread } from './read-issue-thread.js';
import type { ReconcileDeps, ReconcileResult } from './reconcile-deps.js';

/**
 * Makes one issue true (docs/protocol.md §4): read the config once, read the whole thread,
 * decide, apply under the repository's rollout keys (§15), and index the next deadline. The
 * thread is the source of truth, so event order does not matter. Throws on anything
 * unverifiable, so the queue retries with backoff (§6).
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
  const facts = {
    ...thread,
    ...{ appLogin: deps.appLogin, hints: request.hints, appAssignees },
    pathHolders: paths.holders,
  };
  const readDeps = { octokit, reads, store: deps.store, appLogin: deps.appLogin, now };
  const people = await peopleFactsFor(readDeps, key, facts, config);
  const plan = decideIssue({ ...facts, ...(people ? { people } : {}) }, config, now);

  // Remembered before the assignment is sent: a reconcile that dies after it still knows
  // whom it assigned. One that GitHub refused is dropped below, on the next reconcile.
  const planned = appAssigneesAfter(appAssignees, thread.assignees, plan, false);
  if (!observing && !sameLogins(planned, appAssignees)) {
    await deps.store.setAppAssignees(key, planned);
  }
  const change = { key, comments: thread.comments, plan, previousHolder, now };
  const kept = publishEvents ? await keepClaimEvents(deps.store, change) : undefined;
  await applyPlan(deps, octokit, key, plan, config, log);
  if (publishEvents && kept) {
    await publishEvents(kept.events);
    await kept.published();
  }
  const applied = appAssigneesAfter(appAssignees, thread.assignees, plan, true);
  if (!observing && !sameLogins(applied, planned)) await deps.store.setAppAssignees(key, applied);
  const peopleStaleAfterMs = config.people?.staleAfterMs;
  await recordReconciled(pathDeps, key, {
    ...{ plan, thread, paths, staleAfterMs: config.staleAfterMs, now },
    ...(peopleStaleAfterMs ? { peopleStaleAfterMs } : {}),
  });
  log.debug({ holder: plan.holder, writes: plan.actions.length }, 'issue reconciled');
  return { outcome: observing ? 'observed' : 'applied', plan };
}
