import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueKeyString } from '../../src/keys.js';
import { BullQueue, type BullQueueOptions } from '../../src/queue/bullmq-queue.js';
import { addJobs, type JobData } from '../../src/queue/bullmq-records.js';
import { canonicalJson } from '../../src/queue/canonical-json.js';
import type { ReconcileRequest } from '../../src/queue/queue.js';
import { flushPrefix, redisUrl, uniquePrefix } from '../helpers/redis.js';
import { redisForFile } from '../helpers/redis-for-file.js';
import {
  deferred,
  describeQueueContract,
  hint,
  issue,
  labels,
  memoryLogger,
  recorder,
  request,
  seededRandom,
  sleep,
  waitFor,
} from './queue-contract.js';

/** The queue suite's own database; the store suite uses another. */
const DB = 6;
const runPrefix = uniquePrefix('cw-queue-test');
let testCounter = 0;
let redis: Redis;

redisForFile(DB, runPrefix, (client) => {
  redis = client;
});

/** Options for a queue of its own: a fresh BullMQ prefix, fast polling, a quiet logger. */
function queueOptions(prefix: string, options: Partial<BullQueueOptions> = {}): BullQueueOptions {
  return {
    connection: redisUrl(DB),
    prefix,
    lockRetryDelayMs: 20,
    idlePollMs: 10,
    logger: memoryLogger().logger,
    ...options,
  };
}

function freshPrefix(): string {
  testCounter += 1;
  return `${runPrefix}-${testCounter}`;
}

describeQueueContract('BullQueue', async (options = {}) => {
  const prefix = freshPrefix();
  const queue = new BullQueue(queueOptions(prefix, options));
  return {
    queue,
    cleanup: async () => {
      await queue.close();
      await flushPrefix(redis, `${prefix}:`);
    },
  };
});

describe('BullQueue', () => {
  const opened: BullQueue[] = [];
  const children: ChildProcess[] = [];
  let prefix: string;

  function open(options: Partial<BullQueueOptions> = {}): BullQueue {
    const queue = new BullQueue(queueOptions(prefix, options));
    opened.push(queue);
    return queue;
  }

  beforeAll(() => {
    prefix = freshPrefix();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await Promise.all(opened.splice(0).map((queue) => queue.close()));
    await flushPrefix(redis, `${prefix}:`);
    prefix = freshPrefix();
  });

  it('two replicas never run one issue at once and deliver every request', async () => {
    const random = seededRandom(7);
    const ranOn = { a: 0, b: 0 };
    const { handler, state } = recorder(() => sleep(2 + Math.floor(random() * 8)));
    const a = open({ concurrency: 4 });
    const b = open({ concurrency: 4 });
    a.start(async (request) => {
      ranOn.a += 1;
      await handler(request);
    });
    b.start(async (request) => {
      ranOn.b += 1;
      await handler(request);
    });

    const sent: string[] = [];
    for (let i = 0; i < 50; i++) {
      sent.push(`h${i}`);
      // Five installations, so the per-installation share leaves work for both replicas.
      const key = issue(i % 5, 10 + (i % 5));
      await (i % 2 === 0 ? a : b).enqueue({
        ...request(i % 5, [hint(`h${i}`)], `event-${i}`),
        key,
      });
      await sleep(Math.floor(random() * 3));
    }
    await Promise.all([a.idle(), b.idle()]);

    expect(state.maxPerIssue).toBe(1);
    expect([...new Set(state.runs.flatMap(labels))].sort()).toEqual(sent.sort());
    expect(ranOn.a).toBeGreaterThan(0);
    expect(ranOn.b).toBeGreaterThan(0);
  });

  it('a second job for an issue that is running waits, and causes no extra run', async () => {
    const queue = open();
    const gate = deferred();
    const { handler, state } = recorder(() => gate.promise);
    queue.start(handler);
    await queue.enqueue(request(1, [hint('a')]));
    await waitFor(() => state.runs.length === 1);
    // The race where a late add re-creates a finished job id: a job nobody else expects.
    const jobs = (queue as unknown as { queue: Queue<JobData> }).queue;
    await addJobs(jobs, [[issueKeyString(issue(1)), 99]]);
    gate.resolve();
    await queue.idle();
    expect(state.runs).toHaveLength(1);
    expect(state.maxPerIssue).toBe(1);
  });

  it('leaves only generation counters behind once idle', async () => {
    const queue = open();
    queue.start(recorder().handler);
    for (let i = 0; i < 5; i++) await queue.enqueue(request(i % 2, [hint(`h${i}`)]));
    await queue.idle();
    const records = (await redis.keys(`${prefix}:reconcile:cw:*`)).map((key) =>
      key.slice(`${prefix}:reconcile:cw:`.length).replace(/:.*/, ''),
    );
    expect(new Set(records)).toEqual(new Set(['gen', 'seq']));
    expect(await queue.depth()).toBe(0);
    expect(await redis.keys(`${prefix}:reconcile:*%23*`)).toEqual([]);
  });

  it('requests a producer left without a job (it died mid-enqueue) are run at start', async () => {
    // What ENQUEUE leaves when its process dies before `queue.add`: records, no job.
    const id = issueKeyString(issue(3));
    const records = `${prefix}:reconcile:cw:`;
    await redis.zadd(
      `${records}pending:${id}`,
      1,
      `h:${canonicalJson(hint('orphan'))}`,
      2,
      'r:lost',
    );
    await redis.sadd(`${records}pending-index`, id);
    const queue = open();
    const { handler, state } = recorder();
    queue.start(handler);
    await queue.idle();
    expect(state.runs).toHaveLength(1);
    expect(labels(state.runs[0]!)).toEqual(['orphan']);
    expect(state.runs[0]!.reason).toBe('lost');
  });

  it('the run of a killed replica is taken over by another, with its hints', async () => {
    const fast = { lockDurationMs: 1000, stalledIntervalMs: 300 };
    const child = spawnReplica(prefix, fast);
    children.push(child);
    const lines = createInterface({ input: child.stdout! });
    const messages: Array<{ ready?: boolean; started?: ReconcileRequest }> = [];
    lines.on('line', (line) => messages.push(JSON.parse(line)));
    await waitFor(() => messages.some((m) => m.ready), 15_000);

    const survivor = open(fast);
    await survivor.enqueue(request(1, [hint('kept')], 'before-the-crash'));
    await waitFor(() => messages.some((m) => m.started), 10_000);
    child.kill('SIGKILL');

    const { handler, state } = recorder();
    survivor.start(handler);
    await survivor.idle();
    expect(state.runs).toHaveLength(1);
    expect(labels(state.runs[0]!)).toEqual(['kept']);
    expect(state.runs[0]!.reason).toBe('before-the-crash');
  });
});

/** A replica in another process whose handler hangs, to be killed with SIGKILL mid-run. */
function spawnReplica(prefix: string, options: Partial<BullQueueOptions>): ChildProcess {
  const module = fileURLToPath(new URL('../../src/queue/bullmq-queue.ts', import.meta.url));
  const script = `
    const { BullQueue } = await import(${JSON.stringify(module)});
    const queue = new BullQueue({
      ...${JSON.stringify({ connection: redisUrl(DB), prefix, lockRetryDelayMs: 20, ...options })},
      logger: { warn() {}, error() {} },
    });
    queue.start(async (request) => {
      process.stdout.write(JSON.stringify({ started: request }) + '\\n');
      await new Promise(() => {});
    });
    process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
  `;
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}
