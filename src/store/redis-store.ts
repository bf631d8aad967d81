import type { ChainableCommander } from 'ioredis';
import type { IssueKey } from '../keys.js';
import type { RedisClient } from '../redis/connect-redis.js';
import { compose, composed } from './compose.js';
import { RedisBoardRecords } from './redis-board-records.js';
import { RedisCachedReads } from './redis-cached-reads.js';
import { RedisConnection, type RedisStoreOptions } from './redis-connection.js';
import { RedisDeliveryIds } from './redis-delivery-ids.js';
import { RedisGuardRecords } from './redis-guard-records.js';
import { RedisIssueRecords } from './redis-issue-records.js';
import { RedisOpenIssues } from './redis-open-issues.js';
import { RedisPathHolders } from './redis-path-holders.js';
import { RedisPeriodicJobs } from './redis-periodic-jobs.js';
import { RedisRepoQueueSettings } from './redis-repo-queue-settings.js';
import { RedisUnpublishedEvents } from './redis-unpublished-events.js';
import type { Store } from './store.js';

/** A Redis pair that keeps something per issue: its share of forgetIssue's one MULTI. */
interface ForgetsIssues {
  forget(write: ChainableCommander, key: IssueKey): void;
}

/**
 * The shared {@link Store}: every replica reads and writes the same Redis (docs/protocol.md §7,
 * `CLAIMS_REDIS_URL` set), made of the concerns' Redis pairs on one connection. Each operation
 * is one atomic command or script, so replicas never see half an update.
 */
export class RedisStore
  extends composed<Omit<Store, 'forgetIssue' | 'ping' | 'close'>>()
  implements Store
{
  readonly #db: RedisConnection;
  readonly #forgetting: readonly ForgetsIssues[];

  constructor(options: RedisStoreOptions) {
    super();
    const db = new RedisConnection(options);
    const forgetting = [
      new RedisIssueRecords(db),
      new RedisUnpublishedEvents(db),
      new RedisPathHolders(db),
      new RedisGuardRecords(db),
      new RedisOpenIssues(db),
    ];
    this.#db = db;
    this.#forgetting = forgetting;
    compose(this, [
      ...forgetting,
      new RedisDeliveryIds(db),
      new RedisPeriodicJobs(db),
      new RedisCachedReads(db),
      new RedisRepoQueueSettings(db),
      new RedisBoardRecords(db),
    ]);
  }

  /**
   * The first part of every key (`claims:`, `{claims}:` on a Cluster), for the small stores
   * beside this one (the MCP sessions), so their keys share its layout and its slot.
   */
  get prefix(): string {
    return this.#db.prefix;
  }

  /** One MULTI: a replica never sees the issue half forgotten. */
  async forgetIssue(key: IssueKey): Promise<void> {
    const write = (await this.#db.client()).multi();
    for (const part of this.#forgetting) part.forget(write, key);
    const replies = await write.exec();
    for (const [error] of replies ?? []) if (error) throw error;
  }

  /** True when Redis answers within `pingTimeoutMs`; false (never a throw) when it is down. */
  ping(): Promise<boolean> {
    return this.#db.ping();
  }

  /**
   * The store's connection once it is up, for the small stores that share it (the board's
   * sessions, src/store/redis-board-sessions.ts): closed with this store.
   */
  connection(): Promise<RedisClient> {
    return this.#db.client();
  }

  /** Closes the connection only when this store opened it; a caller's client stays open. */
  close(): Promise<void> {
    return this.#db.close();
  }
}
