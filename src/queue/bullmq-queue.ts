import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { type IssueKey, issueKeyString, parseIssueKeyString } from '../keys.js';
import { extendLockScript, releaseLockScript } from '../store/lock-scripts.js';
import { FAIL_FAST_OPTIONS } from '../store/redis-store.js';
import {
  enqueueScript,
  ensureScript,
  finishScript,
  holdScript,
  parkedScript,
  takeScript,
} from './bullmq-scripts.js';
import { canonicalJson } from './canonical-json.js';
import { handOverExhausted } from './exhausted.js';
import { installationShare } from './fair-order.js';
import { exclusiveOnRedis } from './issue-lock.js';
import {
  type Hint,
  type QueueHooks,
  type QueueLogger,
  REASON_SEPARATOR,
  type ReconcileHandler,
  type ReconcileRequest,
  type WorkQueue,
} from './queue.js';
import { type RetryOptions, resolveRetry, retryAfterOf, retryDelay } from './retry.js';

/*
 * How the guarantees of WorkQueue hold across replicas
 * =====================================================
 *
 * BullMQ gives at-least-once jobs, retries with backoff and stalled-job recovery, but no
 * per-issue serialisation (its groups are a Pro feature) and no "one more run" semantics.
 * Both come from four small records per issue K, under `<prefix>:<queue>:cw:`, changed only
 * by the Lua scripts of bullmq-scripts.ts, so each change is atomic:
 *
 *   pending:K  ZSET  requests not yet taken by a run. Members `h:<canonical hint JSON>` and
 *                    `r:<reason>`; score = a global arrival counter, so ZADD NX de-duplicates
 *                    while keeping first-arrival order. Every request adds an `r:` member, so
 *                    "pending:K exists" means "a request is not yet served".
 *   running:K  ZSET  what the current (or a dead) run took. Kept until that run ends well,
 *                    so a killed run's hints are merged into the next run, not lost.
 *   gen:K      INT   generation: the job for K is `<K>.<gen>`. Bumped when a run ends.
 *   lock:K     STR   the per-issue lock: a random token, PX TTL, renewed while running.
 plus two sets indexing the issues with a pending:K or a running:K, for `idle()` and for
 * the orphan repair below; and per installation I, for fairness (bullmq-scripts.ts):
 *   admitted:I SET   the issues of I that have a job: at most `perInstallation` of them.
 *   parked:I   ZSET  the issues of I waiting for admission (pending:K, no job yet).
 *   held:I     STR   set, with the wait as TTL, while I waits out a GitHub rate limit.
 *
 * ENQUEUE: add the members to pending:K and admit K (or park it); when admitted, read gen:K
 *   and `queue.add` with jobId K.gen. BullMQ ignores an add whose jobId exists, so a burst
 *   makes one job: coalescing. A parked K gets its job when an admitted issue of I finishes.
 * RUN (processor of job K.g):
 *   TAKE    — while held:I lives, move the job to delayed until it expires. SET lock:K NX;
 *             if held, move the job to delayed for `lockRetryDelayMs` and
 *             try again (another job of K runs somewhere). Else merge pending:K into
 *             running:K and return it. Empty: every request was served; skip the handler.
 *   handler — lock:K renewed every lockDuration/3 meanwhile.
 *   FINISH  — (success, or failure on the last attempt = drop) if lock:K is still ours or
 *             free: delete lock:K and running:K; bump gen:K if it is still g; if pending:K
 *             exists (requests arrived during the run) return the gen to add a job for;
 *             else K leaves admitted:I and the oldest parked issues of I are admitted, their
 *             jobs added by the processor.
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
 *   safe (docs/protocol.md §6).
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
 * - A replica dies after FINISH admitted parked issues but before it added their jobs: they
 *   are admitted with pending:K and no job, which the repair below finds (late, never lost).
 *   A job that runs an issue not admitted (a stray re-created job) only serves it early.
 * - An issue delayed for a retry keeps its admission: its installation's other work waits
 *   behind fewer slots, other installations' not at all.
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
   * Issues of one installation with a job at once, across all replicas (default half of
   * `concurrency`): the admission cap that keeps a burst in one installation from filling
   * the queue ahead of every other's work (see bullmq-scripts.ts).
   */
  readonly perInstallation?: number;
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
  readonly logger: QueueLogger;
}

