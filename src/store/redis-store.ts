import { createHash, randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
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
 * The shared {@link Store}: every replica reads and writes the same Redis (SPEC §7,
 * `CLAIMS_REDIS_URL` set). Each operation is one atomic command or script, so replicas never
 * see half an update. Deadlines live in one sorted set scored by epoch ms.
 */
export class RedisStore implements Store {
  private readonly redis: Redis;
  private readonly ownsConnection: boolean;
  private readonly prefix: string;
  private readonly pingTimeoutMs: number;

  constructor(options: RedisStoreOptions) {
    if ('redis' in options) {
      this.redis = options.redis;
      this.ownsConnection = false;
    } else {
      this.redis = new Redis(options.url, { ...options.redisOptions });
      this.ownsConnection = true;
      // ioredis reports connection errors as events; without a listener Node would log them
      // as unhandled. Callers see the outage through failing calls and ping().
      this.redis.on('error', () => {});
    }
    this.prefix = options.prefix ?? 'claims:';
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
  }

  async markDelivery(deliveryId: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    // SET NX is atomic: of two replicas receiving the same delivery, exactly one sees OK.
    const reply = await this.redis.set(
      this.key('delivery', deliveryId),
      '1',
      'PX',
      Math.ceil(ttlMs),
      'NX',
    );
    return reply === 'OK';
  }

  async setDeadline(key: IssueKey, at: Date | null): Promise<void> {
    const member = issueKeyString(key);
    if (at === null) await this.redis.zrem(this.key('deadlines'), member);
    else await this.redis.zadd(this.key('deadlines'), at.getTime(), member);
  }

  async dueIssues(now: Date, limit: number): Promise<IssueKey[]> {
    if (limit <= 0) return [];
    const members = await this.redis.zrange(
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
    return this.redis.zcard(this.key('deadlines'));
  }

  async getCheckpoint(installationId: number, owner: string, repo: string): Promise<Date | null> {
    const value = await this.redis.hget(
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
    await this.redis.hset(
      this.key('checkpoints'),
      repoField(installationId, owner, repo),
      at.getTime(),
    );
  }

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    const token = randomUUID();
    const reply = await this.redis.set(this.key('lock', name), token, 'PX', Math.ceil(ttlMs), 'NX');
    return reply === 'OK' ? token : null;
  }

  async extendLock(name: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const reply = await extendScript.run(
      this.redis,
      [this.key('lock', name)],
      [token, Math.ceil(ttlMs)],
    );
    return reply === 1;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    const reply = await releaseScript.run(this.redis, [this.key('lock', name)], [token]);
    return reply === 1;
  }

  /** True when Redis answers within `pingTimeoutMs`; false (never a throw) when it is down. */
  async ping(): Promise<boolean> {
    if (this.redis.status === 'end') return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.pingTimeoutMs);
    });
    const answer = this.redis.ping().then(
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
    if (this.redis.status === 'ready') await this.redis.quit();
    else this.redis.disconnect();
  }

  private key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }
}

/** The checkpoint hash field of one repository. */
function repoField(installationId: number, owner: string, repo: string): string {
  return `${installationId}/${owner}/${repo}`;
}
