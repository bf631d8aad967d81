import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, type Queue } from 'bullmq';
import { keepLease } from '../fence/lease.js';
import { type IssueKey, issueKeyString, parseIssueKeyString } from '../keys.js';
import type { RedisClient } from '../redis/connect-redis.js';
import { releaseLockScript } from '../store/lock-scripts.js';
import type { ResolvedOptions } from './bullmq-options.js';
import {
  addJobs,
  GEN_TTL_MS,
  type JobData,
  jobsToAdd,
  type QueueRecords,
} from './bullmq-records.js';
import { ensureScript, finishScript, holdScript, takeScript } from './bullmq-scripts.js';
import { handOverExhausted } from './exhausted.js';
import {
  type Hint,
  type QueueHooks,
  type QueueLogger,
  REASON_SEPARATOR,
  type ReconcileHandler,
  type ReconcileRequest,
} from './queue.js';
import { RATE_LIMIT_HOLD, retryAfterOf, retryDelay } from './retry.js';

/** What {@link IssueRuns} works with: the worker side of the queue (docs/replicas.md). */
interface IssueRunsContext {
  /** The worker side's connection: waits out outages. */
  readonly redis: RedisClient;
  /** The worker side's queue, where the next jobs are added. */
  readonly queue: Queue<JobData>;
  readonly records: QueueRecords;
  readonly options: ResolvedOptions;
  readonly logger: QueueLogger;
  readonly handler: ReconcileHandler;
  readonly hooks: QueueHooks;
  /** Whether the queue is closing: the repair stops. */
  readonly closed: () => boolean;
}

/**
 * The worker side of the BullMQ queue, one job at a time: take the issue's requests under its
 * lock, run them, and settle (take, run and finish in docs/replicas.md); and the repair of
 * requests a producer or BullMQ left without a job.
 */
export class IssueRuns {
  constructor(private readonly context: IssueRunsContext) {}

  /** One job: take the issue's requests under its lock, run them, and settle. */
  async process(job: Job<JobData>, token: string | undefined): Promise<void> {
    const { redis, records: all, options, logger } = this.context;
    const id = job.data.key;
    const key = parseIssueKeyString(id);
    if (key === null) {
      logger.error(
        { jobId: job.id, data: job.data },
        'work queue: job without an issue key dropped',
      );
      return;
    }
    const records = all.of(key);
    const lockToken = randomUUID();
    const takenAt = performance.now();
    const [outcome, ...taken] = (await takeScript.run(
      redis,
      [
        records.lock,
        records.pending,
        records.running,
        all.shared('pending-index'),
        all.shared('running-index'),
        records.held,
      ],
      [lockToken, options.issueLockMs, id],
    )) as string[];
    if (outcome === 'held') return this.comeBackIn(job, token, Number(taken[0]));
    if (outcome === 'locked') return this.comeBackIn(job, token, options.lockRetryDelayMs);
    // Empty: another job of this issue served every request already; nothing to reconcile.
    if (taken.length === 0) return this.finish(job, key, lockToken);

    // The job was added with the issue's first pending request; a retry's wait is its backoff.
    const request = {
      ...requestFromMembers(key, taken),
      ...(job.attemptsMade === 0 ? { queuedAt: job.timestamp } : {}),
    };
    const error = await this.runHandler(request, records.lock, lockToken, takenAt);
    if (error === undefined) return this.finish(job, key, lockToken);

    const retryAfterMs = retryAfterOf(error);
    if (retryAfterMs !== undefined) await this.hold(key.installationId, records.held, retryAfterMs);
    const attempt = job.attemptsMade + 1;
    if (attempt >= (job.opts.attempts ?? options.maxAttempts)) {
      await handOverExhausted(this.context.hooks, logger, request, error, attempt);
      return this.finish(job, key, lockToken);
    }
    // The delay BullMQ's backoffStrategy computes for this attempt.
    const delayMs = retryDelay(attempt, options, error);
    logger.warn({ issue: id, attempt, delayMs, err: error }, 'reconcile failed; will retry');
    // running:K stays: the retry's TAKE merges it with whatever arrives meanwhile.
    await releaseLockScript.run(redis, [records.lock], [lockToken]);
    throw asError(error);
  }

  /**
   * Enqueue is two steps (record, then add the job); a producer that dies between them leaves
   * requests without a job. Every replica therefore re-adds jobs for all pending issues at
   * start and every `repairIntervalMs`; for an issue that has its job this is a no-op.
   */
  async repairOrphans(): Promise<void> {
    try {
      const ids = await this.context.redis.smembers(this.context.records.shared('pending-index'));
      for (const id of ids) {
        if (this.context.closed()) return;
        await this.ensureJob(id);
      }
    } catch (err) {
      this.context.logger.warn({ err }, 'work queue: could not look for orphaned requests');
    }
  }

