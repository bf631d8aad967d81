import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { RedisScript } from '../store/redis-store.js';
import { type IssueKey, issueKeyString, parseIssueKeyString } from '../store/store.js';
import { exclusiveOnRedis } from './issue-lock.js';
import {
  backoffDelay,
  canonicalJson,
  type QueueLogger,
  REASON_SEPARATOR,
  type RetryOptions,
} from './memory-queue.js';
import type { Hint, ReconcileHandler, ReconcileRequest, WorkQueue } from './queue.js';

/*
 * How the guarantees of WorkQueue hold across replicas
 * =====================================================
 *
 * BullMQ gives at-least-once jobs, retries with backoff and stalled-job recovery, but no
 * per-issue serialisation (its groups are a Pro feature) and no "one more run" semantics.
 * Both come from four small records per issue K, under `<prefix>:<queue>:cw:`, changed only
 * by the Lua scripts below, so each change is atomic:
 *
 *   pending:K  ZSET  requests not yet taken by a run. Members `h:<canonical hint JSON>` and
 *                    `r:<reason>`; score = a global arrival counter, so ZADD NX de-duplicates
 *                    while keeping first-arrival order. Every request adds an `r:` member, so
 *                    "pending:K exists" means "a request is not yet served".
 *   running:K  ZSET  what the current (or a dead) run took. Kept until that run ends well,
 *                    so a killed run's hints are merged into the next run, not lost.
 *   gen:K      INT   generation: the job for K is `<K>.<gen>`. Bumped when a run ends.
 *   lock:K     STR   the per-issue lock: a random token, PX TTL, renewed while running.
 * plus two sets indexing the issues with a pending:K or a running:K, for `idle()` and for
 * the orphan repair below.
 *
 * ENQUEUE: add the members to pending:K and read gen:K; then `queue.add` with jobId K.gen.
 *   BullMQ ignores an add whose jobId exists, so a burst makes one job: coalescing.
 * RUN (processor of job K.g):
 *   TAKE    — SET lock:K NX; if held, move the job to delayed for `lockRetryDelayMs` and
 *             try again (another job of K runs somewhere). Else merge pending:K into
 *             running:K and return it. Empty: every request was served; skip the handler.
 *   handler — lock:K renewed every lockDuration/3 meanwhile.
 *   FINISH  — (success, or failure on the last attempt = drop) if lock:K is still ours or
 *             free: delete lock:K and running:K; bump gen:K if it is still g; if pending:K
 *             exists (requests arrived during the run) return the gen to add a job for.
 *             The job is added *before* the processor returns, so a crash in between leaves
 *             K.g active, and BullMQ's stalled check runs K.g again: nothing is lost.
 *   failure, not last: release lock:K only; running:K stays and the processor throws, so
 *             BullMQ retries K.g with backoff. Requests arriving meanwhile hit the existing
 *             jobId K.g and are merged into the retry by TAKE.
 *
 * Races, and why they are harmless:
 * - Enqueue reads gen g while K.g runs: its add is a no-op, but its members were added to
 *   pending:K before FINISH of K.g (scripts are serialised), so FINISH sees pending:K and adds
 *   K.(g+1): exactly one more run. If FINISH ran first, enqueue read g+1 and adds K.(g+1) itself.
 * - Enqueue reads g, K.g completes and is removed (removeOnComplete) before the add lands: the
 *   add re-creates K.g. Two jobs for K may exist; lock:K serialises them and the second finds
 *   pending:K and running:K empty and skips the handler. Extra jobs never cause extra runs.
 * - A worker dies mid-run (kill -9): the job lock lapses, BullMQ's stalled check puts K.g back
 *   in wait, lock:K expires (same duration), and the rerun's TAKE merges running:K (the dead
 *   run's hints) with pending:K. Reconciles are idempotent, so re-running a half-done one is
 *   safe (SPEC §6).
 * - Two jobs of K (the re-created one above, or a stalled rerun beside K.(g+1)): whichever
 *   takes lock:K runs; the other waits in delayed. A job whose gen is not current never bumps
 *   gen:K, so it cannot make a later job's id reusable while that job exists.
 * - lock:K can only be lost while its holder still runs if renewal stops for a whole
 *   lockDuration (a frozen event loop or Redis unreachable); BullMQ's own job lock has the
 *   same limit. FINISH then leaves running:K to the new holder.
 * - A job failed by BullMQ itself (stalled more than maxStalledCount, or Redis errors on
 *   every attempt) is logged; if requests are pending a new job is added for them. Its
 *   running:K is not retried on its own (a run that kills its process every time must end)
 *   but joins the issue's next run.
 * - A producer dies between ENQUEUE and its add: pending:K has no job. Each replica re-adds
 *   jobs for every indexed pending issue at start and every repairIntervalMs (a no-op where
 *   the job exists), so such requests are late, never lost.
 *
 * Two connections, because the two sides want opposite things from a Redis outage:
 * - the worker side (BullMQ's Worker, TAKE, FINISH, lock renewal, repair) waits it out:
 *   `maxRetriesPerRequest: null` and the offline queue, as BullMQ requires of workers, so
 *   a run in progress finishes when Redis is back and the worker resumes by itself;
 * - the producer side (`enqueue`, called while a webhook waits for its answer) fails fast,
 *   as BullMQ advises for producers behind an HTTP endpoint ("Failing fast when Redis is
 *   down"): no offline queue, a command timeout. A failed ENQUEUE step has then either not
 *   happened or (its reply lost) left pending:K without a job, which repair runs later.
 */

