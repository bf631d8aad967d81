import { Queue, Worker } from 'bullmq';
import type { Lease } from '../fence/lease.js';
import { type IssueKey, issueKeyString } from '../keys.js';
import { connectRedis, duplicateFor, quitRedis, type RedisClient } from '../redis/connect-redis.js';
import { traceCarrier } from '../tracing/tracing.js';
import { type BullQueueOptions, type ResolvedOptions, resolveOptions } from './bullmq-options.js';
import { addJobs, type JobData, jobsToAdd, QueueRecords } from './bullmq-records.js';
import { IssueRuns } from './bullmq-runs.js';
import { enqueueScript, parkedScript } from './bullmq-scripts.js';
import { canonicalJson } from './canonical-json.js';
import { exclusiveOnRedis } from './issue-lock.js';
import type {
  QueueHooks,
  QueueLogger,
  ReconcileHandler,
  ReconcileRequest,
  WorkQueue,
} from './queue.js';
import { retryDelay } from './retry.js';

export type { BullQueueOptions } from './bullmq-options.js';

/*
 * BullMQ gives at-least-once jobs, retries and stalled-job recovery, but neither per-issue
 * serialisation nor "one more run" for a request that arrives mid-run: both come from a few
 * records per issue, changed only by the Lua scripts of bullmq-scripts.ts. docs/replicas.md
 * ("How the work queue keeps its promises") writes down the design, its races and why they
 * are harmless, and why the queue keeps two connections.
 */

const BACKOFF_TYPE = 'claims-exponential';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The shared {@link WorkQueue} (docs/protocol.md §7, `CLAIMS_REDIS_URL` set): BullMQ jobs plus per-issue
 * records in Redis, so that any number of replicas, each with its own worker, never reconcile
 * one issue at once, coalesce bursts, and run once more for an event that arrives mid-run.
 */
export class BullQueue implements WorkQueue {
  /** The worker side's connection: waits out outages (docs/replicas.md). */
  private readonly redis: RedisClient;
  private readonly ownsConnection: boolean;
  private readonly queue: Queue<JobData>;
  /** The producer side's own connection and queue: fail fast (docs/replicas.md). */
  private readonly producer: RedisClient;
  private readonly producerQueue: Queue<JobData>;
  private worker: Worker<JobData> | undefined;
  private runs: IssueRuns | undefined;
  private repairTimer: NodeJS.Timeout | undefined;
  private repairing: Promise<void> = Promise.resolve();
  private closed = false;

  private readonly options: ResolvedOptions;
  /** Where this queue's own records live: `<prefix>:<queue>:cw:`. */
  private readonly records: QueueRecords;
  private readonly logger: QueueLogger;

  constructor(options: BullQueueOptions) {
    this.logger = options.logger;
    this.options = resolveOptions(options);
    this.ownsConnection = !isClient(options.connection);
    if (isClient(options.connection)) this.redis = options.connection;
    else {
      this.redis = connectRedis(options.connection, 'wait-out');
      this.redis.on('error', (err) => this.logger.warn({ err }, 'work queue: Redis error'));
    }
    this.records = new QueueRecords(`${this.options.prefix}:${this.options.queueName}:cw:`);

    // Fail-fast, as the store's connection, with the queue's own command timeout.
    this.producer = isClient(options.connection)
      ? duplicateFor(options.connection, 'fail-fast', this.options.enqueueTimeoutMs)
      : connectRedis(options.connection, 'fail-fast', {
          commandTimeout: this.options.enqueueTimeoutMs,
        });
    // Outages are reported by the worker side's connection; failed enqueues by their caller.
    this.producer.on('error', () => {});

    this.queue = this.createQueue(this.redis);
    this.producerQueue = this.createQueue(this.producer);
  }

  private createQueue(connection: RedisClient): Queue<JobData> {
    const queue = new Queue<JobData>(this.options.queueName, {
      connection,
      prefix: this.options.prefix,
      defaultJobOptions: {
        attempts: this.options.maxAttempts,
        backoff: { type: BACKOFF_TYPE },
        // Removing finished jobs frees their ids; the design relies on it (docs/replicas.md).
        removeOnComplete: true,
        removeOnFail: true,
      },
    });
    queue.on('error', (err) => this.logger.warn({ err }, 'work queue: Redis error'));
    return queue;
  }

