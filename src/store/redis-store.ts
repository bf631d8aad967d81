import { createHash, randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { formatClaimTime } from '../claims/marker.js';
import type { QueueSettings } from '../config/repo-config.js';
import type { PendingEvent } from '../events/pending-events.js';
import {
  type IssueKey,
  issueKeyString,
  parseIssueKeyString,
  type RepoKey,
  repoKeyString,
  repoPrefix,
} from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import { CLAIM_CHANGES_CAP, type ClaimChange } from './board-records.js';
import { extendLockScript, releaseLockScript } from './lock-scripts.js';
import { RedisScript } from './redis-script.js';
import type {
  BranchHolder,
  CachedRead,
  DeliveryCheckpoint,
  IndexedBranchHolder,
  IndexedClaim,
  IndexedEntry,
  IndexedIssue,
  IndexedPathHolder,
  PathHolder,
  Store,
} from './store.js';
import { PENDING_EVENTS_TTL_MS, QUEUE_SETTINGS_TTL_MS, type RepoName } from './store.js';

/** Where a {@link RedisStore} gets its connection: the caller's client, or a URL it owns. */
export type RedisStoreConnection =
  | { readonly redis: Redis }
  | { readonly url: string; readonly redisOptions?: RedisOptions };

/** Options of {@link RedisStore}. */
export type RedisStoreOptions = RedisStoreConnection & {
  /** Prefix of every key the store writes (default `claims:`), so replicas of one app share. */
  readonly prefix?: string;
  /** How long `ping()` waits for an answer before reporting Redis down (default 2000 ms). */
  readonly pingTimeoutMs?: number;
  /**
   * How long a command made before the first connection is up waits for it (default 10000
   * ms). Only for a connection the store opens: after start-up, commands fail fast.
   */
  readonly firstConnectTimeoutMs?: number;
};

/**
 * The options of a connection the store opens (a URL): it sits on the webhook path, where an
 * answer must come within GitHub's 10 seconds, so it fails fast rather than wait for Redis.
 * - `enableOfflineQueue: false`: while disconnected, a command fails at once instead of
 *   queueing, so nothing is written later, after the webhook was answered with an error.
 * - `autoResendUnfulfilledCommands: false`: a command in flight when the connection drops
 *   fails; it is not sent again on reconnect (same reason).
 * - `commandTimeout`: Redis connected but not answering (paused, a dead proxy) fails too.
 * ioredis keeps reconnecting (its default retryStrategy), so the store recovers by itself.
 */
export const FAIL_FAST_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 2000,
};

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
 * Records a claim change once (its id) and trims the history to the newest ARGV[4]: a sorted
 * set of ids by time, and a hash of id -> JSON, trimmed together so neither grows unbounded.
 */
const recordChangeScript = new RedisScript(`
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then
  local old = redis.call('ZRANGE', KEYS[1], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1)
  redis.call('HDEL', KEYS[2], unpack(old))
end
return 1`);

/**
 * The shared {@link Store}: every replica reads and writes the same Redis (docs/protocol.md §7,
 * `CLAIMS_REDIS_URL` set). Each operation is one atomic command or script, so replicas never
 * see half an update. Deadlines live in one sorted set scored by epoch ms.
 */
export class RedisStore implements Store {
  private readonly redis: Redis;
  private readonly ownsConnection: boolean;
  private readonly prefix: string;
  private readonly pingTimeoutMs: number;
  /** The open-issue index as last read, and the version it was read at (see openIssues). */
  private indexCache: { version: string; entries: IndexedEntry[] } | undefined;
  /** Resolves once the connection was up once; until then commands wait for it. */
  private firstConnection: Promise<void> | undefined;

  constructor(options: RedisStoreOptions) {
    if ('redis' in options) {
      this.redis = options.redis;
      this.ownsConnection = false;
    } else {
      this.redis = new Redis(options.url, { ...FAIL_FAST_OPTIONS, ...options.redisOptions });
      this.ownsConnection = true;
      // ioredis reports connection errors as events; without a listener Node would log them
      // as unhandled. Callers see the outage through failing calls and ping().
      this.redis.on('error', () => {});
      if (this.redis.options.enableOfflineQueue === false) {
        this.firstConnection = waitForReady(this.redis, options.firstConnectTimeoutMs ?? 10_000);
        // Observed here so a store never used does not leave an unhandled rejection.
        this.firstConnection.catch(() => {});
      }
    }
    this.prefix = options.prefix ?? 'claims:';
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
  }