/** Options of {@link BullQueue}. */
export interface BullQueueOptions extends RetryOptions {
  /**
   * The Redis to share with the other replicas: an ioredis client the caller owns (BullMQ
   * workers need it created with `maxRetriesPerRequest: null`), or a URL the queue connects to
   * and closes.
   */
  readonly connection: Redis | string;
  /** BullMQ queue name (default `reconcile`); replicas sharing work use the same one. */
  readonly queueName?: string;
  /** BullMQ key prefix (default `claims`). */
  readonly prefix?: string;
  /** Handlers this replica runs at once across issues (default 8). */
  readonly concurrency?: number;
  /**
   * How long a run may go unrenewed before it counts as dead (default 30000 ms): BullMQ's job
   * lock and the per-issue lock both use it. A killed replica's work resumes after about
   * this plus two `stalledIntervalMs`.
   */
  readonly lockDurationMs?: number;
  /** How often BullMQ looks for jobs of dead workers (default 30000 ms). */
  readonly stalledIntervalMs?: number;
  /** Stalls of one job before BullMQ gives it up (default 3). */
  readonly maxStalledCount?: number;
  /** How long a job waits when its issue is being reconciled elsewhere (default 250 ms). */
  readonly lockRetryDelayMs?: number;
  /** How often each replica re-adds jobs for requests a crashed producer left (default 60000 ms). */
  readonly repairIntervalMs?: number;
  /** How often `idle()` looks at the queue (default 50 ms). */
  readonly idlePollMs?: number;
  /**
   * How long `enqueue` waits for Redis before failing (default 2000 ms). While Redis is
   * disconnected it fails at once.
   */
  readonly enqueueTimeoutMs?: number;
  /** Where retries (warn), dropped requests (error) and Redis errors are reported. */
  readonly logger?: QueueLogger;
}

/** What a BullMQ job carries: the issue, and the generation its id was made with. */
interface JobData {
  readonly key: string;
  readonly gen: number;
}

/** The per-issue records of the design above. */
interface IssueRecords {
  readonly pending: string;
  readonly running: string;
  readonly gen: string;
  readonly lock: string;
}

