import type { Logger } from 'pino';
import { type RecoveryDeps, type RecoveryResult, recoverDeliveries } from './recover-deliveries.js';

/** The lease that lets one replica of a cluster recover deliveries per interval. */
const REDELIVER_LEASE = 'redeliver-lease';

/** What the periodic recovery needs besides a run's dependencies. */
interface StartRecoveryDeps extends RecoveryDeps {
  readonly log: Logger;
  /** `CLAIMS_REDELIVER_INTERVAL`. */
  readonly intervalMs: number;
  /** Called after each run this replica made (metrics). */
  onRun?(result: RecoveryResult): void;
}

/** A running delivery recovery. */
interface Recovery {
  /** Runs once now when this replica takes the interval's lease; null when another holds it. */
  runIfDue(): Promise<RecoveryResult | null>;
  /**
   * Runs at once and then every interval (the webhook door must be open: see app.ts).
   * Resolves when the first run ended (failures are logged, not thrown).
   */
  start(): Promise<void>;
  /** Stops the timer, waits for a run in progress, and gives the lease back. */
  stop(): Promise<void>;
}

/**
 * docs/protocol.md §12: delivery recovery at start-up and every interval, once per cluster: the
 * replica that takes the lease runs; it keeps the lease until shortly before the next
 * interval (so the others skip this one) and gives it back when it stops, so a restarted
 * cluster recovers at once. Failures wait for the next interval.
 */
export function createRecovery(deps: StartRecoveryDeps): Recovery {
  let lease: string | null = null;
  let running: Promise<RecoveryResult | null> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const pass = async (): Promise<RecoveryResult | null> => {
    // Not released after the run on purpose: it expires shortly before the next interval.
    const token = await deps.store.acquireLock(
      REDELIVER_LEASE,
      Math.max(1, Math.floor(deps.intervalMs * 0.9)),
    );
    if (token === null) return null;
    lease = token;
    const result = await recoverDeliveries(deps);
    deps.onRun?.(result);
    if (result.found > 0) deps.log.info({ ...result }, 'failed webhook deliveries redelivered');
    return result;
  };

  const runIfDue = (): Promise<RecoveryResult | null> => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };

  const tick = (): Promise<void> =>
    runIfDue().then(
      () => undefined,
      (err: unknown) => deps.log.error({ err }, 'delivery recovery failed: will try next interval'),
    );

  return {
    runIfDue,
    start() {
      if (timer !== undefined) return Promise.resolve();
      timer = setInterval(() => void tick(), deps.intervalMs);
      return tick();
    },
    async stop() {
      clearInterval(timer);
      await running?.catch(() => null);
      const token = lease;
      lease = null;
      if (token !== null) await deps.store.releaseLock(REDELIVER_LEASE, token).catch(() => false);
    },
  };
}
