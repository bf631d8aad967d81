import type { Logger } from 'pino';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from '../../redis/connect-redis.js';
import { fallbackNotice } from '../../redis/fallback-notice.js';
import { within } from '../../redis/within.js';
import { ADMITTED, type CallCounter } from './call-counter.js';

/** How long a count waits on Redis before this process counts the call itself. */
export const SHARED_COUNT_TIMEOUT_MS = 250;

/**
 * A count for the whole deployment (docs/security.md "Limits"): `perMinute` calls of a key in
 * each minute, kept in Redis by rate-limiter-flexible's RateLimiterRedis (one atomic INCR with
 * its expiry per call) on the app's own connection, so every replica counts the same calls.
 * While Redis cannot answer (down, or slower than {@link SHARED_COUNT_TIMEOUT_MS}) the call
 * is counted by `fallback`, this process's own counter, and the switch is logged once.
 */
export function redisCallCounter(options: {
  readonly redis: () => Promise<RedisClient>;
  /** The app's key prefix (`claims:`), then what is counted (`api-rate`). */
  readonly keyPrefix: string;
  readonly perMinute: number;
  readonly fallback: CallCounter;
  readonly log: Logger;
  readonly timeoutMs?: number;
}): CallCounter {
  let limiter: Promise<RateLimiterRedis> | undefined;
  const notice = fallbackNotice(options.log, options.keyPrefix);
  const limiterOf = () => {
    limiter ??= options.redis().then(
      (client) =>
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: options.keyPrefix,
          points: options.perMinute,
          duration: 60,
          // A disconnected client answers at once, so the fallback does too.
          rejectIfRedisNotReady: true,
        }),
    );
    // A failed connection is not kept: the next call tries again.
    limiter.catch(() => {
      limiter = undefined;
    });
    return limiter;
  };

  return {
    async take(key) {
      try {
        const rate = await within(limiterOf(), options.timeoutMs ?? SHARED_COUNT_TIMEOUT_MS);
        await within(rate.consume(key), options.timeoutMs ?? SHARED_COUNT_TIMEOUT_MS);
        notice.answered();
        return ADMITTED;
      } catch (error) {
        // The library refuses with its result; anything else is Redis failing.
        if (error instanceof RateLimiterRes) {
          notice.answered();
          return {
            admitted: false,
            retryAfterS: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
          };
        }
        notice.failed(error);
        return options.fallback.take(key);
      }
    },
  };
}
