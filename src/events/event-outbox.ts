import type { ClaimEvent } from './claim-event.js';

/**
 * Where outgoing events wait until their receiver took them (docs/protocol.md §13): in the
 * process when embedded, on Redis through BullMQ otherwise, so a replica restart loses none.
 */
export interface EventOutbox {
  /**
   * Keeps the events for sending, each at most once per id: an event whose id is pending or
   * was delivered recently is not sent again. Resolves once they are kept (or, embedded and
   * past `CLAIMS_EVENTS_MAX_PENDING`, dropped and logged); throws when they could not be
   * (Redis away), so the caller can retry.
   */
  publish(events: readonly ClaimEvent[]): Promise<void>;
  /** Resolves once no event waits, runs or waits for a retry (tests and the benchmark). */
  idle(): Promise<void>;
  /**
   * How many events wait, run or back off, and when (Unix ms) the oldest of them was kept;
   * null when none is (`claims_events_pending`, `claims_events_oldest_age_seconds`).
   */
  backlog(): Promise<OutboxBacklog>;
  /** Stops sending; events kept on Redis stay there for the other replicas. */
  close(): Promise<void>;
}

/** What {@link EventOutbox.backlog} answers. */
export interface OutboxBacklog {
  readonly pending: number;
  readonly oldestAt: number | null;
}

/** How an outbox sends and retries; defaults follow docs/protocol.md §13. */
export interface OutboxRetryOptions {
  /** The first retry's wait before jitter (default 5 s). */
  readonly firstRetryMs?: number;
  /** The longest wait between attempts before jitter (default 30 min). */
  readonly maxRetryMs?: number;
  /** How long an event is retried before it is given up (default 24 h). */
  readonly windowMs?: number;
}

/** {@link OutboxRetryOptions} and how long a receiver may take to answer (default 10 s). */
export interface EventSenderOptions extends OutboxRetryOptions {
  readonly answerTimeoutMs?: number;
}

/** Why an event was given up without its receiver taking it (`claims_events_dropped_total`). */
export type DropReason = 'full' | 'expired' | 'stopped';

/** What an outbox reports to the metrics (src/events/event-metrics.ts). */
export interface OutboxObserver {
  /** One attempt: the receiver answered 2xx, or it did not. */
  attempted(result: 'delivered' | 'failed'): void;
  dropped(reason: DropReason): void;
}
