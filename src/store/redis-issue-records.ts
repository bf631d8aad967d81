import type { ChainableCommander } from 'ioredis';
import { type IssueKey, issueKeyString, parseIssueKeyString } from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import type { HolderRef, IssueRecords } from './issue-records.js';
import { RedisPart } from './redis-connection.js';

/**
 * {@link IssueRecords} on Redis: the sorted set `deadlines` (issue keys scored by epoch ms),
 * hashes `holders` and `assigned` by issue key, and a string `gone:<issue>` per first 404 or
 * 410, expiring with its TTL.
 */
export class RedisIssueRecords extends RedisPart implements IssueRecords {
  async setDeadline(key: IssueKey, at: Date | null): Promise<void> {
    const member = issueKeyString(key);
    const redis = await this.client();
    if (at === null) await redis.zrem(this.key('deadlines'), member);
    else await redis.zadd(this.key('deadlines'), at.getTime(), member);
  }

  async dueIssues(now: Date, limit: number): Promise<IssueKey[]> {
    if (limit <= 0) return [];
    const members = await (await this.client()).zrange(
      this.key('deadlines'),
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
    return (await this.client()).zcard(this.key('deadlines'));
  }

  async setHolder(key: IssueKey, holder: HolderRef | null): Promise<void> {
    const redis = await this.client();
    if (holder === null) await redis.hdel(this.key('holders'), issueKeyString(key));
    else await redis.hset(this.key('holders'), issueKeyString(key), String(holder));
  }

  async holderOf(key: IssueKey): Promise<HolderRef | null> {
    const value = await (await this.client()).hget(this.key('holders'), issueKeyString(key));
    if (value === null) return null;
    return /^\d+$/.test(value) ? Number(value) : value;
  }

  async noteIssueGone(key: IssueKey, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    // SET NX: the first answer is recorded (OK); a record already there means the second.
    return !(await this.setIfAbsent(this.key('gone', issueKeyString(key)), '1', ttlMs));
  }

  async clearIssueGone(key: IssueKey): Promise<void> {
    await (await this.client()).del(this.key('gone', issueKeyString(key)));
  }

  async appAssignees(key: IssueKey): Promise<readonly string[]> {
    const value = await (await this.client()).hget(this.key('assigned'), issueKeyString(key));
    return value === null ? [] : parseLogins(value);
  }

  async setAppAssignees(key: IssueKey, logins: readonly string[]): Promise<void> {
    const redis = await this.client();
    if (logins.length === 0) await redis.hdel(this.key('assigned'), issueKeyString(key));
    else await redis.hset(this.key('assigned'), issueKeyString(key), JSON.stringify(logins));
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    const member = issueKeyString(key);
    write
      .zrem(this.key('deadlines'), member)
      .hdel(this.key('holders'), member)
      .hdel(this.key('assigned'), member)
      .del(this.key('gone', member));
  }
}

/** The logins of an `assigned` field; a value this version cannot read counts as none. */
function parseLogins(value: string): readonly string[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
