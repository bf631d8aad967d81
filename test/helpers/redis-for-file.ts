import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { flushPrefix, requireRedis } from './redis.js';

/**
 * Connects a test file to database `db` of the test Redis before its tests (failing, not
 * skipping, when Redis is down) and hands the client to `use`, if given; after them deletes every key
 * under `runPrefix` and quits. Call it at the top level of the file.
 */
export function redisForFile(db: number, runPrefix: string, use?: (redis: Redis) => void): void {
  let redis: Redis | undefined;
  beforeAll(async () => {
    redis = await requireRedis(db);
    use?.(redis);
  });
  afterAll(async () => {
    if (!redis) return;
    await flushPrefix(redis, runPrefix);
    await redis.quit();
  });
}
