import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import { BullQueue } from '../queue/bullmq-queue.js';
import { MemoryQueue } from '../queue/memory-queue.js';
import type { WorkQueue } from '../queue/queue.js';
import { MemoryStore } from '../store/memory-store.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';

/** The store and the work queue the app runs on. */
export interface Backends {
  readonly store: Store;
  readonly queue: WorkQueue;
  /** `embedded` (one replica) or `redis` (any number of replicas). */
  readonly mode: 'embedded' | 'redis';
}

/**
 * docs/protocol.md §7: with `CLAIMS_REDIS_URL` unset, state and queue live in the process (one replica);
 * with it set, every replica shares Redis for state, locks, delivery ids and the queue.
 */
export function createBackends(
  settings: Pick<Settings, 'redisUrl' | 'redisPrefix' | 'queueConcurrency' | 'queueLockMs'>,
  log: Logger,
): Backends {
  const logger = log.child({ name: 'queue' });
  if (!settings.redisUrl) {
    return {
      mode: 'embedded',
      store: new MemoryStore(),
      queue: new MemoryQueue({ concurrency: settings.queueConcurrency, logger }),
    };
  }
  return {
    mode: 'redis',
    // Fails fast (RedisStore's FAIL_FAST_OPTIONS): it answers the webhook path.
    store: new RedisStore({ url: settings.redisUrl, prefix: `${settings.redisPrefix}:` }),
    queue: new BullQueue({
      connection: settings.redisUrl,
      prefix: settings.redisPrefix,
      concurrency: settings.queueConcurrency,
      // A killed replica's reconciles resume elsewhere after about one to two of these.
      lockDurationMs: settings.queueLockMs,
      stalledIntervalMs: settings.queueLockMs,
      logger,
    }),
  };
}
