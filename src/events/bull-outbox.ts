import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClaimEvent } from './claim-event.js';
import type { EventOutbox, OutboxRetryOptions } from './event-outbox.js';
import { EVENT_RETRY_WINDOW_MS, eventRetryDelay, nextEventAttemptIn } from './retry-schedule.js';

/** The BullMQ queue of outgoing events, beside the reconcile queue under the same prefix. */
export const EVENTS_QUEUE = 'claim-events';

/** Options of {@link BullOutbox}. */
export interface BullOutboxOptions extends OutboxRetryOptions {
  /** `CLAIMS_REDIS_URL`. */
  readonly url: string;
  /** `CLAIMS_REDIS_PREFIX`. */
  readonly prefix: string;
  readonly send: (event: ClaimEvent) => Promise<void>;
  readonly log: Logger;
  /** Events sent at once by this replica (default 4). */
  readonly concurrency?: number;
  /** How long a dead replica's event stays taken before another sends it (default 30 s). */
  readonly lockDurationMs?: number;
}

/**
 * The shared outbox (docs/protocol.md §13): one BullMQ job per event, its id the event's,
 * so the same change published twice (a retried reconcile, two replicas) is one job, and a
 * delivered one is kept for the retry window so it is not sent again. Retries with backoff
 * until the window closes; a replica killed mid-send leaves its job to BullMQ's stalled
 * check, and another replica sends it.
 */
export class BullOutbox implements EventOutbox {
  private readonly connection: Redis;
  private readonly workerConnection: Redis;
  private readonly queue: Queue<ClaimEvent>;
  private readonly worker: Worker<ClaimEvent>;

  constructor(private readonly options: BullOutboxOptions) {
    // BullMQ's workers block on Redis: no per-request retry limit, as BullMQ requires.
    this.connection = new Redis(options.url, { maxRetriesPerRequest: null });
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
    this.workerConnection = this.connection.duplicate({ maxRetriesPerRequest: null });
    this.workerConnection.on('error', () => {});
    this.worker = new Worker<ClaimEvent>(EVENTS_QUEUE, (job) => this.process(job), {
      connection: this.workerConnection,
      prefix: options.prefix,
      concurrency: options.concurrency ?? 4,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.lockDurationMs ?? 30_000,
      settings: {
        backoffStrategy: (attemptsMade: number) =>
          eventRetryDelay(attemptsMade, options.firstRetryMs, options.maxRetryMs),
      },
    });
    this.worker.on('error', (err) => options.log.warn({ err }, 'event worker: Redis error'));
  }

  async publish(events: readonly ClaimEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.queue.addBulk(
      events.map((event) => ({ name: event.type, data: event, opts: { jobId: event.id } })),
    );
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
    } catch (error) {
      const fields = {
        event: job.data.id,
        type: job.data.type,
        err: error,
        attempt: job.attemptsMade + 1,
      };
      const wait = nextEventAttemptIn(
        job.attemptsMade + 1,
        job.timestamp,
        Date.now(),
        this.options,
      );
      if (wait === null) {
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