/** {@link BullQueueOptions} with every default filled in, read once by the constructor. */
type ResolvedOptions = Required<Omit<BullQueueOptions, 'connection' | 'logger'>>;

function resolveOptions(options: BullQueueOptions): ResolvedOptions {
  return {
    ...resolveRetry(options),
    queueName: options.queueName ?? 'reconcile',
    prefix: options.prefix ?? 'claims',
    concurrency: options.concurrency ?? 8,
    perInstallation: options.perInstallation ?? installationShare(options.concurrency ?? 8),
    lockDurationMs: options.lockDurationMs ?? 30_000,
    stalledIntervalMs: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 3,
    lockRetryDelayMs: options.lockRetryDelayMs ?? 250,
    repairIntervalMs: options.repairIntervalMs ?? 60_000,
    idlePollMs: options.idlePollMs ?? 50,
    enqueueTimeoutMs: options.enqueueTimeoutMs ?? 2000,
  };
}

/** What a BullMQ job carries: the issue, and the generation its id was made with. */
interface JobData {
  readonly key: string;
  readonly gen: number;
}

/** The per-issue records of the design above, and those of the issue's installation. */
interface IssueRecords {
  readonly pending: string;
  readonly running: string;
  readonly gen: string;
  readonly lock: string;
  /** Issues of the installation with a job (admission, see bullmq-scripts.ts). */
  readonly admitted: string;
  /** Issues of the installation waiting for admission. */
  readonly parked: string;
  /** Set while the installation waits out a rate limit; its TTL is the wait. */
  readonly held: string;
}

/** Flat `issue, gen, issue, gen, ...` replies of the scripts: the jobs to add. */
function jobsToAdd(flat: readonly unknown[]): Array<readonly [string, number]> {
  const jobs: Array<readonly [string, number]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) jobs.push([String(flat[i]), Number(flat[i + 1])]);
  return jobs;
}

/** gen:K outlives any job made from it; after that a reset to 0 only risks an extra job. */
const GEN_TTL_MS = 24 * 60 * 60 * 1000;
const JOB_NAME = 'reconcile';
const BACKOFF_TYPE = 'claims-exponential';

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

