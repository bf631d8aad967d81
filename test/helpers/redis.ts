import { Redis, type RedisOptions } from 'ioredis';

/** The Redis every suite talks to: the one a developer or CI starts locally. */
export const REDIS_HOST = '127.0.0.1';
/** Port of {@link REDIS_HOST}. */
export const REDIS_PORT = 6379;

/** What a suite fails with when Redis is down: a skipped suite would hide a broken setup. */
export const REDIS_DOWN_MESSAGE = `Redis is not reachable at ${REDIS_HOST}:${REDIS_PORT}: start it with \`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no\``;

/** The URL of one database; suites use databases of their own so files can run in parallel. */
export function redisUrl(db: number): string {
  return `redis://${REDIS_HOST}:${REDIS_PORT}/${db}`;
}

/**
 * Connects to database `db` of the local Redis, or throws {@link REDIS_DOWN_MESSAGE} so the
 * suite fails (not skips) when Redis is not running. The caller quits the client.
 */
export async function requireRedis(db: number, options: RedisOptions = {}): Promise<Redis> {
  const redis = new Redis(redisUrl(db), {
    lazyConnect: true,
    connectTimeout: 1000,
    // Fail fast instead of reconnecting forever while a suite waits.
    retryStrategy: () => null,
    ...options,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (cause) {
    redis.disconnect();
    throw new Error(REDIS_DOWN_MESSAGE, { cause });
  }
  return redis;
}

let counter = 0;

/** A key prefix no other test run uses, so parallel runs and leftovers never collide. */
export function uniquePrefix(name: string): string {
  counter += 1;
  return `${name}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** Deletes every key starting with `prefix` (SCAN, so a busy Redis is not blocked). */
export async function flushPrefix(redis: Redis, prefix: string): Promise<number> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** Resolves after `ms` of real time (expiry tests on Redis use short real TTLs). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
