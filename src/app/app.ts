import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Probot, ProbotOctokit } from 'probot';
import { noteHolderHeartbeat } from '../board/note-holder-heartbeat.js';
import type { Action } from '../claims/decide.js';
import { hasName } from '../claims/names.js';
import { loadRepoConfig, RepoConfigCache, type RepoConfigResult } from '../config/repo-config.js';
import type { Settings } from '../config/settings.js';
import { KnownLabels } from '../github/execute.js';
import { InstallationOctokits } from '../github/octokit.js';
import { statusOf } from '../github/thread.js';
import type { WorkQueue } from '../queue/queue.js';
import { type ConfigLookup, reconcileIssue } from '../reconcile/reconcile.js';
import type { IssueKey, Store } from '../store/store.js';
import { resyncInstallation, startResync } from '../sweep/resync.js';
import { type SweepResult, startSweeper, sweepOnce } from '../sweep/sweep.js';
import { type EventRoute, routeEvent, SUBSCRIBED_EVENTS } from './events.js';
import { createMetrics, type Metrics, routeTemplate } from './metrics.js';

/** GitHub redelivers a webhook for up to three days; a delivery id is remembered that long. */
export const DELIVERY_TTL_MS = 3 * 24 * 3_600_000;

/**
 * How long a delivery id is held while its request is being queued, before it is kept for
 * DELIVERY_TTL_MS (stores with two-step recording; see recordDelivery). It outlasts the
 * webhook path (each Redis command fails within seconds) and is short enough that an id
 * whose request was lost in an outage blocks its redelivery only briefly.
 */
export const DELIVERY_CLAIM_MS = 60_000;

/**
 * Thrown to Probot when a delivery could not be recorded and queued (Redis unreachable):
 * the webhook is answered 503 so GitHub shows it as failed and it can be redelivered.
 */
export class DeliveryNotQueuedError extends Error {
  /** The HTTP status @octokit/webhooks answers with. */
  readonly status = 503;
  readonly event: string;
  readonly deliveryId: string;

  constructor(event: string, deliveryId: string, cause: unknown) {
    super(
      `delivery ${deliveryId} (${event}) was not queued: Redis (store or work queue) did not answer; redeliver it once /health answers 200`,
      { cause },
    );
    this.name = 'DeliveryNotQueuedError';
    this.event = event;
    this.deliveryId = deliveryId;
  }
}

/** The operator settings the app itself reads (the rest are Probot's). */
export type WardenSettings = Pick<
  Settings,
  'staleAfterMs' | 'sweepIntervalMs' | 'resyncIntervalMs' | 'configCacheMs'
>;

/** What createClaimWarden needs besides the Probot instance. */
export interface WardenOptions {
  readonly settings: WardenSettings;
  readonly store: Store;
  readonly queue: WorkQueue;
  /** The clock; tests pass their own. */
  readonly now?: () => Date;
  /** Start the sweep and resync timers (default true; tests drive them by hand). */
  readonly timers?: boolean;
}

