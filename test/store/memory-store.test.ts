import { describe, expect, it } from 'vitest';
import type { IssueKey } from '../../src/keys.js';
import { MemoryDeliveryIds } from '../../src/store/memory-delivery-ids.js';
import { MemoryIssueRecords } from '../../src/store/memory-issue-records.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { describeStoreContract } from './store-contract.js';

describeStoreContract('MemoryStore', async () => {
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const store = new MemoryStore({ now: () => clock });
  return {
    store,
    advance: (ms) => {
      clock += ms;
    },
    cleanup: () => store.close(),
  };
});

describe('MemoryStore', () => {
  const key = (number: number): IssueKey => ({
    installationId: 1,
    owner: 'acme',
    repo: 'widgets',
    number,
  });

  it('finds the few due issues among 100,000 without scanning them all', async () => {
    const store = new MemoryIssueRecords(Date.now);
    const base = Date.parse('2030-01-01T00:00:00Z');
    // Deadlines in shuffled order, one second apart, none due before base + 1 s.
    const order = Array.from({ length: 100_000 }, (_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) await store.setDeadline(key(i), new Date(base + (i + 1) * 1000));

    // Count the heap's comparisons instead of timing the call: a scan of the index costs at
    // least one comparison per entry, the heap about 2·log2(n) per due issue.
    const heap = (store as unknown as { heap: { less: (a: unknown, b: unknown) => boolean } }).heap;
    const less = heap.less;
    let comparisons = 0;
    heap.less = (a, b) => {
      comparisons += 1;
      return less(a, b);
    };
    const due = await store.dueIssues(new Date(base + 10_000), 100);

    expect(due.map((k) => k.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await store.countDeadlines()).toBe(100_000);
    expect(comparisons).toBeGreaterThan(0);
    expect(comparisons).toBeLessThan(2_000);
  });

  it('keeps the index small when deadlines move often', async () => {
    const store = new MemoryIssueRecords(Date.now);
    const base = Date.parse('2030-01-01T00:00:00Z');
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 1000; i++)
        await store.setDeadline(key(i), new Date(base + round * 1000 + i));
    }
    expect(await store.countDeadlines()).toBe(1000);
    const heapSize = (store as unknown as { heap: { size: number } }).heap.size;
    expect(heapSize).toBeLessThanOrEqual(2 * 1000 + 1024 + 1);
    const due = await store.dueIssues(new Date(base + 49_000 + 2), 10);
    expect(due.map((k) => k.number)).toEqual([0, 1, 2]);
  });

  it('forgets the soonest-expiring delivery ids past its bound', async () => {
    let clock = 0;
    const store = new MemoryStore({ now: () => clock, maxDeliveryIds: 3 });
    for (const id of ['a', 'b', 'c', 'd']) {
      clock += 1;
      expect(await store.markDelivery(id, 1000)).toBe(true);
    }
    // 'a' expired first, so it was forgotten to stay within 3 ids; the others are remembered.
    expect(await store.markDelivery('d', 1000)).toBe(false);
    expect(await store.markDelivery('c', 1000)).toBe(false);
    expect(await store.markDelivery('a', 1000)).toBe(true);
  });

  it('drops expired delivery ids as time passes', async () => {
    let clock = 0;
    const store = new MemoryDeliveryIds(() => clock);
    for (let i = 0; i < 1000; i++) await store.markDelivery(`old-${i}`, 100);
    clock += 101;
    await store.markDelivery('new', 100);
    const size = (store as unknown as { deliveries: Map<string, number> }).deliveries.size;
    expect(size).toBe(1);
  });
});
