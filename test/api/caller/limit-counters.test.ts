/**
 * Where the claims API's limits are counted (docs/security.md "Limits"): this process's own
 * counts never forget a caller still limited; on Redis, every replica shares one count, a
 * dead replica's running calls come back once their lease ends, and while Redis cannot answer
 * each process counts for itself.
 */
import type { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { memoryCallCounter } from '../../../src/api/caller/memory-call-counter.js';
import { memoryRunningCount } from '../../../src/api/caller/memory-running-count.js';
import { redisCallCounter } from '../../../src/api/caller/redis-call-counter.js';
import { redisRunningCount } from '../../../src/api/caller/redis-running-count.js';
import type { RedisClient } from '../../../src/redis/connect-redis.js';
import { waitUntil } from '../../helpers/app-harness.js';
import { uniquePrefix } from '../../helpers/redis.js';
import { redisForFile } from '../../helpers/redis-for-file.js';

const log = pino({ level: 'silent' });
const RUN = uniquePrefix('cw-limits');
let redis: Redis;
redisForFile(7, `${RUN}:`, (client) => {
  redis = client;
});
let counter = 0;
const prefix = () => `${RUN}:${++counter}:`;
const down = () => Promise.reject(new Error('Redis is down'));

describe('this process’s own count', () => {
  it('never forgets a caller still limited: a flood of new keys is refused instead', async () => {
    const now = 0;
    const counts = memoryCallCounter({ perMinute: 2, now: () => now, maxKeys: 3 });
    expect((await counts.take('alice')).admitted).toBe(true);
    expect((await counts.take('alice')).admitted).toBe(true);
    expect(await counts.take('alice')).toMatchObject({ admitted: false });
    for (const key of ['k1', 'k2']) expect((await counts.take(key)).admitted).toBe(true);
    // The table is full and every bucket still limits: the new key is refused, alice kept.
    expect(await counts.take('k3')).toMatchObject({ admitted: false, crowded: true });
    expect(await counts.take('alice')).toMatchObject({ admitted: false });
  });

  it('replaces a bucket that is full again (idle long enough to have every call back)', async () => {
    let now = 0;
    const counts = memoryCallCounter({ perMinute: 2, now: () => now, maxKeys: 2 });
    await counts.take('idle');
    await counts.take('alice');
    await counts.take('alice');
    now += 30_000;
    // idle has both calls back; alice has one of two: only idle may go.
    expect((await counts.take('new')).admitted).toBe(true);
    expect((await counts.take('alice')).admitted).toBe(true);
    expect(await counts.take('alice')).toMatchObject({ admitted: false });
  });

  it('counts running calls and forgets a key with none running', async () => {
    const running = memoryRunningCount(1);
    const leave = await running.enter('alice');
    expect(leave).not.toBeNull();
    expect(await running.enter('alice')).toBeNull();
    leave?.();
    leave?.();
    const again = await running.enter('alice');
    expect(again).not.toBeNull();
    expect(await running.enter('alice')).toBeNull();
  });
});

describe('the deployment’s count on Redis', () => {
  const client = () => Promise.resolve(redis as RedisClient);

  it('two replicas share one rate', async () => {
    const keyPrefix = prefix();
    const replica = () =>
      redisCallCounter({
        redis: client,
        keyPrefix,
        perMinute: 3,
        fallback: memoryCallCounter({ perMinute: 3, now: Date.now }),
        log,
      });
    const [a, b] = [replica(), replica()];
    const admitted = [];
    for (const r of [a, b, a, b]) admitted.push((await r.take('alice')).admitted);
    expect(admitted).toEqual([true, true, true, false]);
    const refused = await a.take('alice');
    expect(refused.admitted).toBe(false);
    if (!refused.admitted) expect(refused.retryAfterS).toBeGreaterThanOrEqual(1);
  });

  it('two replicas share one running count; a dead replica’s call comes back when its lease ends', async () => {
    const keyPrefix = prefix();
    const replica = () =>
      redisRunningCount({
        redis: client,
        keyPrefix,
        max: 2,
        fallback: memoryRunningCount(2),
        log,
      });
    const [a, b] = [replica(), replica()];
    const leaveA = await a.enter('alice');
    expect(leaveA).not.toBeNull();
    expect(await b.enter('bob')).not.toBeNull();
    const leaveB = await b.enter('alice');
    expect(leaveB).not.toBeNull();
    expect(await a.enter('alice')).toBeNull();
    leaveA?.();
    leaveB?.();
    await waitUntil(async () => (await redis.zcard(`${keyPrefix}:alice`)) === 0, 'both to leave');

    // A replica that died mid-call: its lease, 300 ms from now on Redis's clock, never renewed.
    const [seconds, micros] = await redis.time();
    const endsAt = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) + 300;
    await redis.zadd(`${keyPrefix}:alice`, endsAt, 'dead-1', endsAt, 'dead-2');
    expect(await a.enter('alice')).toBeNull();
    // Its lease ends: the slots are free again without anyone leaving.
    await waitUntil(async () => {
      const entered = await a.enter('alice');
      entered?.();
      return entered !== null;
    }, 'the dead replica’s slots to come back');
  });

  it('while Redis cannot answer, each process counts for itself', async () => {
    const rate = redisCallCounter({
      redis: down,
      keyPrefix: prefix(),
      perMinute: 1,
      fallback: memoryCallCounter({ perMinute: 1, now: Date.now }),
      log,
    });
    expect((await rate.take('alice')).admitted).toBe(true);
    expect((await rate.take('alice')).admitted).toBe(false);
    const running = redisRunningCount({
      redis: down,
      keyPrefix: prefix(),
      max: 1,
      fallback: memoryRunningCount(1),
      log,
    });
    expect(await running.enter('alice')).not.toBeNull();
    expect(await running.enter('alice')).toBeNull();
  });
});
