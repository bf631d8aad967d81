import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Probot } from 'probot';
import { limitCounters } from '../api/caller/limit-counters.js';
import { apiCallerLimits, createClaimsApi, DEFAULT_CALLER_LIMITS } from '../api/claims-api.js';
import { peopleGateOf } from '../api/issue/people-gate.js';
import { settingDefault } from '../config/settings.js';
import { createEventOutbox } from '../events/create-event-outbox.js';
import { eventMetrics } from '../events/event-metrics.js';
import type { EventOutbox, EventSenderOptions } from '../events/event-outbox.js';
import { sharedWritePacing } from '../github/shared-write-pacing.js';
import { type PacingClock, writePacing } from '../github/write-pacing.js';
import type { HttpRoutes } from '../http-routes.js';
import type { Intake } from '../intake/intake.js';
import { remoteMcpRoutes } from '../mcp/remote-mcp-routes.js';
import type { WorkQueue } from '../queue/queue.js';
import { rememberQueueSettings } from '../read-model/queue-settings.js';
import type { RecoveryResult } from '../recovery/recover-deliveries.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';
import type { SweepResult } from '../sweep/sweep.js';
import { observeApi, observeRuns, traceMcpRequests } from '../telemetry/observe-api.js';
import { registerScrapedGauges } from '../telemetry/scraped-gauges.js';
import { connectApp } from './connect-app.js';
import { createHttpRoutes } from './http.js';
import { createMetrics, type Metrics } from './metrics.js';
import { queueJobs } from './queue-jobs.js';
import { repoConfigSource } from './repo-config-source.js';
import { mountRoutes } from './route-table.js';
import type { WardenCore, WardenSettings } from './warden-core.js';
import { wardenTimers } from './warden-timers.js';
import { webhookIntake } from './webhook-intake.js';

