import { type RepoKey, repoKeyString } from '../keys.js';
import type { Checkpoints, DeliveryCheckpoint } from './checkpoints.js';

/** {@link Checkpoints} in the process. Dates are copied in and out, as Redis would. */
export class MemoryCheckpoints implements Checkpoints {
  private readonly checkpoints = new Map<string, number>();
  private redeliverCheckpoint: DeliveryCheckpoint | null = null;

  async getCheckpoint(repo: RepoKey): Promise<Date | null> {
    const at = this.checkpoints.get(repoKeyString(repo));
    return at === undefined ? null : new Date(at);
  }

  async setCheckpoint(repo: RepoKey, at: Date): Promise<void> {
    this.checkpoints.set(repoKeyString(repo), at.getTime());
  }

  async deliveryCheckpoint(): Promise<DeliveryCheckpoint | null> {
    const checkpoint = this.redeliverCheckpoint;
    return checkpoint === null
      ? null
      : { ...checkpoint, deliveredAt: new Date(checkpoint.deliveredAt) };
  }

  async setDeliveryCheckpoint(checkpoint: DeliveryCheckpoint): Promise<void> {
    this.redeliverCheckpoint = { ...checkpoint, deliveredAt: new Date(checkpoint.deliveredAt) };
  }
}
