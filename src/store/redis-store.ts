import { createHash, randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { CLAIM_CHANGES_CAP, type ClaimChange, type LiveClaimSummary } from './board-records.js';
import { assertTtl } from './memory-store.js';
import { type IssueKey, issueKeyString, parseIssueKeyString, type Store } from './store.js';

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
 * A Lua script run by SHA, loaded on first use (EVALSHA, then EVAL on NOSCRIPT), so each call
 * sends 40 bytes rather than the source, and a Redis restart (which empties the script cache)
 * costs one retry.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script atomically with `keys` (KEYS) and `args` (ARGV). */
  async run(
    redis: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
      return await redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

/** Deletes the lock only while `token` holds it, so a holder whose lock expired frees nothing. */
const releaseScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

/** Extends the lock only while `token` holds it; an expired lock stays expired. */
const extendScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`);

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
 * The shared {@link Store}: every replica reads and writes the same Redis (SPEC §7,
 * `CLAIMS_REDIS_URL` set). Each operation is one atomic command or script, so replicas never
 * see half an update. Deadlines live in one sorted set scored by epoch ms.
 */
export class RedisStore implements Store {
  private readonly redis: Redis;
  private readonly ownsConnection: boolean;
  private readonly prefix: string;
  private readonly pingTimeoutMs: number;
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

  async getCheckpoint(installationId: number, owner: string, repo: string): Promise<Date | null> {
    const value = await (await this.client()).hget(
      this.key('checkpoints'),
      repoField(installationId, owner, repo),
    );
    return value === null ? null : new Date(Number(value));
  }

  async setCheckpoint(
    installationId: number,
    owner: string,
    repo: string,
    at: Date,
  ): Promise<void> {
    await (await this.client()).hset(
      this.key('checkpoints'),
      repoField(installationId, owner, repo),
      at.getTime(),
    );
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
    const reply = await extendScript.run(
      await this.client(),
      [this.key('lock', name)],
      [token, Math.ceil(ttlMs)],
    );
    return reply === 1;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    const reply = await releaseScript.run(await this.client(), [this.key('lock', name)], [token]);
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

  /** Closes the connection only when this store opened it; a caller's client stays open. */
  async close(): Promise<void> {
    if (!this.ownsConnection) return;
    if (this.redis.status !== 'ready') return this.redis.disconnect();
    // QUIT lets replies in flight arrive; a Redis that does not answer it is just dropped.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  async setLiveClaimSummary(key: IssueKey, summary: LiveClaimSummary | null): Promise<void> {
    const redis = await this.client();
    if (summary === null) await redis.hdel(this.key('board', 'live'), issueKeyString(key));
    else await redis.hset(this.key('board', 'live'), issueKeyString(key), JSON.stringify(summary));
  }

  async liveClaimSummary(key: IssueKey): Promise<LiveClaimSummary | null> {
    const row = await (await this.client()).hget(this.key('board', 'live'), issueKeyString(key));
    return row === null ? null : (parseJson<LiveClaimSummary>(row)[0] ?? null);
  }

  async liveClaimSummaries(): Promise<LiveClaimSummary[]> {
    const rows = await (await this.client()).hvals(this.key('board', 'live'));
    return rows.flatMap((row) => parseJson<LiveClaimSummary>(row));
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

/** A stored JSON value, or nothing when it does not parse (written by another version). */
function parseJson<T>(text: string): T[] {
  try {
    return [JSON.parse(text) as T];
  } catch {
    return [];
  }
}

/** The checkpoint hash field of one repository. */
function repoField(installationId: number, owner: string, repo: string): string {
  return `${installationId}/${owner}/${repo}`;
}