/** What createClaimWarden needs besides the Probot instance. */
interface WardenOptions {
  /** Where webhooks arrive: the webhook door hands it every genuine delivery. */
  readonly intake: Intake;
  readonly settings: WardenSettings;
  readonly store: Store;
  readonly queue: WorkQueue;
  /** The clock; tests pass their own. */
  readonly now?: () => Date;
  /** The clock GitHub writes are paced on (default real time); tests pass their own. */
  readonly pacingClock?: PacingClock;
  /** How many callers this process's limits remember (default 10,000). */
  readonly callersKept?: number;
  /** Start the sweep and resync timers (default true; tests drive them by hand). */
  readonly timers?: boolean;
  /** The app's logger; default Probot's (`app.log`). main passes its root, so the log line
   * carries one `name`, not Probot's and ours. */
  readonly log?: Logger;
  /** How outgoing events are retried and how long a receiver may take (tests shorten them). */
  readonly eventSender?: EventSenderOptions;
  /** The metrics to count in; main makes them before GitHub is reached, to serve them then. */
  readonly metrics?: Metrics;
  /** When a delivery recovery that redelivered looks again (default 30, 60, 120 s). */
  readonly redeliveryRechecksMs?: readonly number[];
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
   * would be refused before, `CLAIMS_REDELIVER_DELAY` later (a balancer's readiness probe
   * sends traffic here first). main calls it once the app takes webhooks.
   */
  opened(): void;
  /** The routes of `http`, for Probot's server (`addHandler`). */
  handleHttp(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Stops timers and the queue (finishing running reconciles); closes the store. */
  stop(): Promise<void>;
}

/**
 * Wires the app into a Probot instance: webhooks become reconcile requests on the queue
 * (webhook-intake.ts); the queue runs reconciles with per-installation octokits
 * (queue-jobs.ts); the sweep and the resync keep claims true without any event
 * (warden-timers.ts).
 */
export async function createClaimWarden(app: Probot, options: WardenOptions): Promise<ClaimWarden> {
  const { settings, store, queue } = options;
  const now = options.now ?? (() => new Date());
  const log: Logger = (options.log ?? app.log).child({ name: 'claim-warden' });
  // NaN while Redis is away, so a scrape still gets the other metrics.
  const metrics = options.metrics ?? createMetrics(() => queue.depth().catch(() => Number.NaN));
  const writeMs = settings.writePacingMs ?? settingDefault('CLAIMS_WRITE_PACING_MS');
  const clock = options.pacingClock ? { clock: options.pacingClock } : {};
  const ownPacing = writePacing({ writeMs, ...clock });
  // docs/replicas.md "Write pacing": on Redis, one schedule per installation for all replicas.
  const pacing =
    store instanceof RedisStore
      ? sharedWritePacing({
          redis: () => store.connection(),
          prefix: store.prefix,
          writeMs,
          ...clock,
          fallback: ownPacing,
          log,
        })
      : ownPacing;
  const github = await connectApp(app, metrics, log, pacing);
  const { appLogin, appOctokit, octokitFor } = github;
  const config = repoConfigSource({
    ttlMs: settings.configCacheMs,
    staleAfterMs: settings.staleAfterMs,
    octokitFor,
    // Each fresh read also records what the work queue offers there (docs/protocol.md §9).
    onRead: (where, result) => rememberQueueSettings({ store, log }, where, result),
  });
  const repoConfig = config.get;
  const core: WardenCore = { settings, store, queue, log, now, metrics, ...github, config };

  const events = createEventOutbox(
    settings,
    log,
    options.eventSender,
    eventMetrics(metrics.registry),
  );

  // Past two sweep intervals a due issue should have been queued and reconciled.
  const overdueAfterMs = 2 * settings.sweepIntervalMs + 60_000;
  registerScrapedGauges(metrics.registry, { store, events, now, overdueAfterMs });

  const { reconcileOne, handle, onExhausted, requestPullCheck } = queueJobs(core, events);
  queue.start(handle, { onExhausted });
  // docs/security.md "Limits": on Redis, counted for the whole deployment.
  const counters = limitCounters({
    log,
    ...(options.callersKept ? { maxKeys: options.callersKept } : {}),
    now: () => now().getTime(),
    ...(store instanceof RedisStore
      ? { redis: { client: () => store.connection(), prefix: store.prefix } }
      : {}),
  });
  const callerLimits = apiCallerLimits(
    {
      perMinute: settings.apiRatePerMinute ?? DEFAULT_CALLER_LIMITS.perMinute,
      concurrency: settings.apiConcurrency ?? DEFAULT_CALLER_LIMITS.concurrency,
    },
    counters,
  );
  const claimsApi = createClaimsApi({
    store,
    queue,
    log,
    now,
    ...(options.pacingClock ? { pacedNow: () => options.pacingClock!.now() } : {}),
    appLogin,
    appOctokit,
    octokitFor,
    config: repoConfig,
    reconcile: reconcileOne,
    // docs/protocol.md §16: the API refuses an agent an issue a person holds or people wait for.
    peopleGate: peopleGateOf({ store, appLogin, now }),
    events: events !== null,
    limits: callerLimits,
    counters,
    // docs/protocol.md §8 "Readers": one read of an issue per pacing interval, however many read.
    readIntervalMs: settings.writePacingMs ?? settingDefault('CLAIMS_WRITE_PACING_MS'),
  });

  const timers = wardenTimers(core, options.timers ?? true, options.redeliveryRechecksMs);
  webhookIntake(options.intake, core, { resync: timers.resync, requestPullCheck });
  const http = createHttpRoutes({ store, queue, metrics, metricsToken: settings.metricsToken });
  // Counted and timed by surface: REST calls as HTTP requests, MCP tool calls as operation runs.
  const restApi = observeApi((req, res) => claimsApi.handle(req, res), metrics.ops, 'rest');
  // The remote MCP server: `/mcp`, each tool a run of an operation of the claims API above.
  const remote = remoteMcpRoutes({
    api: observeRuns(claimsApi, metrics.ops),
    callerLimits,
    store,
    log,
    settings,
    githubApiUrl: String(appOctokit.request.endpoint.DEFAULTS.baseUrl),
  });
  mountRoutes(http, {
    'claims-api': async (req, res) => {
      if (!(await restApi(req, res))) res.writeHead(404).end();
    },
    mcp: traceMcpRequests(remote.mcp),
    'resource-metadata': remote.metadata,
  });

  return {
    appLogin,
    store,
    queue,
    metrics,
    events,
    http,
    ...timers,
    handleHttp: (req, res) => http.handle(req, res),
    async stop() {
      await timers.stop();
      await queue.close();
      await events?.close();
      await store.close();
    },
  };
}