/** gen:K outlives any job made from it; after that a reset to 0 only risks an extra job. */
const GEN_TTL_MS = 24 * 60 * 60 * 1000;
const JOB_NAME = 'reconcile';
const BACKOFF_TYPE = 'claims-exponential';

/**
 * KEYS: pending, gen, seq, pending index. ARGV: issue, members... Adds new members in arrival
 * order, indexes the issue as pending, and returns gen.
 */
const enqueueScript = new RedisScript(`
for i = 2, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[i])
  end
end
redis.call('SADD', KEYS[4], ARGV[1])
return tonumber(redis.call('GET', KEYS[2]) or '0')`);

/**
 * KEYS: lock, pending, running, pending index, running index. ARGV: token, ttl, issue. Nil
 * when the issue is locked; else takes the lock and returns running ∪ pending (oldest first),
 * which becomes the new running.
 */
const takeScript = new RedisScript(`
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return false
end
redis.call('ZUNIONSTORE', KEYS[3], 2, KEYS[3], KEYS[2], 'AGGREGATE', 'MIN')
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[4], ARGV[3])
local members = redis.call('ZRANGE', KEYS[3], 0, -1)
if #members > 0 then
  redis.call('SADD', KEYS[5], ARGV[3])
end
return members`);

/**
 * KEYS: lock, running, pending, gen, running index. ARGV: token, job gen, gen ttl, issue.
 * Ends a run: see FINISH above. Returns {'lost'} when another holder has the lock,
 * {'again', gen} when requests are pending, {'done'} otherwise.
 */
const finishScript = new RedisScript(`
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  return {'lost'}
end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[5], ARGV[4])
local gen = tonumber(redis.call('GET', KEYS[4]) or '0')
if gen == tonumber(ARGV[2]) then
  gen = redis.call('INCR', KEYS[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
end
if redis.call('EXISTS', KEYS[3]) == 1 then
  return {'again', gen}
end
return {'done'}`);

/**
 * KEYS: pending, gen, pending index. ARGV: issue. The gen to add a job for when requests are
 * pending, else -1 (and the issue leaves the index).
 */
const ensureScript = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return tonumber(redis.call('GET', KEYS[2]) or '0')
end
redis.call('SREM', KEYS[3], ARGV[1])
return -1`);

/** KEYS: lock. ARGV: token, ttl. Extends the lock only while `token` holds it. */
const extendScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`);

/** KEYS: lock. ARGV: token. Releases the lock only while `token` holds it. */
const releaseScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

/** A job id for issue `id` at generation `gen`; BullMQ forbids `:` in ids, so encode. */
function jobIdFor(id: string, gen: number): string {
  return `${encodeURIComponent(id)}.${gen}`;
}

