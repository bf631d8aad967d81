import type { Logger } from 'pino';
import type { ProbotOctokit } from 'probot';
import type { Plan } from '../claims/plan.js';
import type { ResolvedRepoConfig } from '../config/repo-config.js';
import { keepClaimEvents } from '../events/keep-claim-events.js';
import type { Lease } from '../fence/lease.js';
import { executePlan } from '../github/execute.js';
import { rolloutOf } from '../github/rollout-of.js';
import type { IssueKey } from '../keys.js';
import type { PathCheck } from '../path-holders/path-holders-for.js';
import { labelsAfter } from '../read-model/labels-after.js';
import { recordReconciled } from '../read-model/record-reconciled.js';
import type { Store } from '../store/store.js';
import { appAssigneesAfter, sameLogins } from './app-assignees.js';
import type { ReconcileThread } from './read-issue-thread.js';
import type { ReconcileDeps } from './reconcile-deps.js';

/** What one reconcile has read, for applying its plan. */
interface ReconcileRead {
  readonly octokit: ProbotOctokit;
  readonly key: IssueKey;
  readonly config: ResolvedRepoConfig;
  readonly log: Logger;
  readonly thread: ReconcileThread;
  readonly appAssignees: readonly string[];
  readonly previousHolder: Awaited<ReturnType<Store['holderOf']>>;
  readonly paths: PathCheck;
  readonly now: Date;
  /** `mode: observe`: nothing is sent, remembered as assigned, or told as an event. */
  readonly observing: boolean;
  /** What recording the path holders needs (the other threads it reads, the log). */
  readonly pathDeps: Parameters<typeof recordReconciled>[0];
  /** The issue lock's lease on Redis: nothing is written once it may be another's. */
  readonly lease?: Lease | undefined;
}

/**
 * Applies a reconcile's plan: remembers whom the app assigns (before sending, so a reconcile
 * that dies after it still knows), keeps the plan's events, sends the writes under the
 * rollout keys (docs/protocol.md §15, applied in the executor), publishes the events, and
 * records the holder and the next deadline.
 */
export async function applyPlan(
  deps: ReconcileDeps,
  read: ReconcileRead,
  plan: Plan,
): Promise<void> {
  const { octokit, key, config, log, thread, appAssignees, now, observing, lease } = read;
  // What the app remembers is fenced as GitHub's writes are (src/fence/lease.ts).
  lease?.check();
  const publishEvents = observing ? undefined : deps.publishEvents;
  const planned = appAssigneesAfter(appAssignees, thread.assignees, plan, false);
  if (!observing && !sameLogins(planned, appAssignees))
    await deps.store.setAppAssignees(key, planned);
  const change = { key, comments: thread.comments, plan, previousHolder: read.previousHolder, now };
  const kept = publishEvents ? await keepClaimEvents(deps.store, change) : undefined;
  await (deps.executePlan ?? executePlan)(octokit, key, plan, {
    knownLabels: deps.knownLabels,
    rollout: rolloutOf(config, deps),
    lease,
    onWrite: (action) => {
      if (action.kind === 'finalise') {
        // `reason` is the child's (what started the reconcile): one key, one meaning per line.
        const { commentId, reason: finalisedBecause, outcome } = action;
        log.info({ commentId, finalisedBecause, outcome }, 'claim finalised');
      }
      deps.onWrite?.(action, key);
    },
  });
  if (publishEvents && kept) {
    await publishEvents(kept.events);
    await kept.published();
  }
  // One GitHub refused is dropped here, and again on the next reconcile.
  const applied = appAssigneesAfter(appAssignees, thread.assignees, plan, true);
  if (!observing && !sameLogins(applied, planned)) await deps.store.setAppAssignees(key, applied);
  const peopleStaleAfterMs = config.people?.staleAfterMs;
  // The index records the labels as the plan left them (held back while observing).
  const written = observing ? thread : { ...thread, labels: labelsAfter(thread.labels, plan) };
  await recordReconciled(read.pathDeps, key, {
    ...{ plan, thread: written, paths: read.paths, staleAfterMs: config.staleAfterMs, now },
    ...(peopleStaleAfterMs ? { peopleStaleAfterMs } : {}),
    ...(config.graceMs ? { graceMs: config.graceMs } : {}),
  });
  log.debug({ holder: plan.holder, writes: plan.actions.length }, 'issue reconciled');
}
