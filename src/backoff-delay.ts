/**
 * The delay before retry number `failures` (1 = first retry): doubling from base, capped.
 * Shared by the work queue's retries and the event outbox's (docs/protocol.md §6, §13), so it
 * sits beside `keys.ts`, below both rooms: neither imports the other for it.
 */
export function backoffDelay(failures: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, failures - 1));
}
