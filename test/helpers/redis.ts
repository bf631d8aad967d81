import { Redis, type RedisOptions } from 'ioredis';

/** The variable that names the test Redis: a developer's or CI's own, default the local one. */
export const TEST_REDIS_VARIABLE = 'CLAIMS_TEST_REDIS_URL';

const DEFAULT_TEST_REDIS = 'redis://127.0.0.1:6379';

/**
 * The Redis every suite talks to, as `CLAIMS_TEST_REDIS_URL` names it (a redis:// or
 * rediss:// URL; any database in it is ignored, since each suite picks its own).
 */
export const TEST_REDIS: URL = testRedis(process.env[TEST_REDIS_VARIABLE]);

/** Host of {@link TEST_REDIS} (the replicas' Redis proxy connects there). */
export const REDIS_HOST = TEST_REDIS.hostname.replace(/^\[(.*)\]$/, '$1');
/** Port of {@link TEST_REDIS}. */
export const REDIS_PORT = Number(TEST_REDIS.port || 6379);

/** What a suite fails with when Redis is down: a skipped suite would hide a broken setup. */
export const REDIS_DOWN_MESSAGE = `Redis is not reachable at ${REDIS_HOST}:${REDIS_PORT} (${TEST_REDIS_VARIABLE}, default ${DEFAULT_TEST_REDIS}): start it with \`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no\`, or set ${TEST_REDIS_VARIABLE} to a Redis the tests may use`;

/** The URL of one database; suites use databases of their own so files can run in parallel. */
export function redisUrl(db: number): string {
  const url = new URL(TEST_REDIS);
  url.pathname = `/${db}`;
  return url.toString();
}

// A bad value stops the suite naming the variable, as a bad setting stops the app; the value
// is not quoted, since a Redis URL may carry a password.
function testRedis(value: string | undefined): URL {
  const text = value === undefined || value === '' ? DEFAULT_TEST_REDIS : value;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new Error(
      `${TEST_REDIS_VARIABLE} must be a redis:// or rediss:// URL such as ${DEFAULT_TEST_REDIS} (value not shown: it may hold a password)`,
    );
  }
  return url;
}

/**
 * Connects to database `db` of the test Redis, or throws {@link REDIS_DOWN_MESSAGE} so the
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
