import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { RedisClient } from '../../redis/connect-redis.js';
import { fallbackNotice } from '../../redis/fallback-notice.js';
import { within } from '../../redis/within.js';
import { RedisScript } from '../../store/redis-script.js';
import { SHARED_COUNT_TIMEOUT_MS } from './redis-call-counter.js';
import type { RunningCount } from './running-count.js';

/**
 * One sorted set per key: a member per running call, scored by when its lease ends (Redis's
 * own clock, so replicas' clocks never disagree about it). Leases that ended are dropped
 * before counting: a replica that died mid-call gives its slots back once they end.
 */
const ENTER = new RedisScript(`
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/** Moves a running call's lease on (only while it is still there). */
const RENEW = new RedisScript(`
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`);

/** A call's lease: renewed while it runs, so only a dead replica's calls run out. */
const RUNNING_LEASE_MS = 30_000;

/**
 * At most `max` calls of a key at once across the deployment (docs/security.md "Limits"),
 * counted in Redis with a lease per call, renewed every third of it while the call runs.
 * While Redis cannot answer, `fallback` (this process's count) decides, and the switch is
 * logged once.
 */
export function redisRunningCount(options: {
  readonly redis: () => Promise<RedisClient>;
  /** The app's key prefix (`claims:`), then `api-running`. */
  readonly keyPrefix: string;
  readonly max: number;
  readonly fallback: RunningCount;
  readonly log: Logger;
  readonly leaseMs?: number;
  readonly timeoutMs?: number;
}): RunningCount {
  const leaseMs = options.leaseMs ?? RUNNING_LEASE_MS;
  const timeoutMs = options.timeoutMs ?? SHARED_COUNT_TIMEOUT_MS;
  const notice = fallbackNotice(options.log, options.keyPrefix);

  const enterShared = async (key: string): Promise<(() => void) | null> => {
    const redis = await options.redis();
    const redisKey = `${options.keyPrefix}:${key}`;
    const id = randomUUID();
    const entered = await ENTER.run(redis, [redisKey], [options.max, leaseMs, id]);
    if (Number(entered) !== 1) return null;
    const renewal = setInterval(() => {
      void RENEW.run(redis, [redisKey], [leaseMs, id]).catch(() => {});
    }, leaseMs / 3);
    renewal.unref();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      clearInterval(renewal);
      // Not awaited: the answer goes out at once; a lost ZREM is undone by the lease.
      void redis.zrem(redisKey, id).catch(() => {});
    };
  };

  return {
    async enter(key) {
      try {
        // An answer that comes too late is undone, so no slot stays taken by nobody.
        const leave = await within(enterShared(key), timeoutMs, (late) => late?.());
        notice.answered();
        return leave;
      } catch (error) {
        notice.failed(error);
        return options.fallback.enter(key);
      }
    },
  };
}
