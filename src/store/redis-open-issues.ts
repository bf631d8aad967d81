import type { ChainableCommander } from 'ioredis';
import { formatClaimTime } from '../claims/marker.js';
import { type IssueKey, issueKeyString, type RepoKey, repoPrefix } from '../keys.js';
import {
  type HoldRecord,
  holdOf,
  holdRecord,
  type IndexedClaim,
  type IndexedEntry,
  type IndexedIssue,
  type OpenIssues,
} from './open-issues.js';
import { RedisPart } from './redis-connection.js';
import { RedisScript } from './redis-script.js';

/**
 * KEYS: open-issue hash, index version. ARGV: member, JSON, updatedAt. Writes the snapshot
 * unless the indexed one is newer (times are `YYYY-MM-DDTHH:MM:SSZ`, so they compare as
 * strings), and bumps the version.
 */
const putIssueScript = new RedisScript(`
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local ok, decoded = pcall(cjson.decode, old)
  if ok and type(decoded) == 'table' and type(decoded.updatedAt) == 'string' and decoded.updatedAt > ARGV[3] then
    return 0
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCR', KEYS[2])
return 1`);

/**
 * KEYS: issue-claims hash, index version. ARGV: member, JSON, commentId, commentUpdatedAt.
 * Writes the claim only over a claim of the same comment read at an older `commentUpdatedAt`
 * (`YYYY-MM-DDTHH:MM:SSZ`, compared as strings), and bumps the version. A claim stored
 * without one was written by an earlier version: any later read of its comment is newer.
 */
const renewClaimScript = new RedisScript(`
local old = redis.call('HGET', KEYS[1], ARGV[1])
if not old then return 0 end
local ok, decoded = pcall(cjson.decode, old)
if not ok or type(decoded) ~= 'table' or decoded.commentId ~= tonumber(ARGV[3]) then return 0 end
if type(decoded.commentUpdatedAt) == 'string' and decoded.commentUpdatedAt >= ARGV[4] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCR', KEYS[2])
return 1`);

/**
 * {@link OpenIssues} on Redis: hashes `open-issues` and `issue-claims` by issue key (JSON),
 * and `index-version`, bumped by every write in the same atomic step (see openIssues).
 */
export class RedisOpenIssues extends RedisPart implements OpenIssues {
  /** The index as last read, and the version it was read at (see openIssues). */
  private cache: { version: string; entries: IndexedEntry[] } | undefined;

  async putOpenIssue(issue: IndexedIssue): Promise<void> {
    await putIssueScript.run(
      await this.client(),
      [this.key('open-issues'), this.key('index-version')],
      [issueKeyString(issue.key), JSON.stringify(issue), issue.updatedAt],
    );
  }

  async dropOpenIssue(key: IssueKey): Promise<void> {
    const write = (await this.client()).multi();
    this.forget(write, key);
    await write.exec();
  }

  /**
   * Not one atomic step: an issue closed while the listing ran may be put back by it, and is
   * dropped again by the next resync or event. The index is rebuilt by resyncs, never trusted
   * for writes.
   */
  async replaceOpenIssues(
    repo: RepoKey,
    issues: readonly IndexedIssue[],
    listedAt: Date,
  ): Promise<void> {
    const redis = await this.client();
    const listed = new Set(issues.map((issue) => issueKeyString(issue.key)));
    const prefix = repoPrefix(repo);
    const cutoff = formatClaimTime(listedAt);
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    const gone: string[] = [];
    do {
      const [next, flat] = await redis.hscan(
        this.key('open-issues'),
        cursor,
        'MATCH',
        pattern,
        'COUNT',
        1000,
      );
      cursor = next;
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const member = flat[i]!;
        if (listed.has(member)) continue;
        const indexed = parseEntry<IndexedIssue>(flat[i + 1]!);
        if (indexed === null || indexed.updatedAt < cutoff) gone.push(member);
      }
    } while (cursor !== '0');
    if (gone.length > 0) {
      await redis
        .multi()
        .hdel(this.key('open-issues'), ...gone)
        .hdel(this.key('issue-claims'), ...gone)
        .incr(this.key('index-version'))
        .exec();
    }
    for (const issue of issues) await this.putOpenIssue(issue);
  }

  async setIssueClaim(
    key: IssueKey,
    claim: IndexedClaim | null,
    waitlist?: readonly string[],
  ): Promise<void> {
    const redis = await this.client();
    const member = issueKeyString(key);
    const write = redis.multi();
    const record = holdRecord(claim, waitlist);
    if (record === null) write.hdel(this.key('issue-claims'), member);
    else write.hset(this.key('issue-claims'), member, JSON.stringify(record));
    await write.incr(this.key('index-version')).exec();
  }

  async issueClaim(key: IssueKey): Promise<IndexedClaim | null> {
    const json = await (await this.client()).hget(this.key('issue-claims'), issueKeyString(key));
    return json === null ? null : holdOf(parseEntry<HoldRecord>(json)).claim;
  }

  async renewIssueClaim(key: IssueKey, claim: IndexedClaim): Promise<boolean> {
    // A person's claim has no comment to renew: reconciles record it (docs/protocol.md §16).
    if (claim.commentId === null) return false;
    const reply = await renewClaimScript.run(
      await this.client(),
      [this.key('issue-claims'), this.key('index-version')],
      [issueKeyString(key), JSON.stringify(claim), claim.commentId, claim.commentUpdatedAt],
    );
    return reply === 1;
  }

  /**
   * Every write of the index bumps its version in the same atomic step, so a replica keeps
   * the last index it read and reads it again only once the version moved: a queue query
   * over an unchanged index costs one GET, not the whole hash. Reading the version before
   * the hash can only make the cache newer than its version, never older.
   */
  async openIssues(): Promise<IndexedEntry[]> {
    const redis = await this.client();
    const version = (await redis.get(this.key('index-version'))) ?? '0';
    if (this.cache?.version === version) return this.cache.entries;
    const [issues, claims] = await Promise.all([
      redis.hgetall(this.key('open-issues')),
      redis.hgetall(this.key('issue-claims')),
    ]);
    const entries: IndexedEntry[] = [];
    for (const [member, json] of Object.entries(issues)) {
      const issue = parseEntry<IndexedIssue>(json);
      if (issue === null) continue;
      const hold = claims[member] === undefined ? null : parseEntry<HoldRecord>(claims[member]);
      entries.push({ issue, ...holdOf(hold) });
    }
    this.cache = { version, entries };
    return entries;
  }

  /**
   * Its share of Store.forgetIssue, in the store's one MULTI (and dropOpenIssue's): the issue
   * and its claim leave the index, whose version moves, so every replica's cached copy of it
   * is read again.
   */
  forget(write: ChainableCommander, key: IssueKey): void {
    const member = issueKeyString(key);
    write
      .hdel(this.key('open-issues'), member)
      .hdel(this.key('issue-claims'), member)
      .incr(this.key('index-version'));
  }
}

/** An index entry written by this store; null for one it cannot read (another version's). */
function parseEntry<T>(json: string): T | null {
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}
