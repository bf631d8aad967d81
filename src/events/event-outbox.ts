import type { ClaimEvent } from './claim-event.js';

/**
 * Where outgoing events wait until their receiver took them (docs/protocol.md §13): in the
 * process when embedded, on Redis through BullMQ otherwise, so a replica restart loses none.
 */
export interface EventOutbox {
  /**
   * Keeps the events for sending, each at most once per id: an event whose id is pending or
   * was delivered recently is not sent again. Resolves once they are kept; throws when they
   * could not be (Redis away), so the caller can retry.
   */
  publish(events: readonly ClaimEvent[]): Promise<void>;
  /** Resolves once no event waits, runs or waits for a retry (tests and the benchmark). */
  idle(): Promise<void>;
  /** Stops sending; events kept on Redis stay there for the other replicas. */
  close(): Promise<void>;
}

/** How an outbox sends and retries; defaults follow docs/protocol.md §13. */
export interface OutboxRetryOptions {
  /** The first retry's wait (default 5 s). */
  readonly firstRetryMs?: number;
  /** The longest wait between attempts (default 30 min). */
  readonly maxRetryMs?: number;
  /** How long an event is retried before it is given up (default 24 h). */
  readonly windowMs?: number;
}