  async markDelivery(deliveryId: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    // SET NX is atomic: of two replicas receiving the same delivery, exactly one sees OK.
    const reply = await (await this.client()).set(
      this.key('delivery', deliveryId),
      '1',
      'PX',
      Math.ceil(ttlMs),
      'NX',
    );
    return reply === 'OK';
  }

  /**
   * Keeps a delivery id recorded by markDelivery for `ttlMs` from now. The app records an id
   * for a short while before queueing its request and for GitHub's redelivery window only
   * once it is queued, so an id whose request was lost in an outage cannot block its
   * redelivery for long, whatever became of the commands in flight (see app.ts).
   */
  async confirmDelivery(deliveryId: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    await (await this.client()).pexpire(this.key('delivery', deliveryId), Math.ceil(ttlMs));
  }

  /** Forgets a delivery id, so a redelivery of it is processed (its request was not queued). */
  async forgetDelivery(deliveryId: string): Promise<void> {
    await (await this.client()).del(this.key('delivery', deliveryId));
  }

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

  async setHolder(key: IssueKey, commentId: number | null): Promise<void> {
    const redis = await this.client();
    if (commentId === null) await redis.hdel(this.key('holders'), issueKeyString(key));
    else await redis.hset(this.key('holders'), issueKeyString(key), String(commentId));
  }

  async holderOf(key: IssueKey): Promise<number | null> {
    const value = await (await this.client()).hget(this.key('holders'), issueKeyString(key));
    return value === null ? null : Number(value);
  }

  async setQueueSettings(repo: RepoName, settings: QueueSettings | null): Promise<void> {
    await (await this.client()).set(
      this.key('queue-settings', `${repo.owner}/${repo.repo}`.toLowerCase()),
      JSON.stringify({ settings }),
      'PX',
      QUEUE_SETTINGS_TTL_MS,
    );
  }

  async queueSettings(repo: RepoName): Promise<QueueSettings | null | undefined> {
    const value = await (await this.client()).get(
      this.key('queue-settings', `${repo.owner}/${repo.repo}`.toLowerCase()),
    );
    return value === null
      ? undefined
      : (JSON.parse(value) as { settings: QueueSettings | null }).settings;
  }

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

  async noteIssueGone(key: IssueKey, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    // SET NX: the first answer is recorded (OK); a record already there means the second.
    const reply = await (await this.client()).set(
      this.key('gone', issueKeyString(key)),
      '1',
      'PX',
      Math.ceil(ttlMs),
      'NX',
    );
    return reply !== 'OK';
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

  async forgetIssue(key: IssueKey): Promise<void> {
    const member = issueKeyString(key);
    // One MULTI: a replica never sees the issue half forgotten. The index version moves with
    // the open-issue index, so every replica's cached copy of it is read again.
    const replies = await (await this.client())
      .multi()
      .zrem(this.key('deadlines'), member)
      .hdel(this.key('holders'), member)
      .del(this.key('pending', member))
      .hdel(this.key('assigned'), member)
      .del(this.key('gone', member))
      .hdel(this.key('paths', repoKeyString(key)), String(key.number))
      .hdel(this.key('branches', repoKeyString(key)), String(key.number))
      .del(this.key('flagged', member))
      .hdel(this.key('open-issues'), member)
      .hdel(this.key('issue-claims'), member)
      .incr(this.key('index-version'))
      .exec();
    for (const [error] of replies ?? []) if (error) throw error;
  }

  async getCheckpoint(repo: RepoKey): Promise<Date | null> {
    const value = await (await this.client()).hget(this.key('checkpoints'), repoKeyString(repo));
    return value === null ? null : new Date(Number(value));
  }

  async setCheckpoint(repo: RepoKey, at: Date): Promise<void> {
    await (await this.client()).hset(this.key('checkpoints'), repoKeyString(repo), at.getTime());
  }

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    const token = randomUUID();
    const reply = await (await this.client()).set(
      this.key('lock', name),
      token,
      'PX',
      Math.ceil(ttlMs),
      'NX',
    );
    return reply === 'OK' ? token : null;
  }

