import { backoffDelay } from '../queue/retry.js';
import type { OutboxRetryOptions } from './event-outbox.js';

/** How long an event is retried before it is given up (docs/protocol.md §13). */
export const EVENT_RETRY_WINDOW_MS = 24 * 3_600_000;

/** The first retry's wait: well within the 30 s docs/protocol.md §13 asks for. */
const FIRST_RETRY_MS = 5_000;

/** The longest wait between two attempts. */
const MAX_RETRY_MS = 30 * 60_000;

/**
 * The wait before retry `retry` (1 for the first) of an event: doubling from `firstMs`,
 * capped at `maxMs`, as the work queue backs off.
 */
export function eventRetryDelay(
  retry: number,
  firstMs: number = FIRST_RETRY_MS,
  maxMs: number = MAX_RETRY_MS,
): number {
  return backoffDelay(retry, firstMs, maxMs);
}

/**
 * The wait before the next attempt, or null when it would start after the retry window
 * that opened at `firstAttemptAt`: the event is given up.
 */
export function nextEventAttemptIn(
  retry: number,
  firstAttemptAt: number,
  now: number,
  options: OutboxRetryOptions = {},
): number | null {
  const delay = eventRetryDelay(retry, options.firstRetryMs, options.maxRetryMs);
  const windowMs = options.windowMs ?? EVENT_RETRY_WINDOW_MS;
  return now + delay - firstAttemptAt > windowMs ? null : delay;
}