  /** After BullMQ gave a job up: logged, and a new job added for requests still pending. */
  async afterJobGivenUp(job: Job<JobData>, err: Error): Promise<void> {
    const { logger } = this.context;
    logger.error(
      { issue: job.data.key, err },
      'work queue: job given up by BullMQ; request dropped',
    );
    try {
      await this.ensureJob(job.data.key, true);
    } catch (error) {
      logger.error(
        { issue: job.data.key, err: error },
        'work queue: could not requeue pending requests',
      );
    }
  }

  /**
   * GitHub asked this installation to wait (docs/protocol.md §6): on every replica, none of its
   * jobs takes its issue for `ms` (TAKE moves them to delayed); other installations' run on.
   */
  private async hold(installationId: number, held: string, ms: number): Promise<void> {
    this.context.logger.warn({ installationId, waitMs: ms }, RATE_LIMIT_HOLD);
    try {
      await holdScript.run(this.context.redis, [held], [Math.max(1, Math.ceil(ms))]);
    } catch (err) {
      // The failed job still waits (its backoff); only the installation's others may not.
      this.context.logger.warn(
        { err, installationId },
        'work queue: could not hold the installation',
      );
    }
  }

  /**
   * Runs the handler while renewing the issue lock (taken by a command sent at `takenAt`), its
   * writes fenced by the lease (src/fence/lease.ts); resolves the error it threw, if any.
   */
  private async runHandler(
    request: ReconcileRequest,
    lockKey: string,
    lockToken: string,
    takenAt: number,
  ): Promise<unknown> {
    const { redis, options, logger } = this.context;
    const issue = issueKeyString(request.key);
    const { lease, stop } = keepLease(
      redis,
      lockKey,
      lockToken,
      options.issueLockMs,
      takenAt,
      (why, err) =>
        why === 'lost'
          ? logger.warn({ issue }, 'work queue: issue lock lost mid-run; its writes stop')
          : logger.warn({ err, issue }, 'work queue: issue lock renewal failed'),
    );
    try {
      await this.context.handler({ ...request, lease });
      return undefined;
    } catch (error) {
      return error ?? new Error('handler threw without a reason');
    } finally {
      stop();
    }
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
   * Ends a run (the finish of docs/replicas.md) and adds the job for requests that arrived
   * during it, or those of the parked issues admitted in the issue's place.
   */
  private async finish(job: Job<JobData>, key: IssueKey, lockToken: string): Promise<void> {
    const { records: all, options } = this.context;
    const records = all.of(key);
    const [outcome, ...jobs] = (await finishScript.run(
      this.context.redis,
      [
        records.lock,
        records.running,
        records.pending,
        records.gen,
        all.shared('running-index'),
        records.admitted,
        records.parked,
        all.shared('parked-index'),
      ],
      [
        lockToken,
        job.data.gen,
        GEN_TTL_MS,
        job.data.key,
        key.installationId,
        all.namespace,
        options.perInstallation,
      ],
    )) as unknown[];
    if (outcome === 'lost') {
      this.context.logger.warn(
        { issue: job.data.key },
        'work queue: issue lock lost; its new holder runs the rest',
      );
      return;
    }
    await addJobs(this.context.queue, jobsToAdd(jobs));
  }

  /**
   * Adds a job for the issue's pending requests unless one exists or the issue is parked
   * (adds are idempotent); an issue with nothing left gives its admission up (`givenUp`: even
   * with records of a failed run left, as when BullMQ gave its job up).
   */
  private async ensureJob(id: string, givenUp = false): Promise<void> {
    const key = parseIssueKeyString(id);
    if (key === null) return;
    const { records: all, options } = this.context;
    const records = all.of(key);
    const jobs = (await ensureScript.run(
      this.context.redis,
      [
        records.pending,
        all.shared('seq'),
        all.shared('pending-index'),
        records.admitted,
        records.parked,
        all.shared('parked-index'),
        records.running,
        records.lock,
      ],
      [id, key.installationId, all.namespace, options.perInstallation, givenUp ? 1 : 0],
    )) as unknown[];
    await addJobs(this.context.queue, jobsToAdd(jobs));
  }
}

/** The request a run carries, rebuilt from the members it took. */
function requestFromMembers(key: IssueKey, members: readonly string[]): ReconcileRequest {
  const hints: Hint[] = [];
  const reasons: string[] = [];
  const trace: string[] = [];
  for (const member of members) {
    if (member.startsWith('h:')) hints.push(JSON.parse(member.slice(2)) as Hint);
    else if (member.startsWith('r:')) reasons.push(member.slice(2));
    else if (member.startsWith('t:')) trace.push(member.slice(2));
  }
  const request = { key, hints, reason: reasons.join(REASON_SEPARATOR) };
  return trace.length > 0 ? { ...request, trace } : request;
}

/** An Error for BullMQ; anything else thrown is kept as its cause (with its `retryAfterMs`). */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error), { cause: error });
}