  async extendLock(name: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const reply = await extendLockScript.run(
      await this.client(),
      [this.key('lock', name)],
      [token, Math.ceil(ttlMs)],
    );
    return reply === 1;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    const reply = await releaseLockScript.run(
      await this.client(),
      [this.key('lock', name)],
      [token],
    );
    return reply === 1;
  }

  /** True when Redis answers within `pingTimeoutMs`; false (never a throw) when it is down. */
  async ping(): Promise<boolean> {
    if (this.redis.status === 'end') return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.pingTimeoutMs);
    });
    const answer = this.client()
      .then((redis) => redis.ping())
      .then(
        (reply) => reply === 'PONG',
        () => false,
      );
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The store's connection once it is up, for the small stores that share it (the board's
   * sessions, src/store/redis-board-sessions.ts): closed with this store.
   */
  connection(): Promise<Redis> {
    return this.client();
  }

  /** Closes the connection only when this store opened it; a caller's client stays open. */
  async close(): Promise<void> {
    if (!this.ownsConnection) return;
    if (this.redis.status !== 'ready') return this.redis.disconnect();
    // QUIT lets replies in flight arrive; a Redis that does not answer it is just dropped.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  async putOpenIssue(issue: IndexedIssue): Promise<void> {
    await putIssueScript.run(
      await this.client(),
      [this.key('open-issues'), this.key('index-version')],
      [issueKeyString(issue.key), JSON.stringify(issue), issue.updatedAt],
    );
  }

  async dropOpenIssue(key: IssueKey): Promise<void> {
    const member = issueKeyString(key);
    await (await this.client())
      .multi()
      .hdel(this.key('open-issues'), member)
      .hdel(this.key('issue-claims'), member)
      .incr(this.key('index-version'))
      .exec();
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

  async setIssueClaim(key: IssueKey, claim: IndexedClaim | null): Promise<void> {
    const redis = await this.client();
    const member = issueKeyString(key);
    const write = redis.multi();
    if (claim === null) write.hdel(this.key('issue-claims'), member);
    else write.hset(this.key('issue-claims'), member, JSON.stringify(claim));
    await write.incr(this.key('index-version')).exec();
  }

  async issueClaim(key: IssueKey): Promise<IndexedClaim | null> {
    const json = await (await this.client()).hget(this.key('issue-claims'), issueKeyString(key));
    return json === null ? null : parseEntry<IndexedClaim>(json);
  }

  async renewIssueClaim(key: IssueKey, claim: IndexedClaim): Promise<boolean> {
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
    if (this.indexCache?.version === version) return this.indexCache.entries;
    const [issues, claims] = await Promise.all([
      redis.hgetall(this.key('open-issues')),
      redis.hgetall(this.key('issue-claims')),
    ]);
    const entries: IndexedEntry[] = [];
    for (const [member, json] of Object.entries(issues)) {
      const issue = parseEntry<IndexedIssue>(json);
      if (issue === null) continue;
      const claim = claims[member] === undefined ? null : parseEntry<IndexedClaim>(claims[member]);
      entries.push({ issue, claim });
    }
    this.indexCache = { version, entries };
    return entries;
  }

  async recordClaimChange(change: ClaimChange): Promise<void> {
    await recordChangeScript.run(
      await this.client(),
      [this.key('board', 'changes'), this.key('board', 'change')],
      [change.id, Date.parse(change.at), JSON.stringify(change), CLAIM_CHANGES_CAP],
    );
  }

  async claimChanges(since: Date): Promise<ClaimChange[]> {
    const redis = await this.client();
    const ids = await redis.zrevrangebyscore(this.key('board', 'changes'), '+inf', since.getTime());
    if (ids.length === 0) return [];
    // An id trimmed between the two reads has no JSON any more: it is left out.
    const rows = await redis.hmget(this.key('board', 'change'), ...ids);
    return rows.flatMap((row) => (row === null ? [] : parseJson<ClaimChange>(row)));
  }

  private key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  /** The connection, once it has been up once (see `firstConnectTimeoutMs`). */
  private async client(): Promise<Redis> {
    if (this.firstConnection) {
      try {
        await this.firstConnection;
      } finally {
        // Waited for once: from now on commands fail fast while Redis is away.
        this.firstConnection = undefined;
      }
    }
    return this.redis;
  }

  /** One hash per repository, field = issue number, value = the holder as JSON. */
  async setPathHolder(key: IssueKey, holder: PathHolder | null): Promise<void> {
    const redis = await this.client();
    const hash = this.key('paths', repoKeyString(key));
    if (holder === null || holder.paths.length === 0) {
      await redis.hdel(hash, String(key.number));
      return;
    }
    const stored: StoredPathHolder = {
      commentId: holder.commentId,
      session: holder.session,
      author: holder.author,
      branch: holder.branch,
      heartbeat: holder.heartbeat.getTime(),
      paths: [...holder.paths],
    };
    await redis.hset(hash, String(key.number), JSON.stringify(stored));
  }

  async pathHolders(
    installationId: number,
    owner: string,
    repo: string,
  ): Promise<IndexedPathHolder[]> {
    const fields = await (await this.client()).hgetall(
      this.key('paths', repoKeyString({ installationId, owner, repo })),
    );
    const holders: IndexedPathHolder[] = [];
    for (const [field, value] of Object.entries(fields)) {
      const holder = readPathHolder(Number(field), value);
      // An entry this version cannot read was written by someone else: skipping it is safe,
      // as that issue's next reconcile writes it again.
      if (holder !== null) holders.push(holder);
    }
    return holders.sort((a, b) => a.number - b.number);
  }

  async deliveryCheckpoint(): Promise<DeliveryCheckpoint | null> {
    const value = await (await this.client()).get(this.key('redeliver-checkpoint'));
    if (value === null) return null;
    try {
      const { id, deliveredAt } = JSON.parse(value) as { id?: unknown; deliveredAt?: unknown };
      if (typeof id !== 'number' || typeof deliveredAt !== 'number') return null;
      return { id, deliveredAt: new Date(deliveredAt) };
    } catch {
      // Written by another version: start over from three days back, which is safe.
      return null;
    }
  }

  async setDeliveryCheckpoint(checkpoint: DeliveryCheckpoint): Promise<void> {
    const value = { id: checkpoint.id, deliveredAt: checkpoint.deliveredAt.getTime() };
    await (await this.client()).set(this.key('redeliver-checkpoint'), JSON.stringify(value));
  }

  /** One string per scope and URL; the URL is hashed, so keys stay short and free of `:`. */
  async cachedRead(scope: string, url: string): Promise<CachedRead | null> {
    const value = await (await this.client()).get(this.readKey(scope, url));
    if (value === null) return null;
    try {
      const { etag, value: kept } = JSON.parse(value) as { etag?: unknown; value?: unknown };
      return typeof etag === 'string' && typeof kept === 'string' ? { etag, value: kept } : null;
    } catch {
      return null;
    }
  }

  async setCachedRead(scope: string, url: string, read: CachedRead, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    const value = JSON.stringify({ etag: read.etag, value: read.value });
    await (await this.client()).set(this.readKey(scope, url), value, 'PX', Math.ceil(ttlMs));
  }

  private readKey(scope: string, url: string): string {
    return this.key('etag', scope, createHash('sha256').update(url).digest('hex'));
  }

  /** One hash per repository, field = issue number, value = the holder as JSON. */
  async setBranchHolder(key: IssueKey, holder: BranchHolder | null): Promise<void> {
    const redis = await this.client();
    const hash = this.key('branches', repoKeyString(key));
    if (holder === null) {
      await redis.hdel(hash, String(key.number));
      return;
    }
    const stored: StoredBranchHolder = {
      commentId: holder.commentId,
      author: holder.author,
      branch: holder.branch,
      heartbeat: holder.heartbeat.getTime(),
    };
    await redis.hset(hash, String(key.number), JSON.stringify(stored));
  }

  async branchHolders(repo: RepoKey, branch: string): Promise<IndexedBranchHolder[]> {
    const fields = await (await this.client()).hgetall(this.key('branches', repoKeyString(repo)));
    const holders: IndexedBranchHolder[] = [];
    for (const [field, value] of Object.entries(fields)) {
      const holder = readBranchHolder(Number(field), value);
      if (holder !== null && holder.branch === branch) holders.push(holder);
    }
    return holders.sort((a, b) => a.number - b.number);
  }

  /** One hash per issue, field = pull request number, value = the flagging holder's tag. */
  async flagPull(key: IssueKey, by: string, pull: number): Promise<void> {
    await (await this.client()).hset(this.key('flagged', issueKeyString(key)), String(pull), by);
  }

  async takeFlaggedPulls(key: IssueKey, keep: string | null): Promise<number[]> {
    // A tag is never empty, so '' keeps nothing.
    const reply = (await takeFlaggedScript.run(
      await this.client(),
      [this.key('flagged', issueKeyString(key))],
      [keep ?? ''],
    )) as string[];
    return reply.map(Number).sort((a, b) => a - b);
  }
}

