import type { Logger } from 'pino';
import type { WorkQueue } from '../queue/queue.js';
import type { Store } from '../store/store.js';

/** How many due issues one sweep queues at most; the rest wait for the next one. */
const SWEEP_BATCH = 1000;

/** The lock that makes one replica of a cluster sweep per interval. */
const SWEEP_LEASE = 'sweep-lease';

/**
 * How long a swept issue stays out of the sweep's sight. Its reconcile sets the real deadline
 * when it ends; until then every sweep would queue it again (each time one more run, as a
 * request that arrives mid-run causes one), and a reconcile held up by GitHub's write pacing
 * outlasts a short interval. Should it never end (dropped after every retry), the issue comes
 * due again after this.
 */
const SWEPT_RECHECK_MS = 5 * 60_000;

/** What one sweep did, for logs, metrics and the benchmark. */
export interface SweepResult {
  readonly ran: boolean;
  readonly queued: number;
  readonly ms: number;
}

/**
 * Queues a reconcile of exactly the issues whose deadline has passed (docs/protocol.md §4), so a stale
 * claim is finalised within about one interval of going stale without any webhook. It costs
 * no GitHub call by itself, and none at all when nothing is due. Across replicas a lease
 * that outlives most of the interval lets one replica sweep per interval.
 */
export async function sweepOnce(deps: {
  store: Store;
  queue: WorkQueue;
  now: () => Date;
  intervalMs: number;
}): Promise<SweepResult> {
  const started = performance.now();
  // Not released on purpose: it expires shortly before the next interval.
  const lease = await deps.store.acquireLock(
    SWEEP_LEASE,
    Math.max(1, Math.floor(deps.intervalMs * 0.9)),
  );
  if (lease === null) return { ran: false, queued: 0, ms: performance.now() - started };
  const now = deps.now();
  const due = await deps.store.dueIssues(now, SWEEP_BATCH);
  for (const key of due) {
    // Before the enqueue, so the reconcile's own deadline, written when it ends, wins.
    await deps.store.setDeadline(key, new Date(now.getTime() + SWEPT_RECHECK_MS));
    await deps.queue.enqueue({ key, hints: [], reason: 'sweep' });
  }
  return { ran: true, queued: due.length, ms: performance.now() - started };
}

/** Runs sweepOnce every interval until stopped. */
export function startSweeper(deps: {
  store: Store;
  queue: WorkQueue;
  now: () => Date;
  intervalMs: number;
  log: Logger;
  onSweep?: (result: SweepResult) => void;
}): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepOnce(deps)
      .then((result) => {
        if (result.queued > 0)
          deps.log.info({ queued: result.queued, ms: result.ms }, 'sweep queued due issues');
        deps.onSweep?.(result);
      })
      .catch((err: unknown) => deps.log.error({ err }, 'sweep failed: will try next interval'))
      .finally(() => {
        running = false;
      });
  }, deps.intervalMs);
  return { stop: () => clearInterval(timer) };
}