/** A running claim-warden inside a Probot instance. */
export interface ClaimWarden {
  readonly appLogin: string;
  readonly store: Store;
  readonly queue: WorkQueue;
  readonly metrics: Metrics;
  /** Resolves when the start-up resync has queued its work. */
  readonly started: Promise<void>;
  sweep(): Promise<SweepResult>;
  resync(installationId: number, repos?: readonly string[]): Promise<unknown>;
  /** `GET /health` and `GET /metrics`, for Probot's server (`addHandler`). */
  handleHttp(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Stops timers and the queue (finishing running reconciles); closes the store. */
  stop(): Promise<void>;
}

/**
 * Wires the app into a Probot instance: webhooks become reconcile requests on the queue;
 * the queue runs reconciles with per-installation octokits; the sweep and the resync keep
 * claims true without any event.
 */
export async function createClaimWarden(app: Probot, options: WardenOptions): Promise<ClaimWarden> {
  const { settings, store, queue } = options;
  const now = options.now ?? (() => new Date());
  const log: Logger = app.log.child({ name: 'claim-warden' });
  // NaN while Redis is away, so a scrape still gets the other metrics.
  const metrics = createMetrics(() => queue.depth().catch(() => Number.NaN));
  const octokits = new InstallationOctokits(app);
  const configCache = new RepoConfigCache({ ttlMs: settings.configCacheMs });
  const knownLabels = new KnownLabels();

  const appOctokit = await app.auth();
  countCalls(appOctokit, metrics);
  // Own writes come back as webhooks; knowing our login lets them be dropped before any call.
  const { data: self } = await appOctokit.rest.apps.getAuthenticated();
  const appLogin = `${self?.slug ?? 'claim-warden'}[bot]`;

  const octokitFor = async (installationId: number): Promise<ProbotOctokit> => {
    const octokit = await octokits.get(installationId);
    countCalls(octokit, metrics);
    return octokit;
  };
  const repoConfig = (octokit: ProbotOctokit, where: { owner: string; repo: string }) =>
    configCache.get(where, () =>
      loadRepoConfig(octokit, where, { staleAfterMs: settings.staleAfterMs }),
    );
  const configFor = async (octokit: ProbotOctokit, key: IssueKey): Promise<ConfigLookup> =>
    usable(await repoConfig(octokit, key));

  queue.start(async (request) => {
    try {
      const result = await reconcileIssue(
        {
          octokitFor,
          configFor,
          store,
          log,
          now,
          appLogin,
          knownLabels,
          onWrite: (action: Action) => {
            if (action.kind === 'finalise') metrics.finalisations.inc({ reason: action.reason });
          },
        },
        request,
      );
      metrics.reconciles.inc({ outcome: result.outcome });
    } catch (error) {
      metrics.reconciles.inc({ outcome: 'failed' });
      throw error;
    }
  });

  const deliveries = recordDeliveries(store, log);

  app.on([...SUBSCRIBED_EVENTS], async (context) => {
    const route = routeEvent(context as Parameters<typeof routeEvent>[0], appLogin, now());
    const event = `${context.name}.${(context.payload as { action?: string }).action ?? ''}`;
    const delivery = context.id;
    if (route.kind === 'malformed') {
      metrics.webhooks.inc({ event, result: 'malformed' });
      log.warn({ event, delivery, problem: route.problem }, 'malformed webhook payload ignored');
      return;
    }
    if (route.kind === 'ignore') {
      metrics.webhooks.inc({ event, result: 'ignored' });
      log.debug({ event, why: route.why, delivery }, 'event ignored');
      return;
    }
    // Before the delivery is recorded: an error here leaves nothing to undo.
    if (route.kind === 'reconcile' && !(await concernsClaims(route))) {
      metrics.webhooks.inc({ event, result: 'ignored' });
      return;
    }
    // A heartbeat of the holder changes nothing now; the sweep re-reads the thread at the
    // indexed deadline and moves it. This saves two reads per heartbeat (docs/api-budget.md).
    if (route.kind === 'reconcile' && route.heartbeatOf !== undefined) {
      const holder = await store.holderOf(route.request.key).catch(() => null);
      if (holder === route.heartbeatOf) {
        metrics.webhooks.inc({ event, result: 'deferred' });
        await boardHeartbeat(route.request.key, context.payload);
        log.debug(
          { event, delivery, commentId: holder },
          'heartbeat of the holder: left to the sweep',
        );
        return;
      }
    }
    // SPEC §5: a delivery id seen before is acknowledged and does nothing. A store error
    // answers 503, so the delivery shows as failed on GitHub and can be redelivered.
    let fresh: boolean;
    try {
      fresh = await deliveries.begin(delivery);
    } catch (error) {
      // The record may have landed with its reply lost: undo it (or let it expire).
      void deliveries.abort(delivery);
      metrics.webhooks.inc({ event, result: 'failed' });
      log.error({ err: error, event, delivery }, 'delivery not recorded: answered 503');
      throw new DeliveryNotQueuedError(event, delivery, error);
    }
    if (!fresh) {
      metrics.webhooks.inc({ event, result: 'duplicate' });
      return;
    }
    try {
      switch (route.kind) {
        case 'reconcile':
          await queue.enqueue(route.request);
          if (route.forget) await forget(route.forget);
          break;
        case 'forget':
          await forget(route.key);
          break;
        case 'resync':
          // Listing repositories can take longer than GitHub's 10 seconds: run it detached.
          void resync(route.installationId, route.repos);
          break;
      }
    } catch (error) {
      await deliveries.abort(delivery);
      metrics.webhooks.inc({ event, result: 'failed' });
      log.error({ err: error, event, delivery }, 'delivery not queued: answered 503');
      throw new DeliveryNotQueuedError(event, delivery, error);
    }
    await deliveries.commit(delivery);
    metrics.webhooks.inc({ event, result: route.kind });
  });

  /** The claims board's row follows a deferred heartbeat; a store error only logs. */
  async function boardHeartbeat(key: IssueKey, payload: unknown): Promise<void> {
    const c = (payload as { comment?: { id: number; body?: string; updated_at: string } }).comment;
    if (!c) return;
    const comment = { id: c.id, body: c.body ?? '', updatedAt: new Date(c.updated_at) };
    await noteHolderHeartbeat(store, key, comment).catch((err: unknown) => {
      log.warn({ err, commentId: c.id }, 'board heartbeat not recorded');
    });
  }

  async function forget(key: IssueKey): Promise<void> {
    await store.setDeadline(key, null);
    await store.setHolder(key, null);
    await store.setLiveClaimSummary(key, null);
  }

  /**
   * Label events matter only for status labels, and a bot's marker only when the bot is in
   * trustedBots: either costs a cached config read, never a reconcile.
   */
  async function concernsClaims(route: EventRoute & { kind: 'reconcile' }): Promise<boolean> {
    if (route.label === undefined && route.bot === undefined) return true;
    const { key } = route.request;
    const result = await repoConfig(await octokitFor(key.installationId), key);
    // Unreadable config: reconcile anyway; it fails closed and retries.
    if (result.kind === 'unreadable') return true;
    if (result.kind === 'invalid') return false;
    const { labels, trustedBots } = result.config;
    if (route.label !== undefined) return hasName([labels.inProgress, labels.blocked], route.label);
    return hasName(trustedBots, route.bot ?? '');
  }

  const resyncDeps = {
    store,
    queue,
    log,
    now,
    appOctokit: async () => appOctokit,
    octokitFor,
    staleAfterFor: async (octokit: ProbotOctokit, repo: { owner: string; repo: string }) => {
      const result = await repoConfig(octokit, repo);
      if (result.kind === 'unreadable') throw new Error(`config unreadable: ${result.message}`);
      return result.kind === 'invalid' ? null : result.config.staleAfterMs;
    },
  };
  const resync = (installationId: number, repos?: readonly string[]) =>
    resyncInstallation(resyncDeps, installationId, repos).catch((err: unknown) => {
      log.error({ err, installationId }, 'resync failed');
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

  return {
    appLogin,
    store,
    queue,
    metrics,
    started: resyncer?.first ?? Promise.resolve(),
    sweep: () => sweepOnce(sweepDeps),
    resync,
    handleHttp: (req, res) => handleHttp(req, res, { store, queue, metrics }),
    async stop() {
      sweeper?.stop();
      await resyncer?.stop();
      await queue.close();
      await store.close();
    },
  };
}

/** How the webhook path records a delivery id around queueing its request. */
interface DeliveryRecorder {
  /** Records the id; false when it was seen before. Throws when the store cannot tell. */
  begin(deliveryId: string): Promise<boolean>;
  /** The request is queued: keep the id for GitHub's redelivery window. Never throws. */
  commit(deliveryId: string): Promise<void>;
  /** The request was not queued: forget the id so a redelivery is processed. Never throws. */
  abort(deliveryId: string): Promise<void>;
}

/**
 * Records delivery ids so that an outage neither loses an event nor runs one twice.
 *
 * Record-then-queue, with the record undone when queueing fails: queue-then-record would
 * run a duplicate delivery again (it is queued before it is found seen), and recording
 * alone would lose an event whose queueing failed (its redelivery would count as seen).
 * The undo can fail as well (Redis went away between the two steps), and a command whose
 * reply was lost may have been applied. So the id is recorded in two
 * steps: for DELIVERY_CLAIM_MS before the request is queued, for DELIVERY_TTL_MS once it is;
 * whatever happens to the undo, a lost event's id expires within a minute and its
 * redelivery is processed. A failed commit leaves the short record: a redelivery after it
 * runs one more reconcile, which is idempotent.
 *
 * Not covered: a redelivery that reaches another replica while the first still queues it is
 * acknowledged as a duplicate; if that first queueing then fails, the event waits for the
 * next resync.
 */
function recordDeliveries(store: Store, log: Logger): DeliveryRecorder {
  return {
    begin: (id) => store.markDelivery(id, DELIVERY_CLAIM_MS),
    commit: (id) =>
      store.confirmDelivery(id, DELIVERY_TTL_MS).catch((err: unknown) => {
        log.warn({ err, delivery: id }, 'delivery queued but its id not kept: expires in 1 min');
      }),
    abort: (id) =>
      store.forgetDelivery(id).catch((err: unknown) => {
        log.warn({ err, delivery: id }, 'delivery id not forgotten: it expires in 1 min');
      }),
  };
}

/** SPEC §6: an invalid config writes nothing; an unreadable one is retried (fail closed). */
function usable(result: RepoConfigResult): ConfigLookup {
  switch (result.kind) {
    case 'absent':
    case 'loaded':
      return { ok: true, config: result.config };
    case 'invalid':
      return { ok: false, error: result.error };
    case 'unreadable':
      throw new Error(`repository config unreadable: ${result.message}`, { cause: result.error });
  }
}

const counted = new WeakSet<object>();

/** Counts every GitHub request by method, route template and status, once per octokit. */
function countCalls(octokit: ProbotOctokit, metrics: Metrics): void {
  if (counted.has(octokit)) return;
  counted.add(octokit);
  octokit.hook.wrap('request', async (request, options) => {
    const labels = { method: options.method, route: routeTemplate(options.url) };
    try {
      const response = await request(options);
      metrics.githubCalls.inc({ ...labels, status: String(response.status) });
      return response;
    } catch (error) {
      metrics.githubCalls.inc({ ...labels, status: String(statusOf(error) ?? 'error') });
      throw error;
    }
  });
}

async function handleHttp(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { store: Store; queue: WorkQueue; metrics: Metrics },
): Promise<boolean> {
  const path = (req.url ?? '').split('?')[0];
  if (req.method !== 'GET') return false;
  if (path === '/health') {
    // The queue is asked too: in Redis mode it has connections of its own, and a webhook
    // needs both (depth is answered by the queue's webhook-side connection). `store` in the
    // body stands for the shared state: both.
    const [store, queue] = await Promise.all([
      deps.store.ping().catch(() => false),
      answers(deps.queue.depth(), 2000),
    ]);
    const ok = store && queue;
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', store: ok }));
    return true;
  }
  if (path === '/metrics') {
    res.writeHead(200, { 'content-type': deps.metrics.registry.contentType });
    res.end(await deps.metrics.registry.metrics());
    return true;
  }
  return false;
}

/** Whether `work` settles without an error within `ms`. */
async function answers(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