  async enqueue(request: ReconcileRequest): Promise<void> {
    if (this.closed) throw new Error('the work queue is closed; the request was not queued');
    const id = issueKeyString(request.key);
    const records = this.records.of(request.key);
    const members = [
      ...request.hints.map((hint) => `h:${canonicalJson(hint)}`),
      `r:${request.reason}`,
      // Traces on: the delivery's trace rides with the request to whichever replica runs it.
      ...[...(request.trace ?? []), traceCarrier()].flatMap((t) => (t ? [`t:${t}`] : [])),
    ];
    // Once connected, the producer fails fast; only its very first connection is waited for.
    await this.producerQueue.waitUntilReady();
    const jobs = (await enqueueScript.run(
      this.producer,
      [
        records.pending,
        this.records.shared('seq'),
        this.records.shared('pending-index'),
        records.admitted,
        records.parked,
        this.records.shared('parked-index'),
      ],
      [
        id,
        request.key.installationId,
        this.records.namespace,
        this.options.perInstallation,
        ...members,
      ],
    )) as unknown[];
    await addJobs(this.producerQueue, jobsToAdd(jobs));
  }

  start(handler: ReconcileHandler, hooks: QueueHooks = {}): void {
    if (this.runs) throw new Error('the work queue was started already');
    const runs = new IssueRuns({
      redis: this.redis,
      queue: this.queue,
      records: this.records,
      options: this.options,
      logger: this.logger,
      handler,
      hooks,
      closed: () => this.closed,
    });
    this.runs = runs;
    this.worker = new Worker<JobData>(
      this.options.queueName,
      (job, token) => runs.process(job, token),
      {
        connection: this.redis,
        prefix: this.options.prefix,
        concurrency: this.options.concurrency,
        lockDuration: this.options.lockDurationMs,
        stalledInterval: this.options.stalledIntervalMs,
        maxStalledCount: this.options.maxStalledCount,
        settings: {
          // BullMQ passes the error the processor threw: a rate limit's wait lengthens it.
          backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
            retryDelay(attemptsMade, this.options, err),
        },
      },
    );
    this.worker.on('error', (err) => this.logger.warn({ err }, 'work queue worker: Redis error'));
    this.worker.on('failed', (job, err) => {
      // Our processor never fails a job for good (the last attempt drops and completes), so a
      // finished failure comes from BullMQ itself: a job that stalled too often, or Redis
      // errors on every attempt.
      if (job?.finishedOn) void runs.afterJobGivenUp(job, err);
    });
    this.repairing = runs.repairOrphans();
    this.repairTimer = setInterval(() => {
      this.repairing = runs.repairOrphans();
    }, this.options.repairIntervalMs);
  }

  /** Resolves when no job waits, runs or is delayed and no request is pending (tests). */
  async idle(): Promise<void> {
    while (!(await this.isIdle())) await sleep(this.options.idlePollMs);
  }

  async depth(): Promise<number> {
    // The producer side: a scrape of /metrics while Redis is away fails fast, not hangs.
    const [counts, parked] = await Promise.all([
      this.producerQueue.getJobCounts('waiting', 'delayed', 'prioritized'),
      parkedScript.run(
        this.producer,
        [this.records.shared('parked-index')],
        [this.records.namespace],
      ),
    ]);
    return Object.values(counts).reduce((sum, count) => sum + count, Number(parked));
  }

  /** Holds the issue's `lock:K` (docs/replicas.md) while `fn` runs; fails fast. */
  async exclusive<T>(key: IssueKey, fn: (lease: Lease) => Promise<T>): Promise<T> {
    // As in enqueue: only the producer's very first connection is waited for.
    await this.producerQueue.waitUntilReady();
    const lock = this.records.of(key).lock;
    return exclusiveOnRedis(this.producer, lock, fn, { ttlMs: this.options.issueLockMs });
  }

  /** Stops taking jobs and waits for running handlers (BullMQ's graceful worker close). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.repairTimer);
    await this.repairing;
    await this.worker?.close();
    await this.queue.close();
    await this.producerQueue.close();
    await quitRedis(this.producer);
    if (this.ownsConnection) await quitRedis(this.redis);
  }

  private async isIdle(): Promise<boolean> {
    const counts = await this.queue.getJobCounts(
      'waiting',
      'active',
      'delayed',
      'prioritized',
      'waiting-children',
    );
    if (Object.values(counts).some((count) => count > 0)) return false;
    const [pending, running] = await Promise.all([
      this.redis.scard(this.records.shared('pending-index')),
      this.redis.scard(this.records.shared('running-index')),
    ]);
    return pending === 0 && running === 0;
  }
}

/** Whether the queue was given a client (the caller's) rather than an address to connect to. */
function isClient(connection: BullQueueOptions['connection']): connection is RedisClient {
  return typeof connection !== 'string' && !('form' in connection);
}
