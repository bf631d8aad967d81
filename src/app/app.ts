import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Probot, ProbotOctokit } from 'probot';
import { createClaimsApi } from '../api/claims-api.js';
import { indexIssuesEvent } from '../api/index-events.js';
import { indexHeartbeat } from '../api/index-heartbeat.js';
import { rememberQueueSettings } from '../api/queue-settings.js';
import type { Action } from '../claims/decide.js';
import { hasName } from '../claims/names.js';
import {
  configForFilter,
  configForReconcile,
  loadRepoConfig,
  RepoConfigCache,
  staleWindowOf,
} from '../config/repo-config.js';
import type { Settings } from '../config/settings.js';
import type { ClaimEvent } from '../events/claim-event.js';
import { createEventOutbox } from '../events/create-event-outbox.js';
import { eventMetrics } from '../events/event-metrics.js';
import type { EventOutbox, EventSenderOptions } from '../events/event-outbox.js';
import { KnownLabels } from '../github/execute.js';
import { InstallationOctokits } from '../github/octokit.js';
import { GITHUB_WRITE_SPACING_MS, type PacingClock, writePacing } from '../github/write-pacing.js';
import type { GuardDeps } from '../guard/guard-deps.js';
import { checkPullRequestOf, needsReconcile } from '../guard/guard-request.js';
import { guardWork } from '../guard/guard-work.js';
import { indexForGuard } from '../guard/index-for-guard.js';
import { runGuardJobs } from '../guard/run-guard-jobs.js';
import { keepDue } from '../queue/keep-due.js';
import type {
  ExhaustedHandler,
  ReconcileHandler,
  ReconcileRequest,
  WorkQueue,
} from '../queue/queue.js';
import type { RecoveryResult } from '../recovery/recover-deliveries.js';
import { createRecovery } from '../recovery/start-recovery.js';
import { reconcileWithRollout } from '../rollout/reconcile-with-rollout.js';
import { type IssueKey, issueKeyString, type Store } from '../store/store.js';
import { resyncInstallation, startResync } from '../sweep/resync.js';
import { type SweepResult, startSweeper, sweepOnce } from '../sweep/sweep.js';
import { countCalls } from './count-calls.js';
import { recordDeliveries } from './deliveries.js';
import { SUBSCRIBED_EVENTS } from './events.js';
import { createHttpRoutes, type HttpRoutes } from './http.js';
import { createMetrics, type Metrics } from './metrics.js';
import { handleWebhook, type WebhookDeps, type WebhookEvent } from './webhook.js';

/** The operator settings the app itself reads (the rest are Probot's). */
export type WardenSettings = Pick<
  Settings,
  'staleAfterMs' | 'sweepIntervalMs' | 'resyncIntervalMs' | 'configCacheMs'
> &
  Partial<
    Pick<
      Settings,
      | 'redeliverIntervalMs'
      | 'redeliverMax'
      | 'eventsUrl'
      | 'eventsSecret'
      | 'eventsConcurrency'
      | 'eventsMaxPending'
      | 'redisUrl'
      | 'redisPrefix'
      | 'queueLockMs'
      | 'metricsToken'
      | 'writePacingMs'
    >
  >;

/** What createClaimWarden needs besides the Probot instance. */
export interface WardenOptions {
  readonly settings: WardenSettings;
  readonly store: Store;
  readonly queue: WorkQueue;
  /** The clock; tests pass their own. */
  readonly now?: () => Date;
  /** The clock GitHub writes are paced on (default real time); tests pass their own. */
  readonly pacingClock?: PacingClock;
  /** Start the sweep and resync timers (default true; tests drive them by hand). */
  readonly timers?: boolean;
  /** The app's logger; default Probot's (`app.log`). main passes its root, so the log line
   * carries one `name`, not Probot's and ours. */
  readonly log?: Logger;
  /** How outgoing events are retried and how long a receiver may take (tests shorten them). */
  readonly eventSender?: EventSenderOptions;
  /** The metrics to count in; main makes them before GitHub is reached, to serve them then. */
  readonly metrics?: Metrics;
}

