import type { PendingEvent } from '../events/pending-events.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { PENDING_EVENTS_TTL_MS, type UnpublishedEvents } from './unpublished-events.js';

/** {@link UnpublishedEvents} in the process: a map of issue key to its events and expiry. */
export class MemoryUnpublishedEvents implements UnpublishedEvents {
  private readonly pending = new Map<
    string,
    { pending: readonly PendingEvent[]; expiresAt: number }
  >();

  constructor(private readonly now: () => number) {}

  async setPendingEvents(key: IssueKey, pending: readonly PendingEvent[]): Promise<void> {
    const id = issueKeyString(key);
    if (pending.length === 0) this.pending.delete(id);
    else this.pending.set(id, { pending, expiresAt: this.now() + PENDING_EVENTS_TTL_MS });
  }

  async pendingEvents(key: IssueKey): Promise<PendingEvent[]> {
    const kept = this.pending.get(issueKeyString(key));
    return kept && kept.expiresAt > this.now() ? [...kept.pending] : [];
  }
}