/**
 * Removes and returns the fields of a flagged-pulls hash whose holder tag is not ARGV[1], in
 * one step, so two replicas re-checking one issue's pulls never both take one pull.
 */
const takeFlaggedScript = new RedisScript(`
local entries = redis.call('HGETALL', KEYS[1])
local taken = {}
for i = 1, #entries, 2 do
  if entries[i + 1] ~= ARGV[1] then
    redis.call('HDEL', KEYS[1], entries[i])
    taken[#taken + 1] = entries[i]
  end
end
return taken`);

interface StoredBranchHolder {
  readonly commentId: number;
  readonly author: string;
  readonly branch: string;
  readonly heartbeat: number;
}

function readBranchHolder(number: number, value: string): IndexedBranchHolder | null {
  let parsed: Partial<StoredBranchHolder>;
  try {
    parsed = JSON.parse(value) as Partial<StoredBranchHolder>;
  } catch {
    return null;
  }
  const { commentId, author, branch, heartbeat } = parsed;
  if (typeof commentId !== 'number' || typeof author !== 'string') return null;
  if (typeof branch !== 'string' || typeof heartbeat !== 'number') return null;
  return { number, commentId, author, branch, heartbeat: new Date(heartbeat) };
}

/**
 * Resolves when `redis` is ready; rejects when it is not within `timeoutMs` or was closed.
 * Later outages are not waited for: commands then fail fast (FAIL_FAST_OPTIONS).
 */