/** A running claim-warden inside a Probot instance. */
export interface ClaimWarden {
  readonly appLogin: string;
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly metrics: Metrics;
  /** Outgoing claim events (docs/protocol.md §13); null without `CLAIMS_EVENTS_URL`. */
  readonly events: EventOutbox | null;
  /** The app's HTTP routes (`/health`, `/metrics`); later rooms register theirs here. */
  readonly http: HttpRoutes;
  /**
   * Resolves when the start-up resync has queued its work and, with timers, the first
   * delivery recovery (begun by {@link ClaimWarden.opened}) has asked for its redeliveries.
   */
  readonly started: Promise<void>;
  sweep(): Promise<SweepResult>;
  resync(installationId: number, repos?: readonly string[]): Promise<unknown>;
  /** One delivery recovery run (docs/protocol.md §12) when this replica takes its lease. */
  recoverDeliveries(): Promise<RecoveryResult | null>;
  /**
   * The webhook door is open: starts delivery recovery (with timers), whose redeliveries
   * would be refused before. main calls it once the app takes webhooks.
   */
  opened(): void;
  /** The routes of `http`, for Probot's server (`addHandler`). */
  handleHttp(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Stops timers and the queue (finishing running reconciles); closes the store. */
  stop(): Promise<void>;
}

/**
 * Wires the app into a Probot instance: webhooks become reconcile requests on the queue
 * (handleWebhook); the queue runs reconciles with per-installation octokits; the sweep and
 * the resync keep claims true without any event.
 */
export async function createClaimWarden(app: Probot, options: WardenOptions): Promise<ClaimWarden> {
  const { settings, store, queue } = options;
  const now = options.now ?? (() => new Date());
  const log: Logger = (options.log ?? app.log).child({ name: 'claim-warden' });
  // NaN while Redis is away, so a scrape still gets the other metrics.
  const metrics = options.metrics ?? createMetrics(() => queue.depth().catch(() => Number.NaN));
  const octokits = new InstallationOctokits(app, {
    pacing: writePacing({
      writeMs: settings.writePacingMs ?? GITHUB_WRITE_SPACING_MS,
      ...(options.pacingClock ? { clock: options.pacingClock } : {}),
    }),
  });
  const configCache = new RepoConfigCache({ ttlMs: settings.configCacheMs });
  const knownLabels = new KnownLabels();

  const appOctokit = await app.auth();
  countCalls(appOctokit, metrics, log);
  // Own writes come back as webhooks; knowing our login lets them be dropped before any call.
  // No retries of its own: start-up (connectToGitHub) retries it with backoff and says so in
  // the log, where @octokit/plugin-retry's three silent attempts took 15 s per failure.
  const { data: self } = await appOctokit.rest.apps.getAuthenticated({ request: { retries: 0 } });
  const appLogin = `${self?.slug ?? 'claim-warden'}[bot]`;

  const octokitFor = async (installationId: number): Promise<ProbotOctokit> => {
    const octokit = await octokits.get(installationId);
    countCalls(octokit, metrics, log);
    return octokit;
  };
  // Each fresh read also records what the work queue offers there (docs/protocol.md §9).
  const repoConfig = (octokit: ProbotOctokit, where: { owner: string; repo: string }) =>
    configCache.get(where, async () => {
      const result = await loadRepoConfig(octokit, where, { staleAfterMs: settings.staleAfterMs });
      await rememberQueueSettings({ store, log }, where, result);
      return result;
    });

  const events = createEventOutbox(
    settings,
    log,
    options.eventSender,
    eventMetrics(metrics.registry),
  );

  const requestPullCheckOf = (key: IssueKey) =>
    queue.enqueue(checkPullRequestOf(key, undefined, 'recheck', now()));
  const guardDeps: GuardDeps = {
    octokitFor,
    configOf: (octokit, repo) => repoConfig(octokit, repo),
    store,
    log,
    now,
    appLogin,
    knownLabels,
    onObserve: (kind) => metrics.observedWrites.inc({ kind }),
  };

  const reconcileDeps = {
    octokitFor,
    configFor: async (octokit: ProbotOctokit, key: IssueKey) =>
      configForReconcile(await repoConfig(octokit, key)),
    store,
    log,
    now,
    appLogin,
    knownLabels,
    onWrite: (action: Action) => {
      if (action.kind === 'finalise') metrics.finalisations.inc({ reason: action.reason });
    },
    requestReconcile: (key: IssueKey) => queue.enqueue({ key, hints: [], reason: 'paths' }),
    requestPullCheck: requestPullCheckOf,
    onObserve: (action: Action) => metrics.observedWrites.inc({ kind: action.kind }),
    // Outgoing claim events (docs/protocol.md §13); not called for a plan only observed.
    ...(events
      ? { publishEvents: (changes: readonly ClaimEvent[]) => events.publish(changes) }
      : {}),
  };
  // One reconcile, as the queue and the claims API run it; it records the holder it verified
  // in the open-issue index (the work queue's and the board's).
  const reconcileOne = (request: ReconcileRequest) => reconcileWithRollout(reconcileDeps, request);
  const reconcile: ReconcileHandler = async (request) => {
    // docs/protocol.md §11: pull-request checks and branch heartbeats ride the same queue,
    // so each runs under its issue's (or pull request's) mutual exclusion.
    await runGuardJobs(guardDeps, request);
    if (!needsReconcile(request)) return;
    try {
      const result = await reconcileOne(request);
      metrics.reconciles.inc({ outcome: result.outcome });
    } catch (error) {
      metrics.reconciles.inc({ outcome: 'failed' });
      throw error;
    }
  };
  // A reconcile that fails on every attempt is not dropped: the sweep retries it. The guard's
  // own work is not an issue the sweep could reconcile (docs/protocol.md §11): it is dropped,
  // and the next pull_request or push event asks for it again.
  const keepReconcileDue = keepDue({
    store,
    log,
    now,
    onKept: () => metrics.reconcilesKeptDue.inc(),
  });
  const onExhausted: ExhaustedHandler = async (request, error, attempts) => {
    if (needsReconcile(request)) return keepReconcileDue(request, error, attempts);
    log.warn(
      { issue: issueKeyString(request.key), reason: request.reason, attempts, err: error },
      'guard work failed on every attempt: dropped',
    );
  };
  queue.start(reconcile, { onExhausted });
  const claimsApi = createClaimsApi({
    store,
    queue,
    log,
    now,
    appLogin,
    appOctokit,
    octokitFor,
    config: repoConfig,
    reconcile: reconcileOne,
    events: events !== null,
  });

  const resyncDeps = {
    store,
    queue,
    log,
    now,
    appOctokit: async () => appOctokit,
    octokitFor,
    staleAfterFor: async (octokit: ProbotOctokit, repo: { owner: string; repo: string }) =>
      staleWindowOf(await repoConfig(octokit, repo)),
  };
  const resync = (installationId: number, repos?: readonly string[]) =>
    resyncInstallation(resyncDeps, installationId, repos).catch((err: unknown) => {
      log.error({ err, installationId }, 'resync failed');
    });

  // issues.deleted / transferred: GitHub said the issue is gone, so everything kept on it goes.
  // The pull requests its claims flagged are checked again first (docs/protocol.md §11).
  const forget = async (key: IssueKey): Promise<void> => {
    await indexForGuard({ store, requestPullCheck: requestPullCheckOf }, key, {
      actions: [],
      holder: null,
      deadline: null,
    });
    await store.forgetIssue(key);
  };
  const webhookDeps: WebhookDeps = {
    appLogin,
    now,
    store,
    queue,
    deliveries: recordDeliveries(store, log),
    log,
    forget,
    resync: (installationId, repos) => void resync(installationId, repos),
    uninstalled: (installationId) => octokits.forget(installationId),
    // The index's claim (the queue's and the board's) follows a deferred heartbeat; a store
    // error only logs.
    async deferredHeartbeat(key, payload) {
      const c = (payload as { comment?: { id: number; body?: string; updated_at: string } })
        .comment;
      if (!c) return;
      const comment = { id: c.id, body: c.body ?? '', updatedAt: new Date(c.updated_at) };
      await indexHeartbeat(store, key, comment).catch((err: unknown) => {
        log.warn({ err, commentId: c.id }, 'heartbeat not recorded in the index');
      });
    },
    // Label events matter only for status labels, and a bot's marker only when the bot is in
    // trustedBots: either costs a cached config read, never a reconcile.
    async concernsClaims(route) {
      const { key } = route.request;
      const config = configForFilter(await repoConfig(await octokitFor(key.installationId), key));
      // Unreadable: reconcile anyway; it fails closed and retries. Invalid: nothing to write.
      if (config === 'unknown') return true;
      if (config === null) return false;
      const { labels, trustedBots } = config;
      if (route.label !== undefined)
        return hasName([labels.inProgress, labels.blocked], route.label);
      return hasName(trustedBots, route.bot ?? '');
    },
    guardWork: (event) =>
      guardWork(
        {
          store,
          now,
          configFor: async (repo) =>
            configForFilter(await repoConfig(await octokitFor(repo.installationId), repo)),
          dropConfig: (repo) => configCache.invalidate(repo),
        },
        event,
      ),
  };
  app.on([...SUBSCRIBED_EVENTS], async (context) => {
    // The work queue's index follows every issues event, own echoes too (§9): no API call.
    if (context.name === 'issues') await indexIssuesEvent(store, log, context.payload);
    const outcome = await handleWebhook(webhookDeps, context as WebhookEvent);
    metrics.webhooks.inc({ event: outcome.event, result: outcome.result });
    if (outcome.error) throw outcome.error;
  });

  const timers = options.timers ?? true;
  const sweepDeps = {
    store,
    queue,
    now,
    log,
    intervalMs: settings.sweepIntervalMs,
    onSweep: (result: SweepResult) => {
      if (result.ran) metrics.sweepSeconds.observe(result.ms / 1000);
    },
  };
  const sweeper = timers ? startSweeper(sweepDeps) : null;
  const resyncer = timers
    ? startResync({ ...resyncDeps, intervalMs: settings.resyncIntervalMs })
    : null;
  const http = createHttpRoutes({
    store,
    queue,
    metrics,
    metricsToken: settings.metricsToken,
  });
  for (const method of ['GET', 'POST', 'DELETE', 'PUT', 'PATCH']) {
    http.route(method, '/api/claims/v1/', async (req, res) => {
      if (!(await claimsApi(req, res))) res.writeHead(404).end();
    });
  }

  let openedDone: () => void = () => {};
  const recovered = timers
    ? new Promise<void>((resolve) => {
        openedDone = resolve;
      })
    : Promise.resolve();
  const subscribed = new Set<string>(SUBSCRIBED_EVENTS);
  const recovery = createRecovery({
    store,
    log,
    now,
    appOctokit: async () => appOctokit,
    max: settings.redeliverMax ?? 100,
    intervalMs: settings.redeliverIntervalMs ?? 10 * 60_000,
    subscribed: (event, action) => subscribed.has(action === null ? event : `${event}.${action}`),
    onRun: (result) => {
      metrics.redeliveries.inc({ result: 'found' }, result.found);
      metrics.redeliveries.inc({ result: 'redelivered' }, result.redelivered);
      metrics.redeliveries.inc({ result: 'failed' }, result.failed);
    },
  });

  return {
    appLogin,
    store,
    queue,
    metrics,
    events,
    http,
    // With timers, also the first delivery recovery (begun by opened()), so callers that wait
    // for start-up see no call of it land later.
    started: Promise.all([resyncer?.first, recovered]).then(() => undefined),
    sweep: () => sweepOnce(sweepDeps),
    resync,
    recoverDeliveries: () => recovery.runIfDue(),
    opened: () => {
      if (timers) void recovery.start().then(openedDone);
    },
    handleHttp: (req, res) => http.handle(req, res),
    async stop() {
      sweeper?.stop();
      await recovery.stop();
      await resyncer?.stop();
      await queue.close();
      await events?.close();
      await store.close();
    },
  };
}
