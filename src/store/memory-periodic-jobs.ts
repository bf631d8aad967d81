import { randomUUID } from 'node:crypto';
import { type RepoKey, repoKeyString } from '../keys.js';
import { assertTtl } from './assert-ttl.js';
import type { DeliveryCheckpoint, PeriodicJobs } from './periodic-jobs.js';

interface Lock {
  readonly token: string;
  readonly expiresAt: number;
}

/** {@link PeriodicJobs} in the process. Dates are copied in and out, as Redis would. */
export class MemoryPeriodicJobs implements PeriodicJobs {
  private readonly locks = new Map<string, Lock>();
  private readonly checkpoints = new Map<string, number>();
  private redeliverCheckpoint: DeliveryCheckpoint | null = null;

  constructor(private readonly now: () => number) {}

  async acquireLock(name: string, ttlMs: number): Promise<string | null> {
    assertTtl(ttlMs);
    if (this.#held(name) !== undefined) return null;
    const token = randomUUID();
    this.locks.set(name, { token, expiresAt: this.now() + ttlMs });
    return token;
  }

  async extendLock(name: string, token: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    if (this.#held(name)?.token !== token) return false;
    this.locks.set(name, { token, expiresAt: this.now() + ttlMs });
    return true;
  }

  async releaseLock(name: string, token: string): Promise<boolean> {
    if (this.#held(name)?.token !== token) return false;
    this.locks.delete(name);
    return true;
  }

  /** The lock named `name` if it is held now; an expired one is forgotten on the way. */
  #held(name: string): Lock | undefined {
    const lock = this.locks.get(name);
    if (lock === undefined) return undefined;
    if (lock.expiresAt > this.now()) return lock;
    this.locks.delete(name);
    return undefined;
  }

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
