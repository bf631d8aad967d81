import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { settingDefault } from '../config/settings.js';
import { connectRedis, type RedisAddress, type RedisClient } from '../redis/connect-redis.js';
import type { ClaimEvent } from './claim-event.js';
import type {
  EventOutbox,
  OutboxBacklog,
  OutboxObserver,
  OutboxRetryOptions,
} from './event-outbox.js';
import { EVENT_RETRY_WINDOW_MS, eventRetryDelay, nextEventAttemptIn } from './retry-schedule.js';

/** The BullMQ queue of outgoing events, beside the reconcile queue under the same prefix. */
export const EVENTS_QUEUE = 'claim-events';

/**
 * The longest an event a dead replica was sending stays taken. It is sent again within one
 * and a half of these, so a killed sender's event is retried within the 30 s of
 * docs/protocol.md §13 whatever `CLAIMS_QUEUE_LOCK` says.
 */
const MAX_EVENT_LOCK_MS = 10_000;

/**
 * How often an event may lose its sender before BullMQ gives it up. A stall is not a failed
 * send: BullMQ's default of one would drop an event whose replicas died twice while sending
 * it; a bound still stops an event that kills every replica sending it.
 */
const MAX_EVENT_STALLS = 10;

/** Options of {@link BullOutbox}. */
interface BullOutboxOptions extends OutboxRetryOptions {
  /** The settings' Redis (`CLAIMS_REDIS_URL`, `_SENTINELS` or `_CLUSTER`), or a URL. */
  readonly target: RedisAddress;
  /** `CLAIMS_REDIS_PREFIX`, as a hash tag on a Cluster (src/redis/keyspace.ts). */
  readonly prefix: string;
  readonly send: (event: ClaimEvent) => Promise<void>;
  readonly log: Logger;
  /** Events sent at once by this replica: `CLAIMS_EVENTS_CONCURRENCY` (default 4). */
  readonly concurrency?: number;
  /** Told of each attempt and each event given up (the metrics). */
  readonly observer?: OutboxObserver;
  /**
   * How long a dead replica's event stays taken: another replica sends it within one and a
   * half of these (`CLAIMS_QUEUE_LOCK`; default and at most {@link MAX_EVENT_LOCK_MS}).
   */
  readonly lockDurationMs?: number;
}

/** How many jobs of each state {@link BullOutbox.backlog} reads to find the oldest. */
const BACKLOG_SAMPLE = 50;

/**
 * The shared outbox (docs/protocol.md §13): one BullMQ job per event, its id the event's,
 * so the same change published twice (a retried reconcile, two replicas) is one job, and a
 * delivered one is kept for the retry window so it is not sent again. Retries with backoff
 * until the window closes. An event waiting for its retry waits on Redis, for any replica; one
 * a replica was sending when it died keeps its lock until the lock lapses, then BullMQ's
 * stalled check puts it back, and another replica sends it.
 */
export class BullOutbox implements EventOutbox {
  private readonly connection: RedisClient;
  private readonly workerConnection: RedisClient;
  private readonly queue: Queue<ClaimEvent>;
  private readonly worker: Worker<ClaimEvent>;

