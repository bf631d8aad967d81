import type { ChainableCommander } from 'ioredis';
import { type IssueKey, issueKeyString, parseIssueKeyString } from '../keys.js';
import type { Deadlines } from './deadlines.js';
import type { RedisKeys } from './redis-connection.js';

/** {@link Deadlines} on Redis: one sorted set `deadlines` of issue keys scored by epoch ms. */
export class RedisDeadlines implements Deadlines {
  constructor(private readonly db: RedisKeys) {}

  async setDeadline(key: IssueKey, at: Date | null): Promise<void> {
    const member = issueKeyString(key);
    const redis = await this.db.client();
    if (at === null) await redis.zrem(this.db.key('deadlines'), member);
    else await redis.zadd(this.db.key('deadlines'), at.getTime(), member);
  }

  async dueIssues(now: Date, limit: number): Promise<IssueKey[]> {
    if (limit <= 0) return [];
    const members = await (await this.db.client()).zrange(
      this.db.key('deadlines'),
      '-inf',
      String(now.getTime()),
      'BYSCORE',
      'LIMIT',
      0,
      limit,
    );
    // A member this version cannot parse was written by someone else; skipping it is safe,
    // as the resync finds every claim again.
    return members.map(parseIssueKeyString).filter((key): key is IssueKey => key !== null);
  }

  async countDeadlines(): Promise<number> {
    return (await this.db.client()).zcard(this.db.key('deadlines'));
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    write.zrem(this.db.key('deadlines'), issueKeyString(key));
  }
}
