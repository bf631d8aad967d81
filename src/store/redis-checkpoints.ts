import { type RepoKey, repoKeyString } from '../keys.js';
import type { Checkpoints, DeliveryCheckpoint } from './checkpoints.js';
import type { RedisKeys } from './redis-connection.js';

/**
 * {@link Checkpoints} on Redis: one hash `checkpoints` (repository -> epoch ms) and one string
 * `redeliver-checkpoint` (JSON, time in epoch ms).
 */
export class RedisCheckpoints implements Checkpoints {
  constructor(private readonly db: RedisKeys) {}

  async getCheckpoint(repo: RepoKey): Promise<Date | null> {
    const value = await (await this.db.client()).hget(
      this.db.key('checkpoints'),
      repoKeyString(repo),
    );
    return value === null ? null : new Date(Number(value));
  }

  async setCheckpoint(repo: RepoKey, at: Date): Promise<void> {
    await (await this.db.client()).hset(
      this.db.key('checkpoints'),
      repoKeyString(repo),
      at.getTime(),
    );
  }

  async deliveryCheckpoint(): Promise<DeliveryCheckpoint | null> {
    const value = await (await this.db.client()).get(this.db.key('redeliver-checkpoint'));
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
    await (await this.db.client()).set(this.db.key('redeliver-checkpoint'), JSON.stringify(value));
  }
}
