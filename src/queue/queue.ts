import type { Hint } from '../claims/types.js';
import type { Lease } from '../fence/lease.js';
import type { IssueKey } from '../keys.js';

export type { Hint };

/** The logger a queue reports retries and drops to; a pino logger fits. */
export interface QueueLogger {
  warn(meta: object, message: string): void;
  error(meta: object, message: string): void;
}

/** Separates the reasons of coalesced requests in the merged request's `reason`. */
export const REASON_SEPARATOR = ', ';

/** A request to make one issue true again. Requests for one issue coalesce: hints merge. */
export interface ReconcileRequest {
  readonly key: IssueKey;
  readonly hints: readonly Hint[];
  /** Why it was asked for: an event name, `sweep` or `resync`; for logs and metrics. */
  readonly reason: string;
  /**
   * Set by the queue on what it hands the handler: when (Unix ms) the oldest request of a first
   * attempt was queued, for `claims_queue_wait_seconds`. Absent on retries.
   */
  readonly queuedAt?: number;
  /**
   * With traces on, the trace of each request this one merges (`<traceparent> <queued at>`,
   * src/telemetry/tracing.ts): the queue records it with the request, so the run joins the
   * delivery's trace on whichever replica takes it. Absent with traces off.
   */
  readonly trace?: readonly string[];
  /**
   * Set by a queue whose issue lock is a lease (on Redis): the run's writes check it and stop
   * once the lock may be another replica's (src/fence/lease.ts). Absent in one process.
   */
  readonly lease?: Lease | undefined;
}

/**
 * Runs one reconcile. Throwing asks the queue to retry the request with backoff; an error
 * (or one in its `cause` chain) with a `retryAfterMs` also holds the request's installation
 * that long: none of its work starts before then, other installations' goes on.
 */
export type ReconcileHandler = (request: ReconcileRequest) => Promise<void>;

/**
 * Called once a request failed on its last attempt, instead of dropping it: the app keeps
 * the issue due so that the sweep tries again (keep-due.ts). If it throws, the request is
 * logged as dropped.
 */
export type ExhaustedHandler = (
  request: ReconcileRequest,
  error: unknown,
  attempts: number,
) => Promise<void>;

/** What else the app wants to hear from the queue. */
export interface QueueHooks {
  readonly onExhausted?: ExhaustedHandler;
}

/**
 * The work queue. Its guarantees are what docs/protocol.md §5 asks of reconciles:
 * - requests for one issue never run at the same time (across every replica sharing it);
 * - requests for one issue that wait together coalesce into one run, their hints merged;
 * - a request that arrives while its issue runs causes exactly one more run after it, never zero;
 * - a handler that throws is retried with exponential backoff, its hints kept, and no sooner
 *   than its error's `retryAfterMs`, which holds the installation's other work as long;
 * - a request that fails on every attempt goes to `onExhausted` (else it is logged and dropped).
 */
export interface WorkQueue {
  enqueue(request: ReconcileRequest): Promise<void>;
  /** Starts running requests with `handler`. Called once. */
  start(handler: ReconcileHandler, hooks?: QueueHooks): void;
  /** Resolves when nothing is queued, delayed for retry or running (tests and shutdown). */
  idle(): Promise<void>;
  /** Requests waiting or delayed (for metrics). */
  depth(): Promise<number>;
  /** Stops taking work; resolves once running handlers finished. */
  close(): Promise<void>;
  /**
   * Runs `fn` under the issue's lock, the one its reconciles run under (across every replica
   * sharing the queue): no reconcile of the issue runs while `fn` does, and requests arriving
   * meanwhile run after it. Throws IssueLockTimeoutError when the issue stays locked too long.
   */
  exclusive<T>(key: IssueKey, fn: (lease: Lease | undefined) => Promise<T>): Promise<T>;
}
