import { ApiError } from '../answers/api-error.js';

/** The per-caller limits of the claims API (docs/protocol.md §8 "Limits"). */
export interface CallerLimitSettings {
  /** `CLAIMS_API_RATE_PER_MINUTE`: calls one token may make a minute (a burst of as many). */
  readonly perMinute: number;
  /** `CLAIMS_API_CONCURRENCY`: calls one token may have running at once. */
  readonly concurrency: number;
}

/** Admits or refuses a caller's call; `enter` returns the function that ends it. */
export interface CallerLimits {
  /** Throws 429 RATE_LIMITED past either limit; else the call counts until `leave()`. */
  enter(key: string): () => void;
}

interface Bucket {
  tokens: number;
  at: number;
  running: number;
}

/**
 * docs/protocol.md §8 "Limits": each caller (keyed by a hash of its token, never the token)
 * may make `perMinute` calls a minute, refilled evenly (a token bucket as deep as a minute's
 * calls), and have `concurrency` running at once. Past either: 429 RATE_LIMITED with
 * `retry-after`, before GitHub is asked anything. In-process: each replica counts its own.
 * At most `maxCallers` are remembered; the longest idle is forgotten first (a full bucket
 * with nothing running is the same as none).
 */
export function callerLimits(
  settings: CallerLimitSettings,
  now: () => number,
  maxCallers = 10_000,
): CallerLimits {
  const perMs = settings.perMinute / 60_000;
  const buckets = new Map<string, Bucket>();
  const refused = (retryAfterS: number, why: string) =>
    new ApiError(
      429,
      'RATE_LIMITED',
      `${why}: each token may make ${settings.perMinute} calls a minute and have ${settings.concurrency} calls at once; retry in ${retryAfterS} s`,
      undefined,
      { 'retry-after': String(retryAfterS) },
    );

  const bucketOf = (key: string, at: number): Bucket => {
    let bucket = buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(settings.perMinute, bucket.tokens + (at - bucket.at) * perMs);
      bucket.at = at;
      // Most recently used last, so the first entries are the longest idle.
      buckets.delete(key);
      buckets.set(key, bucket);
      return bucket;
    }
    if (buckets.size >= maxCallers) {
      for (const [other, b] of buckets) {
        if (b.running === 0) {
          buckets.delete(other);
          break;
        }
      }
    }
    bucket = { tokens: settings.perMinute, at, running: 0 };
    buckets.set(key, bucket);
    return bucket;
  };

  return {
    enter(key) {
      const bucket = bucketOf(key, now());
      if (bucket.running >= settings.concurrency) {
        throw refused(1, `too many calls at once with this token (${bucket.running} running)`);
      }
      if (bucket.tokens < 1) {
        const waitS = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
        throw refused(waitS, 'too many calls a minute with this token');
      }
      bucket.tokens -= 1;
      bucket.running += 1;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        bucket.running -= 1;
      };
    },
  };
}
