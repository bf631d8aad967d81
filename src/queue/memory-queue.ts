import { type IssueKey, issueKeyString } from '../keys.js';
import { traceCarrier } from '../tracing/tracing.js';
import { canonicalJson } from './canonical-json.js';
import { handOverExhausted } from './exhausted.js';
import { FairOrder, installationShare } from './fair-order.js';
import { exclusiveInProcess } from './issue-lock.js';
import {
  type Hint,
  type QueueHooks,
  type QueueLogger,
  REASON_SEPARATOR,
  type ReconcileHandler,
  type ReconcileRequest,
  type WorkQueue,
} from './queue.js';
import {
  RATE_LIMIT_HOLD,
  type ResolvedRetry,
  type RetryOptions,
  resolveRetry,
  retryAfterOf,
  retryDelay,
} from './retry.js';

/** Options of {@link MemoryQueue}. */
interface MemoryQueueOptions extends RetryOptions {
  /** Handlers running at once across all issues (default 8). */
  readonly concurrency?: number;
  /**
   * Handlers of one installation running at once (default half of `concurrency`): the rest
   * stays free for other installations' work (docs/protocol.md §6).
   */
  readonly perInstallation?: number;
  /** Where retries (warn) and dropped requests (error) are reported. */
  readonly logger: QueueLogger;
}

/** The requests of one issue that will run together: hints in arrival order, de-duplicated. */
interface Batch {
  readonly key: IssueKey;
  readonly hints: Map<string, Hint>;
  readonly reasons: Set<string>;
  /** Failed runs so far; carried across coalescing so a failing issue still ends. */
  failures: number;
  /** When its first request was queued (Unix ms). */
  readonly queuedAt: number;
  /** The traces of its requests (traces on only), each once, as in Redis's pending set. */
  readonly traces: Set<string>;
}

function newBatch(key: IssueKey, failures = 0): Batch {
  return {
    key,
    hints: new Map(),
    reasons: new Set(),
    failures,
    queuedAt: Date.now(),
    traces: new Set(),
  };
}

function addRequest(batch: Batch, request: ReconcileRequest): void {
  for (const hint of request.hints) {
    const id = canonicalJson(hint);
    if (!batch.hints.has(id)) batch.hints.set(id, hint);
  }
  batch.reasons.add(request.reason);
  for (const carrier of request.trace ?? []) batch.traces.add(carrier);
}

/** A failed batch followed by what arrived while it ran: its hints must not be lost. */
function mergeBatches(failed: Batch, later: Batch | undefined): Batch {
  const merged = newBatch(failed.key, failed.failures);
  for (const batch of later ? [failed, later] : [failed]) {
    for (const [id, hint] of batch.hints) if (!merged.hints.has(id)) merged.hints.set(id, hint);
    for (const reason of batch.reasons) merged.reasons.add(reason);
    for (const carrier of batch.traces) merged.traces.add(carrier);
  }
  return merged;
}

function toRequest(batch: Batch): ReconcileRequest {
  return {
    key: batch.key,
    hints: [...batch.hints.values()],
    reason: [...batch.reasons].join(REASON_SEPARATOR),
    ...(batch.failures === 0 ? { queuedAt: batch.queuedAt } : {}),
    ...(batch.traces.size > 0 ? { trace: [...batch.traces] } : {}),
  };
}

/**
 * The embedded {@link WorkQueue} (one replica, docs/protocol.md §7). Per issue, one batch waits while at
 * most one runs: requests arriving meanwhile join the waiting batch, so a burst coalesces and
 * an event during a run causes exactly one more run (docs/protocol.md §5). Nothing survives the process:
 * the start-up resync (docs/protocol.md §4) re-finds claims whose events were queued when it stopped.
 */
export class MemoryQueue implements WorkQueue {
  private readonly concurrency: number;
  private readonly retry: ResolvedRetry;
  private readonly logger: QueueLogger;

