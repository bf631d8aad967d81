import type { PendingEvent } from '../events/pending-events.js';
import type { IssueKey } from '../keys.js';

/** The events of finalisations not yet published (docs/protocol.md §13), by issue. */
export interface UnpublishedEvents {
  /**
   * Keeps the events of the finalisations a reconcile is about to write, until they are
   * published (docs/protocol.md §13); an empty list forgets them. Kept for a day at most, as
   * long as an event is retried.
   */
  setPendingEvents(key: IssueKey, pending: readonly PendingEvent[]): Promise<void>;
  /** The events kept by {@link UnpublishedEvents.setPendingEvents} for the issue, or none. */
  pendingEvents(key: IssueKey): Promise<PendingEvent[]>;
}

/** How long pending events are kept: as long as an event is retried (docs/protocol.md §13). */
export const PENDING_EVENTS_TTL_MS = 24 * 3_600_000;
