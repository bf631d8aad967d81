import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/connect-redis.js';

/**
 * A Lua script run by SHA, loaded on first use (EVALSHA, then EVAL on NOSCRIPT), so each call
 * sends 40 bytes rather than the source, and a Redis restart (which empties the script cache)
 * costs one retry. Shared by the store and the queue.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script atomically with `keys` (KEYS) and `args` (ARGV). */
  async run(
    redis: RedisClient,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
      return await redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