function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => done();
    const onEnd = () => done(new Error('the Redis connection was closed before it was ready'));
    const timer = setTimeout(
      () => done(new Error(`Redis did not answer within ${timeoutMs} ms of start-up`)),
      timeoutMs,
    );
    redis.on('ready', onReady);
    redis.on('end', onEnd);
  });
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

/** A stored JSON value, or nothing when it does not parse (written by another version). */
function parseJson<T>(text: string): T[] {
  try {
    return [JSON.parse(text) as T];
  } catch {
    return [];
  }
}

/** A path holder as the Redis index stores it (JSON; heartbeat in epoch ms). */
interface StoredPathHolder {
  readonly commentId: number;
  readonly session: string;
  readonly author: string;
  readonly branch: string;
  readonly heartbeat: number;
  readonly paths: readonly string[];
}

/** Reads one stored path holder; null when the value is not one. */
function readPathHolder(number: number, value: string): IndexedPathHolder | null {
  let parsed: Partial<StoredPathHolder>;
  try {
    parsed = JSON.parse(value) as Partial<StoredPathHolder>;
  } catch {
    return null;
  }
  const { commentId, session, author, branch, heartbeat, paths } = parsed;
  if (!Number.isSafeInteger(number) || typeof commentId !== 'number') return null;
  if (typeof session !== 'string' || typeof author !== 'string' || typeof branch !== 'string') {
    return null;
  }
  if (typeof heartbeat !== 'number' || !Array.isArray(paths)) return null;
  if (!paths.every((p): p is string => typeof p === 'string')) return null;
  return { number, commentId, session, author, branch, heartbeat: new Date(heartbeat), paths };
}

/** An index entry written by this store; null for one it cannot read (another version's). */
function parseEntry<T>(json: string): T | null {
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}
