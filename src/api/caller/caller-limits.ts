import { ApiError } from '../answers/api-error.js';
import type { CallCounter } from './call-counter.js';
import type { RunningCount } from './running-count.js';

/** The per-caller limits of the claims API (docs/protocol.md §8 "Limits"). */
export interface CallerLimitSettings {
  /** `CLAIMS_API_RATE_PER_MINUTE`: calls one token may make a minute (a burst of as many). */
  readonly perMinute: number;
  /** `CLAIMS_API_CONCURRENCY`: calls one token may have running at once. */
  readonly concurrency: number;
}

/** Admits or refuses a caller's call; `enter` resolves the function that ends it. */
export interface CallerLimits {
  /** Rejects with 429 RATE_LIMITED past either limit; else the call counts until `leave()`. */
  enter(key: string): Promise<() => void>;
}

/**
 * docs/protocol.md §8 "Limits": each caller (keyed by a hash of its token, never the token)
 * may have `concurrency` calls running at once and make `perMinute` calls a minute. Past
 * either: 429 RATE_LIMITED with `retry-after`, before GitHub is asked anything. A call refused
 * for running too many at once spends none of the minute's calls. Where the counts are kept
 * (this process, or Redis for the whole deployment) is the counters' business.
 */
export function callerLimits(
  settings: CallerLimitSettings,
  counts: { readonly rate: CallCounter; readonly running: RunningCount },
): CallerLimits {
  const refused = (retryAfterS: number, why: string) =>
    new ApiError(
      429,
      'RATE_LIMITED',
      `${why}: each token may make ${settings.perMinute} calls a minute and have ${settings.concurrency} calls at once; retry in ${retryAfterS} s`,
      undefined,
      { 'retry-after': String(retryAfterS) },
    );

  return {
    async enter(key) {
      const leave = await counts.running.enter(key);
      if (leave === null) throw refused(1, 'too many calls at once with this token');
      let counted: Awaited<ReturnType<CallCounter['take']>>;
      try {
        counted = await counts.rate.take(key);
      } catch (error) {
        leave();
        throw error;
      }
      if (counted.admitted) return leave;
      leave();
      throw refused(
        counted.retryAfterS,
        counted.crowded
          ? 'too many new tokens are calling at once'
          : 'too many calls a minute with this token',
      );
    },
  };
}
