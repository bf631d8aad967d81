import type { Logger } from 'pino';
import type { RedisClient } from '../../redis/connect-redis.js';
import type { CallCounter } from './call-counter.js';
import { memoryCallCounter } from './memory-call-counter.js';
import { memoryRunningCount } from './memory-running-count.js';
import { redisCallCounter } from './redis-call-counter.js';
import { redisRunningCount } from './redis-running-count.js';
import type { RunningCount } from './running-count.js';

/** Where the API's limits are counted: this process, or Redis for the whole deployment. */
export interface LimitCounters {
  /** A rate of `perMinute` calls per key, named `name` (its Redis keys' part). */
  rate(name: string, perMinute: number): CallCounter;
  /** At most `max` calls per key at once, named `name`. */
  running(name: string, max: number): RunningCount;
}

/** What the counters are kept on: Redis (with the app's key prefix) or nothing. */
interface LimitBacking {
  readonly log: Logger;
  /** Milliseconds, for this process's own counters. */
  readonly now: () => number;
  /** The most keys one of this process's rates remembers (default 10,000). */
  readonly maxKeys?: number;
  readonly redis?: { readonly client: () => Promise<RedisClient>; readonly prefix: string };
}

/**
 * docs/security.md "Limits": embedded, every count is this process's own; on Redis, every
 * count is the deployment's, with this process's own as the fallback while Redis cannot
 * answer.
 */
export function limitCounters(backing: LimitBacking): LimitCounters {
  const { redis, log, now } = backing;
  return {
    rate(name, perMinute) {
      const local = memoryCallCounter({
        perMinute,
        now,
        ...(backing.maxKeys ? { maxKeys: backing.maxKeys } : {}),
      });
      if (!redis) return local;
      return redisCallCounter({
        redis: redis.client,
        keyPrefix: `${redis.prefix}${name}`,
        perMinute,
        fallback: local,
        log,
      });
    },
    running(name, max) {
      const local = memoryRunningCount(max);
      if (!redis) return local;
      return redisRunningCount({
        redis: redis.client,
        keyPrefix: `${redis.prefix}${name}`,
        max,
        fallback: local,
        log,
      });
    },
  };
}
