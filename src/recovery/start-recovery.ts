import type { Logger } from 'pino';
import { type RecoveryDeps, type RecoveryResult, recoverDeliveries } from './recover-deliveries.js';

/** The lease that lets one replica of a cluster recover deliveries per interval. */
const REDELIVER_LEASE = 'redeliver-lease';

/**
 * When a run's redeliveries are looked at again (ms after the run before): GitHub never
 * retries a redelivery that failed (a balancer that had not yet sent traffic here, a
 * restart), so a failed one is asked for again soon rather than a whole interval later.
 */
const DEFAULT_RECHECK_MS: readonly number[] = [30_000, 60_000, 120_000];

/** What the periodic recovery needs besides a run's dependencies. */
interface StartRecoveryDeps extends RecoveryDeps {
  readonly log: Logger;
  /** `CLAIMS_REDELIVER_INTERVAL`. */
  readonly intervalMs: number;
  /** `CLAIMS_REDELIVER_DELAY`: from `start()` (the app ready) to the first run. */
  readonly delayMs?: number;
  /** The rechecks after a run that redelivered (default {@link DEFAULT_RECHECK_MS}). */
  readonly recheckMs?: readonly number[];
  /** Called after each run this replica made (metrics). */
  onRun?(result: RecoveryResult): void;
}

/** A running delivery recovery. */
interface Recovery {
  /** Runs once now when this replica takes the interval's lease; null when another holds it. */
  runIfDue(): Promise<RecoveryResult | null>;
  /**
   * Runs `delayMs` after it is called and then every interval (the webhook door must be
   * open: see app.ts). Resolves when the first run ended (failures are logged, not thrown).
   */
  start(): Promise<void>;
  /** Stops the timers, waits for a run in progress, and gives the lease back. */
  stop(): Promise<void>;
}

/**
 * docs/protocol.md §12: delivery recovery `delayMs` after start-up and every interval, once
 * per cluster: the replica that takes the lease runs; it keeps the lease until shortly before
 * the next interval (so the others skip this one) and gives it back when it stops, so a
 * restarted cluster recovers at once. A run that redelivered is followed by rechecks (30, 60,
 * 120 s) while redeliveries keep being needed: the redeliveries it asked for are listed as
 * deliveries of their own, and one that failed is asked for again. Failures of a run wait for
 * the next interval.
 */
export function createRecovery(deps: StartRecoveryDeps): Recovery {
  const recheckMs = deps.recheckMs ?? DEFAULT_RECHECK_MS;
  const leaseMs = Math.max(1, Math.floor(deps.intervalMs * 0.9));
  let lease: string | null = null;
  let running: Promise<RecoveryResult | null> | null = null;
  let interval: NodeJS.Timeout | undefined;
  let pending: NodeJS.Timeout | undefined;
  let stopped = false;
  let firstDone: () => void = () => {};

  // The interval's lease, taken; a recheck by the replica that holds it keeps it (extended),
  // so a recheck is no second run of the interval for the cluster.
  const takeLease = async (recheck: boolean): Promise<boolean> => {
    if (
      recheck &&
      lease !== null &&
      (await deps.store.extendLock(REDELIVER_LEASE, lease, leaseMs))
    ) {
      return true;
    }
    // Not released after the run on purpose: it expires shortly before the next interval.
    const token = await deps.store.acquireLock(REDELIVER_LEASE, leaseMs);
    if (token !== null) lease = token;
    return token !== null;
  };

  const pass = async (recheck: boolean): Promise<RecoveryResult | null> => {
    if (!(await takeLease(recheck))) return null;
    const result = await recoverDeliveries(deps);
    deps.onRun?.(result);
    if (result.found > 0) deps.log.info({ ...result }, 'failed webhook deliveries redelivered');
    return result;
  };

  const run = (recheck: boolean): Promise<RecoveryResult | null> => {
    running ??= pass(recheck).finally(() => {
      running = null;
    });
    return running;
  };

  // After a run that redelivered: the next recheck, while redeliveries keep being needed.
  const recheckAfter = (result: RecoveryResult | null, step: number): void => {
    clearTimeout(pending);
    pending = undefined;
    const wait = recheckMs[step];
    if (stopped || result === null || result.redelivered + result.failed === 0) return;
    if (wait === undefined) return;
    pending = setTimeout(() => void tick(true, step + 1), wait);
  };

  const tick = (recheck: boolean, step: number): Promise<void> =>
    run(recheck).then(
      (result) => recheckAfter(result, step),
      (err: unknown) => deps.log.error({ err }, 'delivery recovery failed: will try next interval'),
    );

  return {
    runIfDue: () => run(false),
    start() {
      if (interval !== undefined || stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        firstDone = resolve;
        interval = setTimeout(() => {
          interval = setInterval(() => void tick(false, 0), deps.intervalMs);
          void tick(false, 0).then(resolve);
        }, deps.delayMs ?? 0);
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(interval);
      clearInterval(interval);
      clearTimeout(pending);
      firstDone();
      await running?.catch(() => null);
      const token = lease;
      lease = null;
      if (token !== null) await deps.store.releaseLock(REDELIVER_LEASE, token).catch(() => false);
    },
  };
}
