import { Cluster, ReplyError } from 'ioredis';
import type { Logger } from 'pino';
import type { RedisClient } from './connect-redis.js';

/** Thrown when a Redis of the app may evict keys: start-up stops. */
class EvictionPolicyError extends Error {
  override readonly name = 'EvictionPolicyError';
}

/**
 * Refuses a Redis that may evict keys: an evicted lock, job or delivery id loses work or runs
 * it twice, silently, and BullMQ requires `noeviction`. On a Cluster every primary is asked.
 * A server that does not allow `CONFIG GET` (managed services, an ACL user without it) is
 * logged as not checked, and start-up goes on.
 */
export async function checkEvictionPolicy(client: RedisClient, log: Logger): Promise<void> {
  const servers = client instanceof Cluster ? client.nodes('master') : [client];
  for (const server of servers) {
    const where = `${server.options.host ?? 'redis'}:${server.options.port ?? 6379}`;
    let reply: unknown;
    try {
      reply = await server.config('GET', 'maxmemory-policy');
    } catch (error) {
      if (!(error instanceof ReplyError)) throw error;
      log.warn(
        { redis: where, reason: (error as Error).message },
        'could not check Redis maxmemory-policy (CONFIG GET is not allowed here): make sure it is noeviction',
      );
      continue;
    }
    const policy = Array.isArray(reply) ? reply[1] : undefined;
    if (policy === undefined) {
      log.warn(
        { redis: where },
        'Redis did not report maxmemory-policy: make sure it is noeviction',
      );
    } else if (policy !== 'noeviction') {
      throw new EvictionPolicyError(
        `Redis at ${where} has maxmemory-policy ${policy}; claim-warden needs noeviction (an evicted lock, job or delivery id is lost work, silently): set maxmemory-policy noeviction in its configuration (redis.conf, CONFIG SET maxmemory-policy noeviction, or the parameter group of a managed service)`,
      );
    }
  }
}
