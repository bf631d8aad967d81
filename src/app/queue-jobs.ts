import type { ProbotOctokit } from 'probot';
import type { Action } from '../claims/plan.js';
import { configForReconcile } from '../config/config-for-reconcile.js';
import type { ClaimEvent } from '../events/claim-event.js';
import type { EventOutbox } from '../events/event-outbox.js';
import { LockLostError } from '../fence/lease.js';
import { KnownLabels, type WriteAction } from '../github/execute.js';
import type { GuardDeps } from '../guard/guard-deps.js';
import { checkPullRequestOf, needsReconcile } from '../guard/guard-request.js';
import { runGuardJobs } from '../guard/run-guard-jobs.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { keepDue } from '../queue/keep-due.js';
import type { ExhaustedHandler, ReconcileHandler, ReconcileRequest } from '../queue/queue.js';
import { reconcile } from '../reconcile/reconcile.js';
import type { ReconcileResult } from '../reconcile/reconcile-deps.js';
import type { ReviewReadResult } from '../review/review-facts-for.js';
import { issueAttributes } from '../telemetry/issue-attributes.js';
import { inQueuedSpan } from '../tracing/tracing.js';
import type { WardenCore } from './warden-core.js';

/** What the work queue runs, and the one reconcile the claims API runs too. */
interface QueueJobs {
  /** One reconcile; it records the holder it verified in the open-issue index. */
  reconcileOne(request: ReconcileRequest): Promise<ReconcileResult>;
  /** The queue's handler: the guard's jobs, then the reconcile the request needs. */
  readonly handle: ReconcileHandler;
  /** What becomes of a request that failed on every attempt. */
  readonly onExhausted: ExhaustedHandler;
  /** Queues a check of the pull requests an issue's claims flagged (docs/protocol.md §11). */
  requestPullCheck(key: IssueKey): Promise<void>;
}

/**
 * The queue's work: reconciles and the guard's jobs, with
 * per-installation octokits, counted in the metrics; `events` publishes what they change.
 */
export function queueJobs(core: WardenCore, events: EventOutbox | null): QueueJobs {
  const { store, queue, log, now, metrics } = core;
  const knownLabels = new KnownLabels();
  const requestPullCheck = (key: IssueKey) =>
    queue.enqueue(checkPullRequestOf(key, undefined, 'recheck', now()));
  const guardDeps: GuardDeps = {
    octokitFor: core.octokitFor,
    configOf: (octokit, repo) => core.config.get(octokit, repo),
    store,
    log,
    now,
    appLogin: core.appLogin,
    knownLabels,
    onObserve: (action) => metrics.observedWrites.inc({ kind: action.kind }),
  };
  const reconcileDeps = {
    octokitFor: core.octokitFor,
    configFor: async (octokit: ProbotOctokit, key: IssueKey) =>
      configForReconcile(await core.config.get(octokit, key)),
    store,
    log,
    now,
    appLogin: core.appLogin,
    knownLabels,
    onWrite: (action: Action) => {
      if (action.kind === 'finalise') metrics.finalisations.inc({ reason: action.reason });
    },
    requestReconcile: (key: IssueKey) => queue.enqueue({ key, hints: [], reason: 'paths' }),
    requestPullCheck,
    onObserve: (action: WriteAction) => metrics.observedWrites.inc({ kind: action.kind }),
    onReviewRead: (result: ReviewReadResult) => metrics.reviewReads.inc({ result }),
    reviewUnreadForMs: core.settings.sweepIntervalMs,
    // Outgoing claim events (docs/protocol.md §13); not called for a plan only observed.
    ...(events
      ? { publishEvents: (changes: readonly ClaimEvent[]) => events.publish(changes) }
      : {}),
  };
  // One reconcile, as the queue and the claims API run it; it records the holder it verified
  // in the open-issue index (the work queue's and the board's).
  const reconcileOne = (request: ReconcileRequest) => reconcile(reconcileDeps, request);
  const handle: ReconcileHandler = (request) =>
    inQueuedSpan('reconcile', request.trace, issueAttributes(request.key, request.reason), () =>
      run(request),
    );
  const run: ReconcileHandler = async (request) => {
    // docs/protocol.md §11: pull-request checks and branch heartbeats ride the same queue,
    // so each runs under its issue's (or pull request's) mutual exclusion.
    await runGuardJobs(guardDeps, request);
    if (!needsReconcile(request)) return;
    const started = performance.now();
    if (request.queuedAt !== undefined)
      metrics.ops.queueWaitSeconds.observe(Math.max(0, Date.now() - request.queuedAt) / 1000);
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const result = await reconcileOne(request);
      metrics.reconciles.inc({ outcome: result.outcome });
      metrics.ops.reconcileSeconds.observe({ outcome: result.outcome }, seconds());
    } catch (error) {
      // docs/replicas.md "Fenced writes": the run stopped writing once its lease ran out.
      const outcome = error instanceof LockLostError ? 'lock-lost' : 'failed';
      metrics.reconciles.inc({ outcome });
      metrics.ops.reconcileSeconds.observe({ outcome }, seconds());
      throw error;
    }
  };
  return { reconcileOne, handle, onExhausted: exhaustedHandler(core), requestPullCheck };
}

/**
 * A reconcile that fails on every attempt is not dropped: the sweep retries it. The guard's
 * own work is not an issue the sweep could reconcile (docs/protocol.md §11): it is dropped,
 * and the next pull_request or push event asks for it again.
 */
function exhaustedHandler(core: WardenCore): ExhaustedHandler {
  const { store, log, now, metrics } = core;
  const keepReconcileDue = keepDue({
    store,
    log,
    now,
    onKept: () => metrics.reconcilesKeptDue.inc(),
  });
  return async (request, error, attempts) => {
    if (needsReconcile(request)) return keepReconcileDue(request, error, attempts);
    log.warn(
      { issue: issueKeyString(request.key), reason: request.reason, attempts, err: error },
      'guard work failed on every attempt: dropped',
    );
  };
}
