import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import { BullQueue } from '../queue/bullmq-queue.js';
import { MemoryQueue } from '../queue/memory-queue.js';
import type { WorkQueue } from '../queue/queue.js';
import type { BoardSessions } from '../store/board-sessions.js';
import { MemoryBoardSessions } from '../store/memory-board-sessions.js';
import { MemoryStore } from '../store/memory-store.js';
import { RedisBoardSessions } from '../store/redis-board-sessions.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';

/** The store and the work queue the app runs on. */
interface Backends {
  readonly store: Store;
  readonly queue: WorkQueue;
  /** The claims board's live sessions (docs/protocol.md §14), beside the store. */
  readonly sessions: BoardSessions;
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
      sessions: new MemoryBoardSessions(),
      queue: new MemoryQueue({ concurrency: settings.queueConcurrency, logger }),
    };
  }
  const prefix = `${settings.redisPrefix}:`;
  // Fails fast (RedisStore's FAIL_FAST_OPTIONS): it answers the webhook path.
  const store = new RedisStore({ url: settings.redisUrl, prefix });
  return {
    mode: 'redis',
    store,
    // On the store's connection, so a sign-out on one replica is seen by all at once.
    sessions: new RedisBoardSessions({ redis: () => store.connection(), prefix }),
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