/** The request a run carries, rebuilt from the members it took. */
function requestFromMembers(key: IssueKey, members: readonly string[]): ReconcileRequest {
  const hints: Hint[] = [];
  const reasons: string[] = [];
  for (const member of members) {
    if (member.startsWith('h:')) hints.push(JSON.parse(member.slice(2)) as Hint);
    else if (member.startsWith('r:')) reasons.push(member.slice(2));
  }
  return { key, hints, reason: reasons.join(REASON_SEPARATOR) };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Closes a connection (QUIT); one that Redis does not answer is dropped instead. */
async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') return redis.disconnect();
  await redis.quit().catch(() => redis.disconnect());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The shared {@link WorkQueue} (SPEC §7, `CLAIMS_REDIS_URL` set): BullMQ jobs plus per-issue
 * records in Redis, so that any number of replicas, each with its own worker, never reconcile
 * one issue at once, coalesce bursts, and run once more for an event that arrives mid-run.
 * The design and its races are written down at the top of this file.
 */
export class BullQueue implements WorkQueue {
  /** The worker side's connection: waits out outages (see the top of this file). */
  private readonly redis: Redis;
  private readonly ownsConnection: boolean;
  private readonly queue: Queue<JobData>;
  /** The producer side's own connection and queue: fail fast (see the top of this file). */
  private readonly producer: Redis;
  private readonly producerQueue: Queue<JobData>;
  private worker: Worker<JobData> | undefined;
  private handler: ReconcileHandler | undefined;
  private repairTimer: NodeJS.Timeout | undefined;
  private repairing: Promise<void> = Promise.resolve();
  private closed = false;

  private readonly queueName: string;
  private readonly prefix: string;
  private readonly namespace: string;
  private readonly concurrency: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxAttempts: number;
  private readonly lockDurationMs: number;
  private readonly stalledIntervalMs: number;
  private readonly maxStalledCount: number;
  private readonly lockRetryDelayMs: number;
  private readonly repairIntervalMs: number;
  private readonly idlePollMs: number;
  private readonly logger: QueueLogger;

  constructor(options: BullQueueOptions) {
    this.logger = options.logger ?? pino({ name: 'claim-warden-queue' });
    if (typeof options.connection === 'string') {
      // BullMQ workers need maxRetriesPerRequest null: a blocking read must not give up.
      this.redis = new Redis(options.connection, { maxRetriesPerRequest: null });
      this.redis.on('error', (err) => this.logger.warn({ err }, 'work queue: Redis error'));
      this.ownsConnection = true;
    } else {
      this.redis = options.connection;
      this.ownsConnection = false;
    }
    this.queueName = options.queueName ?? 'reconcile';
    this.prefix = options.prefix ?? 'claims';
    this.namespace = `${this.prefix}:${this.queueName}:cw:`;
    this.concurrency = options.concurrency ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.lockDurationMs = options.lockDurationMs ?? 30_000;
    this.stalledIntervalMs = options.stalledIntervalMs ?? 30_000;
    this.maxStalledCount = options.maxStalledCount ?? 3;
    this.lockRetryDelayMs = options.lockRetryDelayMs ?? 250;
    this.repairIntervalMs = options.repairIntervalMs ?? 60_000;
    this.idlePollMs = options.idlePollMs ?? 50;

    const producerOptions = {
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.enqueueTimeoutMs ?? 2000,
    };
    this.producer =
      typeof options.connection === 'string'
        ? new Redis(options.connection, producerOptions)
        : options.connection.duplicate(producerOptions);
    // Outages are reported by the worker side's connection; failed enqueues by their caller.
    this.producer.on('error', () => {});

    this.queue = this.createQueue(this.redis);
    this.producerQueue = this.createQueue(this.producer);
  }

  private createQueue(connection: Redis): Queue<JobData> {
    const queue = new Queue<JobData>(this.queueName, {
      connection,
      prefix: this.prefix,
      defaultJobOptions: {
        attempts: this.maxAttempts,
        backoff: { type: BACKOFF_TYPE },
        // Removing finished jobs frees their ids; the design relies on it (see above).
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
    const records = this.records(id);
    const members = [
      ...request.hints.map((hint) => `h:${canonicalJson(hint)}`),
      `r:${request.reason}`,
    ];
    // Once connected, the producer fails fast; only its very first connection is waited for.
    await this.producerQueue.waitUntilReady();
    const gen = await enqueueScript.run(
      this.producer,
      [records.pending, records.gen, this.shared('seq'), this.shared('pending-index')],
      [id, ...members],
    );
    await this.addJob(id, Number(gen), this.producerQueue);
  }

  start(handler: ReconcileHandler): void {
    if (this.handler) throw new Error('the work queue was started already');
    this.handler = handler;
    this.worker = new Worker<JobData>(this.queueName, (job, token) => this.process(job, token), {
      connection: this.redis,
      prefix: this.prefix,
      concurrency: this.concurrency,
      lockDuration: this.lockDurationMs,
      stalledInterval: this.stalledIntervalMs,
      maxStalledCount: this.maxStalledCount,
      settings: {
        backoffStrategy: (attemptsMade: number) =>
          backoffDelay(attemptsMade, this.baseDelayMs, this.maxDelayMs),
      },
    });
    this.worker.on('error', (err) => this.logger.warn({ err }, 'work queue worker: Redis error'));
    this.worker.on('failed', (job, err) => {
      // Our processor never fails a job for good (the last attempt drops and completes), so a
      // finished failure comes from BullMQ itself: a job that stalled too often, or Redis
      // errors on every attempt.
      if (job?.finishedOn) void this.afterJobGivenUp(job, err);
    });
    this.repairing = this.repairOrphans();
    this.repairTimer = setInterval(() => {
      this.repairing = this.repairOrphans();
    }, this.repairIntervalMs);
  }

  /** Resolves when no job waits, runs or is delayed and no request is pending (tests). */
  async idle(): Promise<void> {
    while (!(await this.isIdle())) await sleep(this.idlePollMs);
  }

  async depth(): Promise<number> {
    // The producer side: a scrape of /metrics while Redis is away fails fast, not hangs.
    const counts = await this.producerQueue.getJobCounts('waiting', 'delayed', 'prioritized');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  /** Holds the issue's `lock:K` (see the top of this file) while `fn` runs; fails fast. */
  async exclusive<T>(key: IssueKey, fn: () => Promise<T>): Promise<T> {
    // As in enqueue: only the producer's very first connection is waited for.
    await this.producerQueue.waitUntilReady();
    const lock = this.records(issueKeyString(key)).lock;
    return exclusiveOnRedis(this.producer, lock, fn, { ttlMs: this.lockDurationMs });
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
    await quit(this.producer);
    if (this.ownsConnection) await quit(this.redis);
  }

  private records(id: string): IssueRecords {
    return {
      pending: `${this.namespace}pending:${id}`,
      running: `${this.namespace}running:${id}`,
      gen: `${this.namespace}gen:${id}`,
      lock: `${this.namespace}lock:${id}`,
    };
  }

  /** A record shared by all issues of the queue. */
  private shared(name: 'seq' | 'pending-index' | 'running-index'): string {
    return `${this.namespace}${name}`;
  }

  private async addJob(id: string, gen: number, queue = this.queue): Promise<void> {
    await queue.add(JOB_NAME, { key: id, gen }, { jobId: jobIdFor(id, gen) });
  }

  /** One job: take the issue's requests under its lock, run them, and settle (see above). */
  private async process(job: Job<JobData>, token: string | undefined): Promise<void> {
    const id = job.data.key;
    const key = parseIssueKeyString(id);
    if (key === null) {
      this.logger.error(
        { jobId: job.id, data: job.data },
        'work queue: job without an issue key dropped',
      );
      return;
    }
    const records = this.records(id);
    const lockToken = randomUUID();
    const taken = (await takeScript.run(
      this.redis,
      [
        records.lock,
        records.pending,
        records.running,
        this.shared('pending-index'),
        this.shared('running-index'),
      ],
      [lockToken, this.lockDurationMs, id],
    )) as string[] | null;
    if (taken === null) return this.waitForIssue(job, token);
    // Empty: another job of this issue served every request already; nothing to reconcile.
    if (taken.length === 0) return this.finish(job, records, lockToken);

    const error = await this.runHandler(requestFromMembers(key, taken), records.lock, lockToken);
    if (error === undefined) return this.finish(job, records, lockToken);

    const attempt = job.attemptsMade + 1;
    if (attempt >= (job.opts.attempts ?? this.maxAttempts)) {
      this.logger.error(
        { issue: id, attempts: attempt, err: error },
        'reconcile failed on every attempt; request dropped',
      );
      return this.finish(job, records, lockToken);
    }
    this.logger.warn({ issue: id, attempt, err: error }, 'reconcile failed; will retry');
    // running:K stays: the retry's TAKE merges it with whatever arrives meanwhile.
    await releaseScript.run(this.redis, [records.lock], [lockToken]);
    throw asError(error);
  }

  /** Runs the handler while renewing the issue lock; resolves the error it threw, if any. */
  private async runHandler(
    request: ReconcileRequest,
    lockKey: string,
    lockToken: string,
  ): Promise<unknown> {
    const stopRenewing = this.keepLock(lockKey, lockToken, issueKeyString(request.key));
    try {
      await this.handler!(request);
      return undefined;
    } catch (error) {
      return error ?? new Error('handler threw without a reason');
    } finally {
      stopRenewing();
    }
  }

  /** Renews the issue lock every third of its TTL until the returned function is called. */
  private keepLock(lockKey: string, lockToken: string, issue: string): () => void {
    const renew = async () => {
      try {
        const extended = await extendScript.run(
          this.redis,
          [lockKey],
          [lockToken, this.lockDurationMs],
        );
        if (extended !== 1) this.logger.warn({ issue }, 'work queue: issue lock lost mid-run');
      } catch (err) {
        this.logger.warn({ err, issue }, 'work queue: issue lock renewal failed');
      }
    };
    const timer = setInterval(
      () => void renew(),
      Math.max(10, Math.floor(this.lockDurationMs / 3)),
    );
    return () => clearInterval(timer);
  }

  /** The issue runs in another job: come back shortly without spending an attempt. */
  private async waitForIssue(job: Job<JobData>, token: string | undefined): Promise<never> {
    await job.moveToDelayed(Date.now() + this.lockRetryDelayMs, token);
    throw new DelayedError();
  }

  /** Ends a run (FINISH above) and adds the job for requests that arrived during it. */
  private async finish(job: Job<JobData>, records: IssueRecords, lockToken: string): Promise<void> {
    const [outcome, gen] = (await finishScript.run(
      this.redis,
      [records.lock, records.running, records.pending, records.gen, this.shared('running-index')],
      [lockToken, job.data.gen, GEN_TTL_MS, job.data.key],
    )) as [string, number?];
    if (outcome === 'lost') {
      this.logger.warn(
        { issue: job.data.key },
        'work queue: issue lock lost; its new holder runs the rest',
      );
    } else if (outcome === 'again') {
      await this.addJob(job.data.key, Number(gen));
    }
  }

  /** Adds a job for the issue's pending requests unless one exists (adds are idempotent). */
  private async ensureJob(id: string): Promise<void> {
    const records = this.records(id);
    const gen = Number(
      await ensureScript.run(
        this.redis,
        [records.pending, records.gen, this.shared('pending-index')],
        [id],
      ),
    );
    if (gen >= 0) await this.addJob(id, gen);
  }

  /**
   * Enqueue is two steps (record, then add the job); a producer that dies between them leaves
   * requests without a job. Every replica therefore re-adds jobs for all pending issues at
   * start and every `repairIntervalMs`; for an issue that has its job this is a no-op.
   */
  private async repairOrphans(): Promise<void> {
    try {
      const ids = await this.redis.smembers(this.shared('pending-index'));
      for (const id of ids) {
        if (this.closed) return;
        await this.ensureJob(id);
      }
    } catch (err) {
      this.logger.warn({ err }, 'work queue: could not look for orphaned requests');
    }
  }

  private async afterJobGivenUp(job: Job<JobData>, err: Error): Promise<void> {
    this.logger.error(
      { issue: job.data.key, err },
      'work queue: job given up by BullMQ; request dropped',
    );
    try {
      await this.ensureJob(job.data.key);
    } catch (error) {
      this.logger.error(
        { issue: job.data.key, err: error },
        'work queue: could not requeue pending requests',
      );
    }
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
      this.redis.scard(this.shared('pending-index')),
      this.redis.scard(this.shared('running-index')),
    ]);
    return pending === 0 && running === 0;
  }
}
