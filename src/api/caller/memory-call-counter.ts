import { ADMITTED, type CallCounter, type Counted } from './call-counter.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** How many of the longest idle buckets a new key looks at for one it may replace. */
const EVICTION_LOOKS = 32;

/**
 * A token bucket per key, in this process: `perMinute` calls a minute, refilled evenly, a
 * burst of as many. At most `maxKeys` buckets are kept. A new key may replace only a bucket
 * that is full again (its key idle long enough to have every call back, the same as none);
 * a bucket still limiting its key is never forgotten, so a flood of new keys cannot buy a
 * limited caller a fresh minute: when the longest idle buckets all still limit, the new key
 * is refused instead (`crowded`).
 */
export function memoryCallCounter(options: {
  readonly perMinute: number;
  /** Milliseconds; tests move their own. */
  readonly now: () => number;
  readonly maxKeys?: number;
}): CallCounter {
  const { perMinute } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, Bucket>();

  const refill = (bucket: Bucket, at: number) => {
    bucket.tokens = Math.min(perMinute, bucket.tokens + (at - bucket.at) * perMs);
    bucket.at = at;
  };

  // Makes room for one more bucket, if one of the longest idle is full again.
  const makeRoom = (at: number): boolean => {
    let looked = 0;
    for (const [key, bucket] of buckets) {
      if (looked++ >= EVICTION_LOOKS) break;
      refill(bucket, at);
      if (bucket.tokens >= perMinute) {
        buckets.delete(key);
        return true;
      }
    }
    return false;
  };

  const takeNow = (key: string): Counted => {
    const at = options.now();
    let bucket = buckets.get(key);
    if (bucket) {
      refill(bucket, at);
      // Most recently used last, so the first entries are the longest idle.
      buckets.delete(key);
      buckets.set(key, bucket);
    } else {
      if (buckets.size >= maxKeys && !makeRoom(at)) {
        return {
          admitted: false,
          retryAfterS: Math.max(1, Math.ceil(1 / perMs / 1000)),
          crowded: true,
        };
      }
      bucket = { tokens: perMinute, at };
      buckets.set(key, bucket);
    }
    if (bucket.tokens < 1) {
      return {
        admitted: false,
        retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)),
      };
    }
    bucket.tokens -= 1;
    return ADMITTED;
  };

  return { take: async (key) => takeNow(key) };
}
