import { createHash } from 'node:crypto';
import { backoffDelay } from '../backoff-delay.js';
import type { OutboxRetryOptions } from './event-outbox.js';

/** How long an event is retried before it is given up (docs/protocol.md §13). */
export const EVENT_RETRY_WINDOW_MS = 24 * 3_600_000;

/** The first retry's wait before jitter: well within the 30 s docs/protocol.md §13 asks for. */
const FIRST_RETRY_MS = 5_000;

/** The longest wait between two attempts, before jitter. */
const MAX_RETRY_MS = 30 * 60_000;

/**
 * The wait before retry `retry` (1 for the first) of the event `eventId`: doubling from
 * `firstMs`, capped at `maxMs`, as the work queue backs off, then jittered down to between
 * half of that and all of it. Events that failed together (a receiver down) would otherwise
 * come back together, every time, in one burst. The jitter is drawn from the event id and
 * the retry's number, not from a random source, so each replica and each look at the same
 * retry (BullMQ's backoff and the log line of the attempt) agrees on the wait.
 */
export function eventRetryDelay(
  retry: number,
  eventId: string,
  firstMs: number = FIRST_RETRY_MS,
  maxMs: number = MAX_RETRY_MS,
): number {
  const delay = backoffDelay(retry, firstMs, maxMs);
  return Math.round(delay / 2 + (delay / 2) * jitterOf(eventId, retry));
}

/**
 * The wait before the next attempt, or null when it would start after the retry window
 * that opened at `firstAttemptAt`: the event is given up.
 */
export function nextEventAttemptIn(
  retry: number,
  eventId: string,
  firstAttemptAt: number,
  now: number,
  options: OutboxRetryOptions = {},
): number | null {
  const delay = eventRetryDelay(retry, eventId, options.firstRetryMs, options.maxRetryMs);
  const windowMs = options.windowMs ?? EVENT_RETRY_WINDOW_MS;
  return now + delay - firstAttemptAt > windowMs ? null : delay;
}

/** A fraction in [0, 1) that looks random across events and retries, the same every time. */
function jitterOf(eventId: string, retry: number): number {
  const hash = createHash('sha256').update(`${eventId}\n${retry}`).digest();
  return hash.readUInt32BE(0) / 2 ** 32;
}
