import type { ProbotOctokit } from 'probot';
import { settingDefault } from '../config/settings.js';
import { resyncedWorkOf, staleWindowOf } from '../config/stale-window-of.js';
import type { RecoveryResult } from '../recovery/recover-deliveries.js';
import { createRecovery } from '../recovery/start-recovery.js';
import { type ResyncDeps, resyncInstallation, startResync } from '../sweep/resync.js';
import { type SweepResult, startSweeper, sweepOnce } from '../sweep/sweep.js';
import { SUBSCRIBED_EVENTS } from './route-event.js';
import type { WardenCore } from './warden-core.js';

/** The app's periodic work: the sweep, the resync and delivery recovery. */
interface WardenTimers {
  /**
   * Resolves when the start-up resync has queued its work and, with timers, the first
   * delivery recovery (begun by {@link WardenTimers.opened}) has asked for its redeliveries.
   */
  readonly started: Promise<void>;
  sweep(): Promise<SweepResult>;
  /** One installation's resync; failures are logged, never thrown. */
  resync(installationId: number, repos?: readonly string[]): Promise<unknown>;
  recoverDeliveries(): Promise<RecoveryResult | null>;
  /**
   * The webhook door is open (`/health` says 200): starts delivery recovery (with timers),
   * its first run `CLAIMS_REDELIVER_DELAY` later.
   */
  opened(): void;
  /** Stops the timers, waiting for the runs in progress. */
  stop(): Promise<void>;
}

/**
 * The sweep, the resync and delivery recovery (docs/protocol.md §12), each on its own timer
 * when `timers` is on; tests drive them by hand (`sweep`, `resync`, `recoverDeliveries`).
 */
export function wardenTimers(
  core: WardenCore,
  timers: boolean,
  recheckMs?: readonly number[],
): WardenTimers {
  const { store, queue, log, now, metrics, settings } = core;
  const resyncDeps: ResyncDeps = {
    store,
    queue,
    log,
    now,
    appOctokit: async () => core.appOctokit,
    octokitFor: core.octokitFor,
    staleAfterFor: async (octokit: ProbotOctokit, repo: { owner: string; repo: string }) =>
      staleWindowOf(await core.config.get(octokit, repo)),
    peopleOn: async (octokit: ProbotOctokit, repo: { owner: string; repo: string }) =>
      resyncedWorkOf(await core.config.get(octokit, repo)),
    appSlug: core.appLogin.replace(/\[bot\]$/i, ''),
  };
  const sweepDeps = {
    store,
    queue,
    now,
    log,
    intervalMs: settings.sweepIntervalMs,
    onSweep: (result: SweepResult) => {
      if (!result.ran) return;
      metrics.sweepSeconds.observe(result.ms / 1000);
      metrics.ops.sweepLastSuccess.set(now().getTime() / 1000);
    },
  };
  const sweeper = timers ? startSweeper(sweepDeps) : null;
  const resyncer = timers
    ? startResync({ ...resyncDeps, intervalMs: settings.resyncIntervalMs })
    : null;
  const recovery = deliveryRecovery(core, recheckMs);
  let openedDone: () => void = () => {};
  const recovered = timers
    ? new Promise<void>((resolve) => {
        openedDone = resolve;
      })
    : Promise.resolve();
  return {
    // With timers, also the first delivery recovery (begun by opened()), so callers that wait
    // for start-up see no call of it land later.
    started: Promise.all([resyncer?.first, recovered]).then(() => undefined),
    sweep: () => sweepOnce(sweepDeps),
    resync: (installationId, repos) =>
      resyncInstallation(resyncDeps, installationId, repos).catch((err: unknown) => {
        log.error({ err, installationId }, 'resync failed');
      }),
    recoverDeliveries: () => recovery.runIfDue(),
    opened: () => {
      if (timers) void recovery.start().then(openedDone);
    },
    async stop() {
      sweeper?.stop();
      await recovery.stop();
      await resyncer?.stop();
    },
  };
}

/** Delivery recovery (docs/protocol.md §12) of the events the app subscribes to. */
function deliveryRecovery(core: WardenCore, recheckMs: readonly number[] | undefined) {
  const { store, log, now, metrics, settings } = core;
  const subscribed = new Set<string>(SUBSCRIBED_EVENTS);
  return createRecovery({
    store,
    log,
    now,
    appOctokit: async () => core.appOctokit,
    max: settings.redeliverMax ?? settingDefault('CLAIMS_REDELIVER_MAX'),
    intervalMs: settings.redeliverIntervalMs ?? settingDefault('CLAIMS_REDELIVER_INTERVAL'),
    delayMs: settings.redeliverDelayMs ?? 0,
    ...(recheckMs ? { recheckMs } : {}),
    subscribed: (event, action) => subscribed.has(action === null ? event : `${event}.${action}`),
    onRun: (result) => {
      metrics.redeliveries.inc({ result: 'found' }, result.found);
      metrics.redeliveries.inc({ result: 'redelivered' }, result.redelivered);
      metrics.redeliveries.inc({ result: 'failed' }, result.failed);
    },
  });
}
