import { randomUUID } from 'node:crypto';
import { assertTtl } from './assert-ttl.js';
import { extendLockScript, releaseLockScript } from './lock-scripts.js';
import type { Locks } from './locks.js';
import type { RedisKeys } from './redis-connection.js';

/** {@link Locks} on Redis: `lock:<name>` set with NX PX to a random token. */
export class RedisLocks implements Locks {
  constructor(private readonly db: RedisKeys) {}

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    const token = randomUUID();
    const reply = await (await this.db.client()).set(
      this.db.key('lock', name),
      token,
      'PX',
      Math.ceil(ttlMs),
      'NX',
    );
    return reply === 'OK' ? token : null;
  }

  async extendLock(name: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const reply = await extendLockScript.run(
      await this.db.client(),
      [this.db.key('lock', name)],
      [token, Math.ceil(ttlMs)],
    );
    return reply === 1;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    const reply = await releaseLockScript.run(
      await this.db.client(),
      [this.db.key('lock', name)],
      [token],
    );
    return reply === 1;
  }
}
