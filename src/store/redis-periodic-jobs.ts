import { randomUUID } from 'node:crypto';
import { type RepoKey, repoKeyString } from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import { extendLockScript, releaseLockScript } from './lock-scripts.js';
import type { DeliveryCheckpoint, PeriodicJobs } from './periodic-jobs.js';
import { RedisPart } from './redis-connection.js';

/**
 * {@link PeriodicJobs} on Redis: `lock:<name>` set with NX PX to a random token, a hash
 * `checkpoints` (repository -> epoch ms) and a string `redeliver-checkpoint` (JSON, epoch ms).
 */
export class RedisPeriodicJobs extends RedisPart implements PeriodicJobs {
  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    const token = randomUUID();
    return (await this.setIfAbsent(this.key('lock', name), token, ttlMs)) ? token : null;
  }

  async extendLock(name: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const reply = await extendLockScript.run(
      await this.client(),
      [this.key('lock', name)],
      [token, Math.ceil(ttlMs)],
    );
    return reply === 1;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    const reply = await releaseLockScript.run(
      await this.client(),
      [this.key('lock', name)],
      [token],
    );
    return reply === 1;
  }

  async getCheckpoint(repo: RepoKey): Promise<Date | null> {
    const value = await (await this.client()).hget(this.key('checkpoints'), repoKeyString(repo));
    return value === null ? null : new Date(Number(value));
  }

  async setCheckpoint(repo: RepoKey, at: Date): Promise<void> {
    await (await this.client()).hset(this.key('checkpoints'), repoKeyString(repo), at.getTime());
  }

  async deliveryCheckpoint(): Promise<DeliveryCheckpoint | null> {
    const value = await (await this.client()).get(this.key('redeliver-checkpoint'));
    if (value === null) return null;
    try {
      const { id, deliveredAt } = JSON.parse(value) as { id?: unknown; deliveredAt?: unknown };
      if (typeof id !== 'number' || typeof deliveredAt !== 'number') return null;
      return { id, deliveredAt: new Date(deliveredAt) };
    } catch {
      // Written by another version: start over from three days back, which is safe.
      return null;
    }
  }

  async setDeliveryCheckpoint(checkpoint: DeliveryCheckpoint): Promise<void> {
    const value = { id: checkpoint.id, deliveredAt: checkpoint.deliveredAt.getTime() };
    await (await this.client()).set(this.key('redeliver-checkpoint'), JSON.stringify(value));
  }
}
