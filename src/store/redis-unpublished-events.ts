import type { ChainableCommander } from 'ioredis';
import type { PendingEvent } from '../events/pending-events.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { RedisPart } from './redis-connection.js';
import { PENDING_EVENTS_TTL_MS, type UnpublishedEvents } from './unpublished-events.js';

/** {@link UnpublishedEvents} on Redis: one JSON string `pending:<issue>`, expiring in a day. */
export class RedisUnpublishedEvents extends RedisPart implements UnpublishedEvents {
  async setPendingEvents(key: IssueKey, pending: readonly PendingEvent[]): Promise<void> {
    const redis = await this.client();
    const name = this.key('pending', issueKeyString(key));
    if (pending.length === 0) await redis.del(name);
    else await redis.set(name, JSON.stringify(pending), 'PX', PENDING_EVENTS_TTL_MS);
  }

  async pendingEvents(key: IssueKey): Promise<PendingEvent[]> {
    const value = await (await this.client()).get(this.key('pending', issueKeyString(key)));
    return value === null ? [] : (JSON.parse(value) as PendingEvent[]);
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    write.del(this.key('pending', issueKeyString(key)));
  }
}
