import { describe, expect, it } from 'vitest';
import { keepDue } from '../../src/queue/keep-due.js';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { issue, memoryLogger, request } from './queue-contract.js';

const NOW = new Date('2030-01-01T12:00:00Z');
const seconds = (s: number) => new Date(NOW.getTime() + s * 1000);

/** Runs one request that fails with `error` on every attempt through a real queue. */
async function exhaust(error: unknown) {
  const store = new MemoryStore();
  const { logger, entries } = memoryLogger();
  let kept = 0;
  const queue = new MemoryQueue({ baseDelayMs: 1, maxAttempts: 1, logger });
  queue.start(
    async () => {
      throw error;
    },
    {
      onExhausted: keepDue({
        store,
        log: logger,
        now: () => NOW,
        onKept: () => {
          kept += 1;
        },
      }),
    },
  );
  await queue.enqueue(request(1));
  await queue.idle();
  await queue.close();
  return { store, entries, kept };
}

describe('keepDue', () => {
  it.each([
    ['a failure that says nothing', new Error('GitHub answered 502'), 60],
    [
      'a rate limit longer than a minute',
      Object.assign(new Error('rate limited'), { retryAfterMs: 120_000 }),
      120,
    ],
    ['a short rate limit', Object.assign(new Error('rate limited'), { retryAfterMs: 5_000 }), 60],
  ])(
    '%s: the exhausted reconcile is kept due for the sweep, not dropped',
    async (_name, error, dueIn) => {
      const { store, entries, kept } = await exhaust(error);

      expect(await store.dueIssues(seconds(dueIn - 1), 10)).toEqual([]);
      expect(await store.dueIssues(seconds(dueIn), 10)).toEqual([issue(1)]);
      expect(kept).toBe(1);
      expect(entries).toContainEqual({
        level: 'warn',
        message: 'reconcile failed on every attempt; kept due for the sweep',
        meta: expect.objectContaining({
          issue: '7/acme/widgets#1',
          attempts: 1,
          dueAt: seconds(dueIn).toISOString(),
        }),
      });
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
    },
  );
});
