import { describe, expect, it } from 'vitest';
import { BullQueue } from '../../src/queue/bullmq-queue.js';
import { exclusiveInProcess, IssueLockTimeoutError } from '../../src/queue/issue-lock.js';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
import type { WorkQueue } from '../../src/queue/queue.js';
import { redisUrl, uniquePrefix } from '../helpers/redis.js';
import { redisForFile } from '../helpers/redis-for-file.js';
import { startRedisProxy } from '../replicas/harness.js';
import {
  deferred,
  issue,
  memoryLogger,
  recorder,
  request,
  sleep,
  waitFor,
} from './queue-contract.js';

/** The queue suite's database (the contract suites use the same one, under other prefixes). */
const DB = 6;
const runPrefix = uniquePrefix('cw-issue-lock');
let counter = 0;

redisForFile(DB, runPrefix);

type MakeQueues = (count: number) => Promise<{ queues: WorkQueue[]; close(): Promise<void> }>;

const memoryQueues: MakeQueues = async () => {
  const queue = new MemoryQueue({ logger: memoryLogger().logger });
  return { queues: [queue], close: () => queue.close() };
};

const bullQueues: MakeQueues = async (count) => {
  counter += 1;
  const prefix = `${runPrefix}-${counter}`;
  const queues = Array.from(
    { length: count },
    () =>
      new BullQueue({
        connection: redisUrl(DB),
        prefix,
        lockRetryDelayMs: 20,
        idlePollMs: 10,
        logger: memoryLogger().logger,
      }),
  );
  return {
    queues,
    close: async () => {
      await Promise.all(queues.map((q) => q.close()));
    },
  };
};

function describeIssueLock(name: string, make: MakeQueues, replicas: number): void {
  describe(`${name}: exclusive()`, () => {
    it('a reconcile of the issue waits for an exclusive call and then runs once', async () => {
      const { queues, close } = await make(replicas);
      try {
        const { handler, state } = recorder();
        for (const queue of queues) queue.start(handler);
        const release = deferred();
        let reconcilesDuringCall = -1;
        const call = queues[0]!.exclusive(issue(1), async () => {
          await queues[queues.length - 1]!.enqueue(request(1));
          await sleep(150);
          reconcilesDuringCall = state.runs.length;
          await release.promise;
          return 'answered';
        });
        await waitFor(() => reconcilesDuringCall >= 0);
        release.resolve();
        expect(await call).toBe('answered');
        await queues[0]!.idle();
        expect(reconcilesDuringCall).toBe(0);
        expect(state.runs.map((r) => r.issue)).toEqual(['7/acme/widgets#1']);
      } finally {
        await close();
      }
    });

    it('an exclusive call waits for a running reconcile of its issue', async () => {
      const { queues, close } = await make(replicas);
      try {
        const release = deferred();
        let reconciling = false;
        const { handler } = recorder(async () => {
          reconciling = true;
          await release.promise;
          reconciling = false;
        });
        for (const queue of queues) queue.start(handler);
        await queues[0]!.enqueue(request(1));
        await waitFor(() => reconciling);
        let sawReconcile: boolean | undefined;
        const call = queues[queues.length - 1]!.exclusive(issue(1), async () => {
          sawReconcile = reconciling;
        });
        await sleep(100);
        expect(sawReconcile).toBeUndefined();
        release.resolve();
        await call;
        expect(sawReconcile).toBe(false);
      } finally {
        await close();
      }
    });

    it('exclusive calls on one issue never overlap; on different issues they do', async () => {
      const { queues, close } = await make(replicas);
      try {
        for (const queue of queues) queue.start(async () => {});
        let active = 0;
        let most = 0;
        const call = (queue: WorkQueue, number: number) =>
          queue.exclusive(issue(number), async () => {
            active += 1;
            most = Math.max(most, active);
            await sleep(30);
            active -= 1;
          });
        await Promise.all(queues.flatMap((q) => [call(q, 1), call(q, 1), call(q, 1)]));
        expect(most).toBe(1);
        await Promise.all(queues.flatMap((q) => [call(q, 2), call(q, 3)]));
        expect(most).toBe(2);
      } finally {
        await close();
      }
    });

    it('an exclusive call that throws passes its error on and frees the issue', async () => {
      const { queues, close } = await make(replicas);
      try {
        const { handler, state } = recorder();
        for (const queue of queues) queue.start(handler);
        await expect(
          queues[0]!.exclusive(issue(1), async () => {
            throw new Error('GitHub failed');
          }),
        ).rejects.toThrow('GitHub failed');
        await queues[0]!.enqueue(request(1));
        await queues[0]!.idle();
        expect(state.runs).toHaveLength(1);
        expect(await queues[0]!.exclusive(issue(1), async () => 42)).toBe(42);
      } finally {
        await close();
      }
    });
  });
}

describeIssueLock('MemoryQueue', memoryQueues, 1);
describeIssueLock('BullQueue, two replicas', bullQueues, 2);

describe('exclusiveInProcess', () => {
  it('gives up naming the issue when it stays locked past the timeout', async () => {
    const running = new Map<string, Promise<void>>([['7/acme/widgets#1', new Promise(() => {})]]);
    const error = await exclusiveInProcess(
      running,
      '7/acme/widgets#1',
      async () => 1,
      () => {},
      {
        timeoutMs: 50,
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssueLockTimeoutError);
    expect(String(error)).toContain('7/acme/widgets#1');
  });
});

describe('BullQueue: an issue lock whose holder lost its Redis connection', () => {
  it('is free again within seconds (a short lease), not after the 30 s run lock', async () => {
    counter += 1;
    const prefix = `${runPrefix}-${counter}`;
    const proxy = await startRedisProxy();
    const options = { prefix, lockRetryDelayMs: 20, idlePollMs: 10 };
    const cut = new BullQueue({
      ...options,
      connection: proxy.url(DB),
      logger: memoryLogger().logger,
    });
    const other = new BullQueue({
      ...options,
      connection: redisUrl(DB),
      logger: memoryLogger().logger,
    });
    try {
      const held = deferred();
      // The holder takes the issue, then Redis stops answering it (a pause, a dead path).
      const holder = cut
        .exclusive(issue(1), async () => {
          proxy.stall();
          held.resolve();
        })
        .catch(() => undefined);
      await held.promise;

      const startedAt = performance.now();
      const ran = await other.exclusive(issue(1), async () => 'ran');
      const waitedMs = performance.now() - startedAt;

      expect(ran).toBe('ran');
      // The 10 s lease, within the 15 s wait; the old lock lived 30 s (past the 15 s wait).
      expect(waitedMs).toBeLessThan(15_000);
      proxy.restore();
      await holder;
    } finally {
      proxy.restore();
      await Promise.all([cut.close(), other.close()]);
      await proxy.close();
    }
  }, 60_000);
});
