import { pino } from 'pino';
import { type IssueKey, issueKeyString } from '../store/store.js';
import { exclusiveInProcess } from './issue-lock.js';
import type { Hint, ReconcileHandler, ReconcileRequest, WorkQueue } from './queue.js';

/** The logger a queue reports retries and drops to; a pino logger fits. */
export interface QueueLogger {
  warn(meta: object, message: string): void;
  error(meta: object, message: string): void;
}

/** Retry settings shared by both queues. */
export interface RetryOptions {
  /** Delay before the first retry; each further retry doubles it (default 1000 ms). */
  readonly baseDelayMs?: number;
  /** Cap on the delay between retries (default 60000 ms). */
  readonly maxDelayMs?: number;
  /** Runs of one request before it is logged and dropped (default 10). */
  readonly maxAttempts?: number;
}

/** Options of {@link MemoryQueue}. */
export interface MemoryQueueOptions extends RetryOptions {
  /** Handlers running at once across all issues (default 8). */
  readonly concurrency?: number;
  /** Where retries (warn) and dropped requests (error) are reported. */
  readonly logger?: QueueLogger;
}

/** Separates the reasons of coalesced requests in the merged request's `reason`. */
export const REASON_SEPARATOR = ', ';

/**
 * JSON with object keys sorted, so two equal hints are one string whatever order their keys
 * were written in: coalesced requests de-duplicate hints by this identity.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const entries = Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries);
  });
}

/** The delay before retry number `failures` (1 = first retry): doubling from base, capped. */
export function backoffDelay(failures: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, failures - 1));
}

/** The requests of one issue that will run together: hints in arrival order, de-duplicated. */
interface Batch {
  readonly key: IssueKey;
  readonly hints: Map<string, Hint>;
  readonly reasons: Set<string>;
  /** Failed runs so far; carried across coalescing so a failing issue still ends. */
  failures: number;
}

function newBatch(key: IssueKey, failures = 0): Batch {
  return { key, hints: new Map(), reasons: new Set(), failures };
}

function addRequest(batch: Batch, request: ReconcileRequest): void {
  for (const hint of request.hints) {
    const id = canonicalJson(hint);
    if (!batch.hints.has(id)) batch.hints.set(id, hint);
  }
  batch.reasons.add(request.reason);
}

/** A failed batch followed by what arrived while it ran: its hints must not be lost. */
function mergeBatches(failed: Batch, later: Batch | undefined): Batch {
  const merged = newBatch(failed.key, failed.failures);
  for (const batch of later ? [failed, later] : [failed]) {
    for (const [id, hint] of batch.hints) if (!merged.hints.has(id)) merged.hints.set(id, hint);
    for (const reason of batch.reasons) merged.reasons.add(reason);
  }
  return merged;
}

function toRequest(batch: Batch): ReconcileRequest {
  return {
    key: batch.key,
    hints: [...batch.hints.values()],
    reason: [...batch.reasons].join(REASON_SEPARATOR),
  };
}

/**
 * The embedded {@link WorkQueue} (one replica, SPEC §7). Per issue, one batch waits while at
 * most one runs: requests arriving meanwhile join the waiting batch, so a burst coalesces and
 * an event during a run causes exactly one more run (SPEC §5). Nothing survives the process:
 * the start-up resync (SPEC §4) re-finds claims whose events were queued when it stopped.
 */
export class MemoryQueue implements WorkQueue {
  private readonly concurrency: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxAttempts: number;
  private readonly logger: QueueLogger;

  private handler: ReconcileHandler | undefined;
  private closed = false;
  /** The next batch of each issue: ready, waiting for the issue's run, or delayed for retry. */
  private readonly waiting = new Map<string, Batch>();
  /** Issues whose batch may start now, oldest first (a Set keeps insertion order). */
  private readonly ready = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];

  constructor(options: MemoryQueueOptions = {}) {
    this.concurrency = options.concurrency ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.logger = options.logger ?? pino({ name: 'claim-warden-queue' });
  }

  async enqueue(request: ReconcileRequest): Promise<void> {
    if (this.closed) throw new Error('the work queue is closed; the request was not queued');
    const id = issueKeyString(request.key);
    let batch = this.waiting.get(id);
    if (batch === undefined) {
      batch = newBatch(request.key);
      this.waiting.set(id, batch);
    }
    addRequest(batch, request);
    this.schedule(id);
  }

  start(handler: ReconcileHandler): void {
    if (this.handler) throw new Error('the work queue was started already');
    this.handler = handler;
    for (const id of this.waiting.keys()) this.schedule(id);
  }

  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async depth(): Promise<number> {
    return this.waiting.size;
  }

  exclusive<T>(key: IssueKey, fn: () => Promise<T>): Promise<T> {
    return exclusiveInProcess(this.running, issueKeyString(key), fn, () => {
      this.schedule(issueKeyString(key));
      this.notifyIfIdle();
    });
  }

  /** Cancels waiting and delayed requests (the resync recovers them) and awaits running ones. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
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
    this.ready.add(id);
    this.pump();
  }

  /** Starts ready batches while the global concurrency allows. */
  private pump(): void {
    while (this.running.size < this.concurrency && this.ready.size > 0) {
      const id = this.ready.values().next().value!;
      this.ready.delete(id);
      const batch = this.waiting.get(id);
      // An exclusive call holds the issue: it schedules the batch again when it ends.
      if (batch === undefined || this.running.has(id)) continue;
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
      this.retryLater(id, batch, error);
    } finally {
      this.running.delete(id);
      // Whatever arrived during the run (or the retry just put back) goes next.
      this.schedule(id);
      this.pump();
      this.notifyIfIdle();
    }
  }

  private retryLater(id: string, batch: Batch, error: unknown): void {
    const failures = batch.failures + 1;
    const issue = id;
    // After close() nothing would run a retry, so a failure then is final too.
    if (failures >= this.maxAttempts || this.closed) {
      this.logger.error(
        { issue, attempts: failures, err: error, hints: batch.hints.size },
        'reconcile failed on every attempt; request dropped',
      );
      return;
    }
    const delayMs = backoffDelay(failures, this.baseDelayMs, this.maxDelayMs);
    this.logger.warn(
      { issue, attempt: failures, delayMs, err: error },
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
}
