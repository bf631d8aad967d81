import type { Logger } from 'pino';
import { redisVariable } from '../config/redis-target.js';
import type { Settings } from '../config/settings.js';
import { BullQueue } from '../queue/bullmq-queue.js';
import { MemoryQueue } from '../queue/memory-queue.js';
import type { WorkQueue } from '../queue/queue.js';
import { checkEvictionPolicy } from '../redis/check-eviction.js';
import { keyspace } from '../redis/keyspace.js';
import type { BoardSessions } from '../store/board-sessions.js';
import { MemoryBoardSessions } from '../store/memory-board-sessions.js';
import { MemoryStore } from '../store/memory-store.js';
import { RedisBoardSessions } from '../store/redis-board-sessions.js';
import { RedisStore } from '../store/redis-store.js';
import type { Store } from '../store/store.js';

/** The store and the work queue the app runs on. */
type Backends = {
  readonly store: Store;
  readonly queue: WorkQueue;
  /** The claims board's live sessions (docs/protocol.md §14), beside the store. */
  readonly sessions: BoardSessions;
} & (
  | { readonly mode: 'embedded' }
  | {
      /** Any number of replicas on one Redis. */
      readonly mode: 'redis';
      /** The variable that named Redis, for messages about it. */
      readonly variable: string;
      /** The start-up check of the Redis itself (its eviction policy), once it answers. */
      checkRedis(log: Logger): Promise<void>;
    }
);

/**
 * docs/protocol.md §7: with no Redis named, state and queue live in the process (one
 * replica); with one (`CLAIMS_REDIS_URL`, `_SENTINELS` or `_CLUSTER`), every replica shares
 * it for state, locks, delivery ids and the queue.
 */
export function createBackends(
  settings: Pick<Settings, 'redis' | 'redisPrefix' | 'queueConcurrency' | 'queueLockMs'>,
  log: Logger,
): Backends {
  const logger = log.child({ name: 'queue' });
  if (!settings.redis) {
    return {
      mode: 'embedded',
      store: new MemoryStore(),
      sessions: new MemoryBoardSessions(),
      queue: new MemoryQueue({ concurrency: settings.queueConcurrency, logger }),
    };
  }
  const tag = keyspace(settings.redis, settings.redisPrefix);
  const prefix = `${tag}:`;
  // Fails fast (src/redis/connect-redis.ts): it answers the webhook path.
  const store = new RedisStore({ target: settings.redis, prefix });
  return {
    mode: 'redis',
    variable: redisVariable(settings.redis),
    store,
    checkRedis: async (checkLog) => checkEvictionPolicy(await store.connection(), checkLog),
    // On the store's connection, so a sign-out on one replica is seen by all at once.
    sessions: new RedisBoardSessions({ redis: () => store.connection(), prefix }),
    queue: new BullQueue({
      connection: settings.redis,
      prefix: tag,
      concurrency: settings.queueConcurrency,
      // A killed replica's reconciles resume elsewhere after about one to two of these.
      lockDurationMs: settings.queueLockMs,
      stalledIntervalMs: settings.queueLockMs,
      logger,
    }),
  };
}
