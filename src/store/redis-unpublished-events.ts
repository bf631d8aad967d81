import type { ChainableCommander } from 'ioredis';
import type { PendingEvent } from '../events/pending-events.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import type { RedisKeys } from './redis-connection.js';
import { PENDING_EVENTS_TTL_MS, type UnpublishedEvents } from './unpublished-events.js';

/** {@link UnpublishedEvents} on Redis: one JSON string `pending:<issue>`, expiring in a day. */
export class RedisUnpublishedEvents implements UnpublishedEvents {
  constructor(private readonly db: RedisKeys) {}

  async setPendingEvents(key: IssueKey, pending: readonly PendingEvent[]): Promise<void> {
    const redis = await this.db.client();
    const name = this.db.key('pending', issueKeyString(key));
    if (pending.length === 0) await redis.del(name);
    else await redis.set(name, JSON.stringify(pending), 'PX', PENDING_EVENTS_TTL_MS);
  }

  async pendingEvents(key: IssueKey): Promise<PendingEvent[]> {
    const value = await (await this.db.client()).get(this.db.key('pending', issueKeyString(key)));
    return value === null ? [] : (JSON.parse(value) as PendingEvent[]);
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    write.del(this.db.key('pending', issueKeyString(key)));
  }
}
