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

/** The delay before retry number `failures` (1 = first retry): doubling from base, capped. */
export function backoffDelay(failures: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, failures - 1));
}
