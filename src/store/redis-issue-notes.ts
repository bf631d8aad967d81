import type { ChainableCommander } from 'ioredis';
import { type IssueKey, issueKeyString } from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import type { IssueNotes } from './issue-notes.js';
import type { RedisKeys } from './redis-connection.js';

/**
 * {@link IssueNotes} on Redis: hashes `holders` and `assigned` by issue key, and one string
 * `gone:<issue>` per first 404 or 410, expiring with its TTL.
 */
export class RedisIssueNotes implements IssueNotes {
  constructor(private readonly db: RedisKeys) {}

  async setHolder(key: IssueKey, commentId: number | null): Promise<void> {
    const redis = await this.db.client();
    if (commentId === null) await redis.hdel(this.db.key('holders'), issueKeyString(key));
    else await redis.hset(this.db.key('holders'), issueKeyString(key), String(commentId));
  }

  async holderOf(key: IssueKey): Promise<number | null> {
    const value = await (await this.db.client()).hget(this.db.key('holders'), issueKeyString(key));
    return value === null ? null : Number(value);
  }

  async noteIssueGone(key: IssueKey, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    // SET NX: the first answer is recorded (OK); a record already there means the second.
    const reply = await (await this.db.client()).set(
      this.db.key('gone', issueKeyString(key)),
      '1',
      'PX',
      Math.ceil(ttlMs),
      'NX',
    );
    return reply !== 'OK';
  }

  async clearIssueGone(key: IssueKey): Promise<void> {
    await (await this.db.client()).del(this.db.key('gone', issueKeyString(key)));
  }

  async appAssignees(key: IssueKey): Promise<readonly string[]> {
    const value = await (await this.db.client()).hget(this.db.key('assigned'), issueKeyString(key));
    return value === null ? [] : parseLogins(value);
  }

  async setAppAssignees(key: IssueKey, logins: readonly string[]): Promise<void> {
    const redis = await this.db.client();
    if (logins.length === 0) await redis.hdel(this.db.key('assigned'), issueKeyString(key));
    else await redis.hset(this.db.key('assigned'), issueKeyString(key), JSON.stringify(logins));
  }

  /** Its share of Store.forgetIssue, in the store's one MULTI. */
  forget(write: ChainableCommander, key: IssueKey): void {
    const member = issueKeyString(key);
    write
      .hdel(this.db.key('holders'), member)
      .hdel(this.db.key('assigned'), member)
      .del(this.db.key('gone', member));
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
