import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Probot, ProbotOctokit } from 'probot';
import type { Action } from '../claims/decide.js';
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
import { routeEvent, SUBSCRIBED_EVENTS } from './events.js';
import { createMetrics, type Metrics } from './metrics.js';

/** GitHub redelivers a webhook for up to three days; a delivery id is remembered that long. */
export const DELIVERY_TTL_MS = 3 * 24 * 3_600_000;

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
  const metrics = createMetrics(() => queue.depth());
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

  app.on([...SUBSCRIBED_EVENTS], async (context) => {
    const route = routeEvent(context as Parameters<typeof routeEvent>[0], appLogin, now());
    const event = `${context.name}.${(context.payload as { action?: string }).action ?? ''}`;
    if (route.kind === 'ignore') {
      metrics.webhooks.inc({ event, result: 'ignored' });
      log.debug({ event, why: route.why, delivery: context.id }, 'event ignored');
      return;
    }
    // SPEC §5: a delivery id seen before is acknowledged and does nothing. A store error
    // throws, so the delivery shows as failed on GitHub and can be redelivered.
    if (!(await store.markDelivery(context.id, DELIVERY_TTL_MS))) {
      metrics.webhooks.inc({ event, result: 'duplicate' });
      return;
    }
    switch (route.kind) {
      case 'reconcile':
        if (route.label !== undefined && !(await isStatusLabel(route.label, route.request.key))) {
          metrics.webhooks.inc({ event, result: 'ignored' });
          return;
        }
        await queue.enqueue(route.request);
        break;
      case 'forget':
        await store.setDeadline(route.key, null);
        break;
      case 'resync':
        // Listing repositories can take longer than GitHub's 10 seconds: run it detached.
        void resync(route.installationId, route.repos);
        break;
    }
    metrics.webhooks.inc({ event, result: route.kind });
  });

  /** Only status labels matter; others cost a cached config read, never a reconcile. */
  async function isStatusLabel(label: string, key: IssueKey): Promise<boolean> {
    const octokit = await octokitFor(key.installationId);
    const result = await repoConfig(octokit, key);
    // Unreadable config: reconcile anyway; it fails closed and retries.
    if (result.kind === 'unreadable' || result.kind === 'invalid')
      return result.kind === 'unreadable';
    const { inProgress, blocked } = result.config.labels;
    return [inProgress, blocked].some((name) => name.toLowerCase() === label.toLowerCase());
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
    handleHttp: (req, res) => handleHttp(req, res, { store, metrics }),
    async stop() {
      sweeper?.stop();
      resyncer?.stop();
      await queue.close();
      await store.close();
    },
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
    const labels = { method: options.method, route: options.url };
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
  deps: { store: Store; metrics: Metrics },
): Promise<boolean> {
  const path = (req.url ?? '').split('?')[0];
  if (req.method !== 'GET') return false;
  if (path === '/health') {
    const ok = await deps.store.ping().catch(() => false);
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
