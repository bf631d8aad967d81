import { backoffDelay } from '../backoff-delay.js';

/** What both queues log when GitHub's rate limit holds an installation's reconciles. */
export const RATE_LIMIT_HOLD =
  'GitHub rate limit: holding the installation’s reconciles for the wait it asked for';

/** Retry settings shared by both queues. */
export interface RetryOptions {
  /** Delay before the first retry; each further retry doubles it (default 1000 ms). */
  readonly baseDelayMs?: number;
  /** Cap on the delay between retries (default 60000 ms). */
  readonly maxDelayMs?: number;
  /** Runs of one request before it is given up (default 10). */
  readonly maxAttempts?: number;
}

/** {@link RetryOptions} with every default filled in. */
export type ResolvedRetry = Required<RetryOptions>;

/** Fills in the defaults of {@link RetryOptions}, the same for both queues. */
export function resolveRetry(options: RetryOptions): ResolvedRetry {
  return {
    baseDelayMs: options.baseDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 60_000,
    maxAttempts: options.maxAttempts ?? 10,
  };
}

/**
 * How long the failed work asked to wait before it is tried again, in ms: the `retryAfterMs`
 * of the error or of any error in its `cause` chain (src/github/octokit.ts sets it on GitHub's
 * rate-limit refusals, from `retry-after` or `x-ratelimit-reset`). Undefined when none says.
 */
export function retryAfterOf(error: unknown): number | undefined {
  const seen = new Set<unknown>();
  for (let at = error; at !== null && typeof at === 'object' && !seen.has(at); ) {
    seen.add(at);
    const ms = (at as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) return ms;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The delay before retry number `failures`: the backoff, or longer when the error says how
 * long to wait (a rate limit: waiting less only spends the installation's budget again).
 */
export function retryDelay(failures: number, retry: ResolvedRetry, error: unknown): number {
  const backoff = backoffDelay(failures, retry.baseDelayMs, retry.maxDelayMs);
  return Math.max(backoff, retryAfterOf(error) ?? 0);
}
