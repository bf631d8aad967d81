import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/connect-redis.js';
import { assertTtl } from './assert-ttl.js';
import type { BoardSessions } from './board-sessions.js';

/** Options of {@link RedisBoardSessions}. */
interface RedisBoardSessionsOptions {
  /** The connection to use, once up (the app shares the RedisStore's: `store.connection()`). */
  readonly redis: () => Promise<RedisClient>;
  /** Prefix of every key written (the store's, e.g. `claims:`), so replicas of one app share. */
  readonly prefix: string;
}

/**
 * {@link BoardSessions} on Redis (any number of replicas): one key per session, `SET … PX`
 * with the session's lifetime, so Redis forgets it when the cookie would expire anyway. The
 * key holds a hash of the id, never the id. `DEL` is atomic: of two sign-outs, one sees 1.
 */
export class RedisBoardSessions implements BoardSessions {
  constructor(private readonly options: RedisBoardSessionsOptions) {}

  async start(id: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs);
    await (await this.options.redis()).set(this.key(id), '1', 'PX', Math.ceil(ttlMs));
  }

  async isLive(id: string): Promise<boolean> {
    return (await (await this.options.redis()).exists(this.key(id))) === 1;
  }

  async end(id: string): Promise<boolean> {
    return (await (await this.options.redis()).del(this.key(id))) === 1;
  }

  private key(id: string): string {
    return `${this.options.prefix}board-session:${createHash('sha256').update(id).digest('base64url')}`;
  }
}
