import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay } from '../../src/backoff-delay.js';
import { canonicalJson } from '../../src/queue/canonical-json.js';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
import {
  deferred,
  describeQueueContract,
  hint,
  labels,
  memoryLogger,
  recorder,
  request,
} from './queue-contract.js';

describeQueueContract('MemoryQueue', async (options = {}) => {
  const queue = new MemoryQueue({ logger: memoryLogger().logger, ...options });
  return { queue, cleanup: () => queue.close() };
});

describe('MemoryQueue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('backs off exponentially up to the cap', async () => {
    vi.useFakeTimers();
    const { logger } = memoryLogger();
    const queue = new MemoryQueue({ baseDelayMs: 1000, maxDelayMs: 4000, maxAttempts: 6, logger });
    const startedAt: number[] = [];
    queue.start(async () => {
      startedAt.push(Date.now());
      throw new Error('down');
    });
    const t0 = Date.now();
    await queue.enqueue(request(1));
    await vi.runAllTimersAsync();
    await queue.idle();
    expect(startedAt.map((t) => t - t0)).toEqual([0, 1000, 3000, 7000, 11_000, 15_000]);
  });

  it('a request arriving during the last failing attempt still gets its run', async () => {
    const { logger, entries } = memoryLogger();
    const queue = new MemoryQueue({ baseDelayMs: 1, maxAttempts: 1, logger });
    const gate = deferred();
    const { handler, state } = recorder(async () => {
      if (state.runs.length === 1) {
        await gate.promise;
        throw new Error('down');
      }
    });
    queue.start(handler);
    await queue.enqueue(request(1, [hint('dropped')]));
    await queue.enqueue(request(2));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await queue.enqueue(request(1, [hint('arrived')]));
    gate.resolve();
    await queue.idle();
    const issueOne = state.runs.filter((run) => run.hints.length > 0);
    expect(issueOne.map(labels)).toEqual([['dropped'], ['arrived']]);
    expect(entries.filter((entry) => entry.level === 'error')).toHaveLength(1);
  });

  it('a handler that throws synchronously is retried like one that rejects', async () => {
    const { logger } = memoryLogger();
    const queue = new MemoryQueue({ baseDelayMs: 1, logger });
    let calls = 0;
    queue.start(((): Promise<void> => {
      calls += 1;
      if (calls === 1) throw new Error('sync');
      return Promise.resolve();
    }) as never);
    await queue.enqueue(request(1));
    await queue.idle();
    expect(calls).toBe(2);
    expect(await queue.depth()).toBe(0);
  });

  it('close() cancels delayed retries and later requests are refused', async () => {
    vi.useFakeTimers();
    const { logger } = memoryLogger();
    const queue = new MemoryQueue({ baseDelayMs: 1000, logger });
    let calls = 0;
    queue.start(async () => {
      calls += 1;
      throw new Error('down');
    });
    await queue.enqueue(request(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(await queue.depth()).toBe(1);
    await queue.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(1);
    await queue.idle();
    await expect(queue.enqueue(request(1))).rejects.toThrow(/closed/);
  });

  it('holds requests until started', async () => {
    const queue = new MemoryQueue({ logger: memoryLogger().logger });
    await queue.enqueue(request(1));
    await queue.enqueue(request(2));
    expect(await queue.depth()).toBe(2);
    const { handler, state } = recorder();
    queue.start(handler);
    await queue.idle();
    expect(state.runs).toHaveLength(2);
    expect(() => queue.start(handler)).toThrow(/started already/);
  });

  it('backoffDelay doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, 1000, 60_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 60_000,
    ]);
  });

  it('canonicalJson ignores key order, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { e: 2, f: 1 }] }, b: 1 }),
    );
  });
});