  constructor(private readonly options: BullOutboxOptions) {
    // BullMQ's workers block on Redis: no per-request retry limit, as BullMQ requires.
    this.connection = connectRedis(options.target, 'wait-out');
    this.connection.on('error', () => {});
    const retention = { age: Math.ceil((options.windowMs ?? EVENT_RETRY_WINDOW_MS) / 1000) };
    this.queue = new Queue<ClaimEvent>(EVENTS_QUEUE, {
      connection: this.connection,
      prefix: options.prefix,
      defaultJobOptions: {
        // Bounded by the window, not by a count: see process().
        attempts: 10_000,
        backoff: { type: 'event' },
        removeOnComplete: retention,
        removeOnFail: retention,
      },
    });
    this.queue.on('error', (err) => options.log.warn({ err }, 'event queue: Redis error'));
    this.workerConnection = connectRedis(options.target, 'wait-out');
    this.workerConnection.on('error', () => {});
    const lock = Math.min(options.lockDurationMs ?? MAX_EVENT_LOCK_MS, MAX_EVENT_LOCK_MS);
    this.worker = new Worker<ClaimEvent>(EVENTS_QUEUE, (job) => this.process(job), {
      connection: this.workerConnection,
      prefix: options.prefix,
      concurrency: options.concurrency ?? settingDefault('CLAIMS_EVENTS_CONCURRENCY'),
      lockDuration: lock,
      // BullMQ's stalled check runs at most once per interval across the cluster, and moves
      // back a job that was active at the check before and has no lock now. At half the lock,
      // a dead sender's event is back in wait within 1.5 locks of the death; at a whole lock
      // it could take 3.
      stalledInterval: lock / 2,
      maxStalledCount: MAX_EVENT_STALLS,
      settings: {
        // Jittered per event (retry-schedule.ts); the same wait process() logs.
        backoffStrategy: (attemptsMade: number, _type, _err, job) =>
          eventRetryDelay(
            attemptsMade,
            (job as Job<ClaimEvent> | undefined)?.data.id ?? '',
            options.firstRetryMs,
            options.maxRetryMs,
          ),
      },
    });
    this.worker.on('error', (err) => options.log.warn({ err }, 'event worker: Redis error'));
    this.worker.on('failed', (job) => {
      // process() logs the give-ups it decides; this one is BullMQ's (MAX_EVENT_STALLS).
      if (!job?.finishedOn || !job.deferredFailure) return;
      options.observer?.dropped('expired');
      options.log.error(
        { event: job.data.id, type: job.data.type, stalls: job.stalledCounter },
        'claim event given up: the replicas sending it died too often',
      );
    });
  }

  async publish(events: readonly ClaimEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.queue.addBulk(
      events.map((event) => ({ name: event.type, data: event, opts: { jobId: event.id } })),
    );
  }

  /**
   * Counts every job not finished; the oldest is looked for among the first of each state (the
   * waiting list is in arrival order, the delayed set in order of next attempt): a bounded read
   * per scrape, which on a long backlog may miss an older event backing off behind newer ones.
   */
  async backlog(): Promise<OutboxBacklog> {
    const states = ['waiting', 'active', 'delayed', 'prioritized'] as const;
    const counts = await this.queue.getJobCounts(...states);
    const pending = Object.values(counts).reduce((sum, n) => sum + n, 0);
    if (pending === 0) return { pending, oldestAt: null };
    const jobs = await this.queue.getJobs([...states], 0, BACKLOG_SAMPLE - 1, true);
    const times = jobs.flatMap((job) => (job ? [job.timestamp] : []));
    return { pending, oldestAt: times.length > 0 ? Math.min(...times) : null };
  }

  async idle(): Promise<void> {
    for (;;) {
      const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((n) => n === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.queue.close();
    this.workerConnection.disconnect();
    this.connection.disconnect();
  }

  private async process(job: Job<ClaimEvent>): Promise<void> {
    try {
      await this.options.send(job.data);
      this.options.observer?.attempted('delivered');
    } catch (error) {
      this.options.observer?.attempted('failed');
      const fields = {
        event: job.data.id,
        type: job.data.type,
        err: error,
        attempt: job.attemptsMade + 1,
      };
      const wait = nextEventAttemptIn(
        job.attemptsMade + 1,
        job.data.id,
        job.timestamp,
        Date.now(),
        this.options,
      );
      if (wait === null) {
        this.options.observer?.dropped('expired');
        this.options.log.error(fields, 'claim event given up after its retry window');
        throw new UnrecoverableError('the retry window of the event closed');
      }
      this.options.log.warn(
        { ...fields, retryInMs: wait },
        'claim event not delivered: will retry',
      );
      throw error;
    }
  }
}
