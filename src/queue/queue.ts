import type { Hint } from '../claims/types.js';
import type { IssueKey } from '../store/store.js';

export type { Hint };

/** A request to make one issue true again. Requests for one issue coalesce: hints merge. */
export interface ReconcileRequest {
  readonly key: IssueKey;
  readonly hints: readonly Hint[];
  /** Why it was asked for: an event name, `sweep` or `resync`; for logs and metrics. */
  readonly reason: string;
}

/** Runs one reconcile. Throwing asks the queue to retry the request with backoff. */
export type ReconcileHandler = (request: ReconcileRequest) => Promise<void>;

/**
 * The work queue. Its guarantees are what SPEC §5 asks of reconciles:
 * - requests for one issue never run at the same time (across every replica sharing it);
 * - requests for one issue that wait together coalesce into one run, their hints merged;
 * - a request that arrives while its issue runs causes exactly one more run after it, never zero;
 * - a handler that throws is retried with exponential backoff, its hints kept.
 */
export interface WorkQueue {
  enqueue(request: ReconcileRequest): Promise<void>;
  /** Starts running requests with `handler`. Called once. */
  start(handler: ReconcileHandler): void;
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
  exclusive<T>(key: IssueKey, fn: () => Promise<T>): Promise<T>;
}
