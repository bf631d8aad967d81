import { settingDefault } from '../config/settings.js';
import type { RedisAddress, RedisClient } from '../redis/connect-redis.js';
import { installationShare } from './fair-order.js';
import type { QueueLogger } from './queue.js';
import { type RetryOptions, resolveRetry } from './retry.js';

/** Options of the BullMQ queue (src/queue/bullmq-queue.ts). */
export interface BullQueueOptions extends RetryOptions {
  /**
   * The Redis to share with the other replicas: an ioredis client the caller owns (BullMQ
   * workers need it created with `maxRetriesPerRequest: null`), or an address (the settings'
   * target, a URL) the queue connects to and closes.
   */
  readonly connection: RedisClient | RedisAddress;
  /** BullMQ queue name (default `reconcile`); replicas sharing work use the same one. */
  readonly queueName?: string;
  /** BullMQ key prefix (default `claims`; on a Cluster a hash tag, src/redis/keyspace.ts). */
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
  /**
   * The per-issue lock's lease (default `lockDurationMs`, at most 10000 ms), renewed every
   * third of it while held: short, so an issue whose holder lost its Redis connection (it can
   * neither renew nor release) is free again within seconds, not a whole `lockDurationMs`.
   */
  readonly issueLockMs?: number;
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

/** The longest default lease of the per-issue lock (see {@link BullQueueOptions.issueLockMs}). */
// Longer than a Redis failover takes (a Sentinel or Cluster promotion: 5–7 s here), so a run
// that cannot renew through one keeps its issue; far shorter than the run lock it replaced.
const ISSUE_LOCK_LEASE_MS = 10_000;

/** {@link BullQueueOptions} with every default filled in, read once by the constructor. */
export type ResolvedOptions = Required<Omit<BullQueueOptions, 'connection' | 'logger'>>;

/** Fills in the defaults of {@link BullQueueOptions}. */
export function resolveOptions(options: BullQueueOptions): ResolvedOptions {
  return {
    ...resolveRetry(options),
    queueName: options.queueName ?? 'reconcile',
    prefix: options.prefix ?? settingDefault('CLAIMS_REDIS_PREFIX'),
    concurrency: options.concurrency ?? 8,
    perInstallation: options.perInstallation ?? installationShare(options.concurrency ?? 8),
    lockDurationMs: options.lockDurationMs ?? 30_000,
    issueLockMs:
      options.issueLockMs ?? Math.min(options.lockDurationMs ?? 30_000, ISSUE_LOCK_LEASE_MS),
    stalledIntervalMs: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 3,
    lockRetryDelayMs: options.lockRetryDelayMs ?? 250,
    repairIntervalMs: options.repairIntervalMs ?? 60_000,
    idlePollMs: options.idlePollMs ?? 50,
    enqueueTimeoutMs: options.enqueueTimeoutMs ?? 2000,
  };
}
