import type { RedisOptions } from 'ioredis';
import {
  connectRedis,
  quitRedis,
  type RedisAddress,
  type RedisClient,
} from '../redis/connect-redis.js';

/** Where a store gets its connection: the caller's client, or an address it connects to. */
type RedisStoreConnection =
  | { readonly redis: RedisClient }
  | { readonly target: RedisAddress; readonly redisOptions?: RedisOptions };

/** Options of {@link RedisConnection} (and of the RedisStore made on it). */
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
 * The one connection every Redis pair of a store shares, and its key prefix: waits for the
 * first connection at start-up, fails fast after it, answers `ping` without throwing.
 */
export class RedisConnection {
  readonly prefix: string;
  private readonly redis: RedisClient;
  private readonly ownsConnection: boolean;
  private readonly pingTimeoutMs: number;
  /** Resolves once the connection was up once; until then commands wait for it. */
  private firstConnection: Promise<void> | undefined;

  constructor(options: RedisStoreOptions) {
    if ('redis' in options) {
      this.redis = options.redis;
      this.ownsConnection = false;
    } else {
      // It sits on the webhook path: fail-fast (src/redis/connect-redis.ts).
      this.redis = connectRedis(options.target, 'fail-fast', options.redisOptions);
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

  /** The key `<prefix>a:b:…`: the store's key layout. */
  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  /** The connection, once it has been up once (see `firstConnectTimeoutMs`). */
  async client(): Promise<RedisClient> {
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

  /** Closes the connection only when it was opened here; a caller's client stays open. */
  async close(): Promise<void> {
    if (this.ownsConnection) await quitRedis(this.redis);
  }
}

/**
 * Resolves when `redis` is ready; rejects when it is not within `timeoutMs` or was closed.
 * Later outages are not waited for: commands then fail fast (FAIL_FAST_OPTIONS).
 */
function waitForReady(redis: RedisClient, timeoutMs: number): Promise<void> {
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

/**
 * The base of the store's Redis pairs: the store's one connection and its key layout, so every
 * pair writes the keys the single store wrote and a running deployment's keys stay valid.
 */
export abstract class RedisPart {
  constructor(private readonly db: RedisConnection) {}

  /** The shared connection, once it has been up once. */
  protected client(): Promise<RedisClient> {
    return this.db.client();
  }

  /** The key `<prefix>a:b:…`. */
  protected key(...parts: string[]): string {
    return this.db.key(...parts);
  }

  /** SET NX PX, atomic: of two replicas setting one key at once, exactly one sees true. */
  protected async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await (await this.client()).set(key, value, 'PX', Math.ceil(ttlMs), 'NX')) === 'OK';
  }
}