  private handler: ReconcileHandler | undefined;
  private hooks: QueueHooks = {};
  private closed = false;
  /** Installations waiting out a rate limit: until when, and the timer that ends the wait. */
  private readonly held = new Map<number, { until: number; timer: NodeJS.Timeout }>();
  /** The next batch of each issue: ready, waiting for the issue's run, or delayed for retry. */
  private readonly waiting = new Map<string, Batch>();
  /** Issues whose batch may start now, in turns across installations. */
  private readonly ready: FairOrder;
  private readonly running = new Map<string, Promise<void>>();
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];

  constructor(options: MemoryQueueOptions) {
    this.concurrency = options.concurrency ?? 8;
    this.ready = new FairOrder(options.perInstallation ?? installationShare(this.concurrency));
    this.retry = resolveRetry(options);
    this.logger = options.logger;
  }

  async enqueue(request: ReconcileRequest): Promise<void> {
    if (this.closed) throw new Error('the work queue is closed; the request was not queued');
    const id = issueKeyString(request.key);
    let batch = this.waiting.get(id);
    if (batch === undefined) {
      batch = newBatch(request.key);
      this.waiting.set(id, batch);
    }
    const carrier = traceCarrier();
    addRequest(
      batch,
      carrier ? { ...request, trace: [...(request.trace ?? []), carrier] } : request,
    );
    this.schedule(id);
  }

  start(handler: ReconcileHandler, hooks: QueueHooks = {}): void {
    if (this.handler) throw new Error('the work queue was started already');
    this.handler = handler;
    this.hooks = hooks;
    for (const id of this.waiting.keys()) this.schedule(id);
  }

  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async depth(): Promise<number> {
    return this.waiting.size;
  }

  /** In one process the lock cannot pass to another replica: no lease. */
  exclusive<T>(key: IssueKey, fn: (lease: undefined) => Promise<T>): Promise<T> {
    const id = issueKeyString(key);
    return exclusiveInProcess(
      this.running,
      id,
      () => fn(undefined),
      () => {
        this.schedule(id);
        this.notifyIfIdle();
      },
    );
  }

  /** Cancels waiting and delayed requests (the resync recovers them) and awaits running ones. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    for (const { timer } of this.held.values()) clearTimeout(timer);
    this.held.clear();
    this.ready.clear();
    this.waiting.clear();
    await Promise.allSettled([...this.running.values()]);
    this.notifyIfIdle();
  }

  private isIdle(): boolean {
    return this.waiting.size === 0 && this.running.size === 0;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Marks the issue's batch ready unless it must wait (its issue runs, or it backs off). */
  private schedule(id: string): void {
    if (!this.handler || this.closed) return;
    if (!this.waiting.has(id) || this.running.has(id) || this.delayed.has(id)) return;
    this.ready.add(this.waiting.get(id)!.key.installationId, id);
    this.pump();
  }

  /** Starts ready batches while the concurrency allows, taking installations in turns. */
  private pump(): void {
    while (this.running.size < this.concurrency) {
      const id = this.ready.take((installationId) => this.held.has(installationId));
      if (id === undefined) return;
      const batch = this.waiting.get(id);
      // An exclusive call took the issue after it became ready: the call schedules the batch
      // again when it ends.
      if (batch === undefined || this.running.has(id)) {
        if (batch !== undefined) this.ready.finished(batch.key.installationId);
        continue;
      }
      this.waiting.delete(id);
      // Started from a microtask so that even a handler throwing synchronously settles after
      // the run is registered; otherwise its clean-up would run before the registration.
      this.running.set(
        id,
        Promise.resolve().then(() => this.run(id, batch)),
      );
    }
  }

  private async run(id: string, batch: Batch): Promise<void> {
    try {
      await this.handler!(toRequest(batch));
    } catch (error) {
      await this.retryLater(id, batch, error);
    } finally {
      this.running.delete(id);
      this.ready.finished(batch.key.installationId);
      // Whatever arrived during the run (or the retry just put back) goes next.
      this.schedule(id);
      this.pump();
      this.notifyIfIdle();
    }
  }

  private async retryLater(id: string, batch: Batch, error: unknown): Promise<void> {
    const failures = batch.failures + 1;
    // After close() nothing would run a retry, so a failure then is final too.
    if (failures >= this.retry.maxAttempts || this.closed) {
      await handOverExhausted(this.hooks, this.logger, toRequest(batch), error, failures, {
        hints: batch.hints.size,
      });
      return;
    }
    const retryAfterMs = retryAfterOf(error);
    if (retryAfterMs !== undefined) this.hold(batch.key.installationId, retryAfterMs);
    const delayMs = retryDelay(failures, this.retry, error);
    this.logger.warn(
      { issue: id, attempt: failures, delayMs, err: error },
      'reconcile failed; will retry',
    );
    // The failed hints go first and requests that arrived during the run join them: one retry
    // carries both, with the failure count of the older request.
    const merged = mergeBatches({ ...batch, failures }, this.waiting.get(id));
    this.waiting.set(id, merged);
    this.delayed.set(
      id,
      setTimeout(() => {
        this.delayed.delete(id);
        this.schedule(id);
      }, delayMs),
    );
  }

  /**
   * GitHub asked this installation to wait (docs/protocol.md §6): none of its work starts for
   * `ms`; other installations' goes on. A longer hold already in force is kept.
   */
  private hold(installationId: number, ms: number): void {
    const until = Date.now() + ms;
    const current = this.held.get(installationId);
    if (current && current.until >= until) return;
    if (current) clearTimeout(current.timer);
    this.logger.warn({ installationId, waitMs: ms }, RATE_LIMIT_HOLD);
    const timer = setTimeout(() => {
      this.held.delete(installationId);
      this.pump();
    }, ms);
    this.held.set(installationId, { until, timer });
  }
}