/** An Error for BullMQ; anything else thrown is kept as its cause (with its `retryAfterMs`). */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error), { cause: error });
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
 * The shared {@link WorkQueue} (docs/protocol.md §7, `CLAIMS_REDIS_URL` set): BullMQ jobs plus per-issue
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
  private hooks: QueueHooks = {};
  private repairTimer: NodeJS.Timeout | undefined;
  private repairing: Promise<void> = Promise.resolve();
  private closed = false;

  private readonly options: ResolvedOptions;
  /** Where this queue's own records live: `<prefix>:<queue>:cw:`. */
  private readonly namespace: string;
  private readonly logger: QueueLogger;

  constructor(options: BullQueueOptions) {
    this.logger = options.logger;
    this.options = resolveOptions(options);
    if (typeof options.connection === 'string') {
      // BullMQ workers need maxRetriesPerRequest null: a blocking read must not give up.
      this.redis = new Redis(options.connection, { maxRetriesPerRequest: null });
      this.redis.on('error', (err) => this.logger.warn({ err }, 'work queue: Redis error'));
      this.ownsConnection = true;
    } else {
      this.redis = options.connection;
      this.ownsConnection = false;
    }
    this.namespace = `${this.options.prefix}:${this.options.queueName}:cw:`;

    // The store's fail-fast connection, with the queue's own command timeout.
    const producerOptions = { ...FAIL_FAST_OPTIONS, commandTimeout: this.options.enqueueTimeoutMs };
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
    const queue = new Queue<JobData>(this.options.queueName, {
      connection,
      prefix: this.options.prefix,
      defaultJobOptions: {
        attempts: this.options.maxAttempts,
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
    const records = this.records(request.key);
    const members = [
      ...request.hints.map((hint) => `h:${canonicalJson(hint)}`),
      `r:${request.reason}`,
    ];
    // Once connected, the producer fails fast; only its very first connection is waited for.
    await this.producerQueue.waitUntilReady();
    const jobs = (await enqueueScript.run(
      this.producer,
      [
        records.pending,
        this.shared('seq'),
        this.shared('pending-index'),
        records.admitted,
        records.parked,
        this.shared('parked-index'),
      ],
      [id, request.key.installationId, this.namespace, this.options.perInstallation, ...members],
    )) as unknown[];
    await this.addJobs(jobsToAdd(jobs), this.producerQueue);
  }

  start(handler: ReconcileHandler, hooks: QueueHooks = {}): void {
    if (this.handler) throw new Error('the work queue was started already');
    this.handler = handler;
    this.hooks = hooks;
    this.worker = new Worker<JobData>(
      this.options.queueName,
      (job, token) => this.process(job, token),
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
      if (job?.finishedOn) void this.afterJobGivenUp(job, err);
    });
    this.repairing = this.repairOrphans();
    this.repairTimer = setInterval(() => {
      this.repairing = this.repairOrphans();
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
      parkedScript.run(this.producer, [this.shared('parked-index')], [this.namespace]),
    ]);
    return Object.values(counts).reduce((sum, count) => sum + count, Number(parked));
  }

  /** Holds the issue's `lock:K` (see the top of this file) while `fn` runs; fails fast. */
  async exclusive<T>(key: IssueKey, fn: () => Promise<T>): Promise<T> {
    // As in enqueue: only the producer's very first connection is waited for.
    await this.producerQueue.waitUntilReady();
    const lock = this.records(key).lock;
    return exclusiveOnRedis(this.producer, lock, fn, { ttlMs: this.options.lockDurationMs });
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

  private records(key: IssueKey): IssueRecords {
    const id = issueKeyString(key);
    const installation = key.installationId;
    return {
      pending: `${this.namespace}pending:${id}`,
      running: `${this.namespace}running:${id}`,
      gen: `${this.namespace}gen:${id}`,
      lock: `${this.namespace}lock:${id}`,
      admitted: `${this.namespace}admitted:${installation}`,
      parked: `${this.namespace}parked:${installation}`,
      held: `${this.namespace}held:${installation}`,
    };
  }

  /** A record shared by all issues of the queue. */
  private shared(name: 'seq' | 'pending-index' | 'running-index' | 'parked-index'): string {
    return `${this.namespace}${name}`;
  }

  private async addJob(id: string, gen: number, queue = this.queue): Promise<void> {
    await queue.add(JOB_NAME, { key: id, gen }, { jobId: jobIdFor(id, gen) });
  }

  private async addJobs(
    jobs: ReadonlyArray<readonly [string, number]>,
    queue = this.queue,
  ): Promise<void> {
    for (const [id, gen] of jobs) await this.addJob(id, gen, queue);
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
    const records = this.records(key);
    const lockToken = randomUUID();
    const [outcome, ...taken] = (await takeScript.run(
      this.redis,
      [
        records.lock,
        records.pending,
        records.running,
        this.shared('pending-index'),
        this.shared('running-index'),
        records.held,
      ],
      [lockToken, this.options.lockDurationMs, id],
    )) as string[];
    if (outcome === 'held') return this.comeBackIn(job, token, Number(taken[0]));
    if (outcome === 'locked') return this.comeBackIn(job, token, this.options.lockRetryDelayMs);
    // Empty: another job of this issue served every request already; nothing to reconcile.
    if (taken.length === 0) return this.finish(job, key, lockToken);

    const request = requestFromMembers(key, taken);
    const error = await this.runHandler(request, records.lock, lockToken);
    if (error === undefined) return this.finish(job, key, lockToken);

    const retryAfterMs = retryAfterOf(error);
    if (retryAfterMs !== undefined) await this.hold(key.installationId, records.held, retryAfterMs);
    const attempt = job.attemptsMade + 1;
    if (attempt >= (job.opts.attempts ?? this.options.maxAttempts)) {
      await handOverExhausted(this.hooks, this.logger, request, error, attempt);
      return this.finish(job, key, lockToken);
    }
    // The delay BullMQ's backoffStrategy below computes for this attempt.
    const delayMs = retryDelay(attempt, this.options, error);
    this.logger.warn({ issue: id, attempt, delayMs, err: error }, 'reconcile failed; will retry');
    // running:K stays: the retry's TAKE merges it with whatever arrives meanwhile.
    await releaseLockScript.run(this.redis, [records.lock], [lockToken]);
    throw asError(error);
  }

  /**
   * GitHub asked this installation to wait (docs/protocol.md §6): on every replica, none of its
   * jobs takes its issue for `ms` (TAKE moves them to delayed); other installations' run on.
   */
  private async hold(installationId: number, held: string, ms: number): Promise<void> {
    this.logger.warn(
      { installationId, waitMs: ms },
      'GitHub rate limit: holding the installation’s reconciles for the wait it asked for',
    );
    try {
      await holdScript.run(this.redis, [held], [Math.max(1, Math.ceil(ms))]);
    } catch (err) {
      // The failed job still waits (its backoff); only the installation's others may not.
      this.logger.warn({ err, installationId }, 'work queue: could not hold the installation');
    }
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
        const extended = await extendLockScript.run(
          this.redis,
          [lockKey],
          [lockToken, this.options.lockDurationMs],
        );
        if (extended !== 1) this.logger.warn({ issue }, 'work queue: issue lock lost mid-run');
      } catch (err) {
        this.logger.warn({ err, issue }, 'work queue: issue lock renewal failed');
      }
    };
    const timer = setInterval(
      () => void renew(),
      Math.max(10, Math.floor(this.options.lockDurationMs / 3)),
    );
    return () => clearInterval(timer);
  }

  /**
   * The issue runs in another job, or its installation waits out a rate limit: come back in
   * `ms` without spending an attempt.
   */
  private async comeBackIn(
    job: Job<JobData>,
    token: string | undefined,
    ms: number,
  ): Promise<never> {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  }

  /**
   * Ends a run (FINISH above) and adds the job for requests that arrived during it, or those
   * of the parked issues admitted in the issue's place.
   */
  private async finish(job: Job<JobData>, key: IssueKey, lockToken: string): Promise<void> {
    const records = this.records(key);
    const [outcome, ...jobs] = (await finishScript.run(
      this.redis,
      [
        records.lock,
        records.running,
        records.pending,
        records.gen,
        this.shared('running-index'),
        records.admitted,
        records.parked,
        this.shared('parked-index'),
      ],
      [
        lockToken,
        job.data.gen,
        GEN_TTL_MS,
        job.data.key,
        key.installationId,
        this.namespace,
        this.options.perInstallation,
      ],
    )) as unknown[];
    if (outcome === 'lost') {
      this.logger.warn(
        { issue: job.data.key },
        'work queue: issue lock lost; its new holder runs the rest',
      );
      return;
    }
    await this.addJobs(jobsToAdd(jobs));
  }

  /**
   * Adds a job for the issue's pending requests unless one exists or the issue is parked
   * (adds are idempotent); an issue with nothing left gives its admission up (`givenUp`: even
   * with records of a failed run left, as when BullMQ gave its job up).
   */
  private async ensureJob(id: string, givenUp = false): Promise<void> {
    const key = parseIssueKeyString(id);
    if (key === null) return;
    const records = this.records(key);
    const jobs = (await ensureScript.run(
      this.redis,
      [
        records.pending,
        this.shared('seq'),
        this.shared('pending-index'),
        records.admitted,
        records.parked,
        this.shared('parked-index'),
        records.running,
        records.lock,
      ],
      [id, key.installationId, this.namespace, this.options.perInstallation, givenUp ? 1 : 0],
    )) as unknown[];
    await this.addJobs(jobsToAdd(jobs));
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
      await this.ensureJob(job.data.key, true);
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
